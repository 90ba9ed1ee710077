import Foundation

/// Pictures as `multipart/x-mixed-replace` (the MJPEG stream every browser shows in an
/// `<img>`, as mjpg-streamer and ustreamer send it): each picture a part of its own,
/// `Content-Type: image/jpeg` with its length, and `X-Vidrec-Captured` with when its frame
/// was captured (CLOCK_MONOTONIC, ns) where that is known, so that a client on the same
/// machine can tell how old each picture is (`scripts/benchmark-viewfinder`). The next
/// picture comes from `next`, which waits for one newer than the last sent; while none
/// comes, nothing is sent.
public final class MultipartPictureStream: HTTPStream, @unchecked Sendable {
    /// The boundary between parts, for the response's `Content-Type`.
    public static let boundary = "vidrec-picture"
    /// The response's `Content-Type`.
    public static let contentType = "multipart/x-mixed-replace; boundary=\(boundary)"

    /// Gives the picture after the one numbered as given (`nil`: any), waiting at most
    /// about a second; `nil` when none came yet. It is asked again until the stream is
    /// closed.
    public typealias Next = @Sendable (_ after: Int64?) -> (jpeg: Data, number: Int64, capturedAt: Int64?)?

    private let next: Next
    private let closed: (@Sendable () -> Void)?
    private let lock = NSLock()
    private var pending = Data()
    private var sent = 0
    private var lastNumber: Int64?
    private var isClosed = false

    /// A stream of the pictures `next` gives; `closed` is called once, when it is closed.
    public init(next: @escaping Next, closed: (@Sendable () -> Void)? = nil) {
        self.next = next
        self.closed = closed
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        while true {
            lock.lock()
            if isClosed {
                lock.unlock()
                return nil
            }
            if sent < pending.count {
                let count = min(buffer.count, pending.count - sent)
                pending.withUnsafeBytes { bytes in
                    buffer.baseAddress!.copyMemory(from: bytes.baseAddress! + sent, byteCount: count)
                }
                sent += count
                lock.unlock()
                return count
            }
            let after = lastNumber
            lock.unlock()
            // Waits outside the lock, so that close() is never held up.
            guard let picture = next(after) else { continue }
            lock.lock()
            lastNumber = picture.number
            let captured = picture.capturedAt.map { "X-Vidrec-Captured: \($0)\r\n" } ?? ""
            var part = Data("--\(Self.boundary)\r\nContent-Type: image/jpeg\r\nContent-Length: \(picture.jpeg.count)\r\n\(captured)\r\n".utf8)
            part.append(picture.jpeg)
            part.append(Data("\r\n".utf8))
            pending = part
            sent = 0
            lock.unlock()
        }
    }

    public func close() {
        lock.lock()
        let wasClosed = isClosed
        isClosed = true
        lock.unlock()
        if !wasClosed { closed?() }
    }
}
