import Foundation
import VidrecSystem

/// The newest picture of the viewfinder, for everyone watching it: the viewfinder output
/// publishes a small JPEG now and then, and each watcher (a browser's MJPEG stream)
/// waits for one newer than the last it sent. A watcher never holds up the camera: a
/// slow one skips pictures.
///
/// Guarded by one `NSCondition`; that is why the class is `@unchecked Sendable`.
public final class ViewfinderFeed: @unchecked Sendable {
    /// A published picture and its number (1, 2, …, in order).
    public struct Picture: Sendable, Equatable {
        /// The JPEG.
        public let jpeg: Data
        /// Its number, higher for newer pictures.
        public let number: Int64
        /// When the camera captured its frame (CLOCK_MONOTONIC, ns), if known: how old
        /// the picture is, for measuring the viewfinder's latency.
        public let capturedAt: Int64?
    }

    private let condition = NSCondition()
    private var newest: Picture?
    /// When the newest picture was published (CLOCK_MONOTONIC, ns).
    private var newestAt: Int64 = 0
    /// Whether the newest picture's source has gone (``withdraw()``).
    private var isWithdrawn = false
    private var isClosed = false
    /// When a watcher last asked for a picture (CLOCK_MONOTONIC, ns).
    private var lastDemand: Int64?

    /// How long a feed counts as watched after a watcher last asked (ns).
    public static let watchedFor: Int64 = 3_000_000_000
    /// How old a picture a new watcher is given may be (ns): an older one (the last of a
    /// preview that nobody watched for an hour) is not shown as the camera's picture.
    public static let freshFor: Int64 = 1_000_000_000

    /// The clock the feed dates pictures and demands by (CLOCK_MONOTONIC, ns).
    private let clock: @Sendable () -> Int64

    /// Creates a feed with no picture yet.
    ///
    /// - Parameter clock: what dates pictures and demands (ns); tests give their own.
    public init(clock: @escaping @Sendable () -> Int64 = MonotonicClock.now) {
        self.clock = clock
    }

    /// Makes `jpeg` the newest picture and wakes every watcher; `capturedAt` is when its
    /// frame was captured (CLOCK_MONOTONIC, ns), if known.
    public func publish(_ jpeg: Data, capturedAt: Int64? = nil) {
        condition.lock()
        defer { condition.unlock() }
        newest = Picture(jpeg: jpeg, number: (newest?.number ?? 0) + 1, capturedAt: capturedAt)
        newestAt = clock()
        isWithdrawn = false
        condition.broadcast()
    }

    /// The newest picture if it is newer than `number` (`nil`: any published in the last
    /// ``freshFor``), waiting up to `timeout` seconds for one.
    ///
    /// - Returns: `nil` when none came in time, or the feed was closed.
    public func picture(after number: Int64?, timeout: Double) -> Picture? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        lastDemand = clock()
        while !isClosed {
            if let newest, newest.number > (number ?? 0), number != nil || !isWithdrawn && clock() - newestAt < Self.freshFor {
                return newest
            }
            guard condition.wait(until: deadline) else { return nil }
        }
        return nil
    }

    /// Whether someone has asked for a picture in the last ``watchedFor``: a viewfinder
    /// nobody watches encodes nothing (a Raspberry Pi recording unattended for days
    /// spends no CPU on it).
    public var isWatched: Bool {
        condition.lock()
        defer { condition.unlock() }
        guard let lastDemand else { return false }
        return clock() - lastDemand < Self.watchedFor
    }

    /// Keeps the newest picture from new watchers: its source (a preview, a recording)
    /// has gone, and a watcher who comes now waits for the next source's first picture
    /// instead of being shown the last one's. Watchers already served still wait only
    /// for a newer picture.
    public func withdraw() {
        condition.lock()
        defer { condition.unlock() }
        isWithdrawn = true
    }

    /// The newest picture, without waiting.
    public var current: Picture? {
        condition.lock()
        defer { condition.unlock() }
        return newest
    }

    /// Ends the feed: every watcher's wait returns `nil`, now and later.
    public func close() {
        condition.lock()
        defer { condition.unlock() }
        isClosed = true
        condition.broadcast()
    }
}
