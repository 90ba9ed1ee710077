import Foundation
import VidrecSystem

/// The machinery both kinds of connection share: a named thread that takes items from
/// a FIFO in order and writes them to an output, until the input has ended and nothing
/// is left, then closes the output; the first failure stops the writing, discards what
/// waits, and is kept.
///
/// What may wait, and what happens when the queue is full, is the connection's policy:
/// ``OutputConnection`` (frames and audio for a capture output) and the packet
/// connections of the FFmpeg encoder decide under ``withLock(_:)`` what to append.
///
/// State is guarded by one `NSCondition`, the connection's own counts (`Counts`: what
/// waits, what was dropped) with it; the output is touched only by the worker's thread.
/// That is why the class is `@unchecked Sendable`.
public final class OutputWorker<Item, Counts>: @unchecked Sendable {
    /// The state a connection reads and changes while it holds the lock.
    public struct Locked {
        fileprivate let worker: OutputWorker

        /// The first failure, if the output failed.
        public var failure: (any Error)? { worker.firstFailure }
        /// Whether the input has ended.
        public var isFinishing: Bool { worker.finishing }
        /// Whether the input is still open and the output has not failed.
        public var isTaking: Bool { worker.firstFailure == nil && !worker.finishing }
        /// The connection's counts, read and changed only here, under the lock.
        public var counts: Counts {
            get { worker.counts }
            nonmutating set { worker.counts = newValue }
        }

        /// Appends `item` for the thread to write.
        public func append(_ item: Item) {
            worker.items.append(item)
            worker.condition.broadcast()
        }

        /// Waits (releasing the lock) until the thread has taken an item or failed.
        public func wait() { worker.condition.wait() }

        /// Records `error` as the output's failure, if it is the first.
        public func fail(_ error: any Error) {
            if worker.firstFailure == nil { worker.firstFailure = error }
            worker.condition.broadcast()
        }
    }

    private let threadName: String
    private let condition = NSCondition()
    private var items = FIFOQueue<Item>()
    private var finishing = false
    private var firstFailure: (any Error)?
    private var thread: NamedThread?
    private var counts: Counts

    /// A worker whose thread will be called `threadName` (at most 15 bytes show), with
    /// the connection's `counts` kept under its lock.
    public init(threadName: String, counts: Counts) {
        self.threadName = threadName
        self.counts = counts
    }

    /// Runs `body` with the lock held.
    public func withLock<T>(_ body: (Locked) -> T) -> T {
        condition.lock()
        defer { condition.unlock() }
        return body(Locked(worker: self))
    }

    /// Starts the thread. Call once.
    ///
    /// - Parameters:
    ///   - taken: called with the lock held for each item the thread takes, with the
    ///     counts to update (what waits), and with `nil` when a failure discarded
    ///     everything waiting.
    ///   - write: writes one item, on the thread; a throw is the output's failure.
    ///   - close: closes the output once the input has ended, on the thread, also
    ///     after a failure.
    public func start(taken: @escaping (Item?, inout Counts) -> Void, write: @escaping (Item) throws -> Void,
                      close: @escaping () throws -> Void) {
        condition.lock()
        defer { condition.unlock() }
        precondition(thread == nil, "an output worker starts once")
        let work = Work(taken: taken, write: write, close: close)
        thread = NamedThread(name: threadName) { [self] in run(work) }
    }

    /// Ends the input: the thread closes the output once it has written everything
    /// waiting. Returns at once.
    public func finish() {
        withLock { _ in
            finishing = true
            condition.broadcast()
        }
    }

    /// Ends the input if that has not been done, and waits until the output is closed.
    ///
    /// - Returns: the output's first error, if it failed at any point (also in closing).
    @discardableResult
    public func waitUntilFinished() -> (any Error)? {
        finish()
        let worker = withLock { _ -> NamedThread? in defer { thread = nil }; return thread }
        worker?.join()
        return failure
    }

    /// Whether the thread has been joined (or never started).
    public var isStopped: Bool { withLock { _ in thread == nil } }

    /// The output's first error, if it failed.
    public var failure: (any Error)? { withLock { $0.failure } }

    /// What the thread runs. Sendable by hand: it is handed to the thread once, and its
    /// closures are called on that thread only (`taken` with the lock held).
    private struct Work: @unchecked Sendable {
        let taken: (Item?, inout Counts) -> Void
        let write: (Item) throws -> Void
        let close: () throws -> Void
    }

    private func run(_ work: Work) {
        while let item = next(work) {
            do { try work.write(item) } catch { withLock { $0.fail(error) } }
        }
        do { try work.close() } catch { withLock { $0.fail(error) } }
    }

    /// The next item to write, waiting for one; `nil` once the input has ended and
    /// nothing is left. After a failure, what is waiting is discarded.
    private func next(_ work: Work) -> Item? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if firstFailure != nil {
                items.removeAll()
                work.taken(nil, &counts)
                condition.broadcast()
                if finishing { return nil }
                condition.wait()
                continue
            }
            if let item = items.removeFirst() {
                work.taken(item, &counts)
                condition.broadcast()
                return item
            }
            if finishing { return nil }
            condition.wait()
        }
    }
}
