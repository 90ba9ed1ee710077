import Synchronization

/// The ``FollowUp`` parts of one `vidrec start`, made as its features are and read
/// from the signal thread and the recording's threads.
final class FollowUps: Sendable {
    private let parts = Mutex<[any FollowUp]>([])

    /// Adds a part made for the recording.
    func add(_ part: any FollowUp) { parts.withLock { $0.append(part) } }

    /// The parts made so far.
    var all: [any FollowUp] { parts.withLock { $0 } }

    /// Tells every part of a saved file.
    func saved(_ file: SavedFile) { for part in all { part.saved(file) } }

    /// Tells every part of what happened.
    func happened(_ happening: RecordingHappening) { for part in all { part.happened(happening) } }
}
