import Synchronization
import VidrecSystem

/// An open file that a response sends: owns its descriptor until the server takes it
/// (``take()``) for the daemon, which closes it with the response; closes it itself if
/// the response is never sent.
public final class OpenFile: Sendable {
    private let descriptor: Mutex<FileDescriptor?>

    /// Takes ownership of `descriptor`.
    public init(_ descriptor: FileDescriptor) {
        self.descriptor = Mutex(descriptor)
    }

    /// The descriptor, handed over once: the caller closes it from now on.
    public func take() -> FileDescriptor? {
        descriptor.withLock { value in
            defer { value = nil }
            return value
        }
    }

    deinit { descriptor.withLock { $0 }?.close() }
}
