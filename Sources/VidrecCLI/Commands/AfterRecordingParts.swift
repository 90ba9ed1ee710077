import Synchronization

/// The ``AfterRecording`` parts of one `vidrec start`, made as its features are and read
/// from the signal thread and the recording's threads.
final class AfterRecordingParts: Sendable {
    private let parts = Mutex<[any AfterRecording]>([])

    /// Adds a part made for the recording.
    func add(_ part: any AfterRecording) { parts.withLock { $0.append(part) } }

    /// The parts made so far.
    var all: [any AfterRecording] { parts.withLock { $0 } }
}
