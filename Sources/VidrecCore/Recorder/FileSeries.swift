import Foundation

/// The files of a segmented or event recording (``RecordingMode``): how each is named,
/// and who hears of each as it opens and closes.
public struct FileSeries: Sendable {
    /// The name to save each file under, from its start time (`--name`), if any.
    public var name: (@Sendable (Date) -> String)?
    /// Hears about each file as it opens (on the file's thread): its number from 0, its
    /// pending ID, and the time its media starts.
    public var opened: @Sendable (_ index: Int, _ id: String, _ start: Date) -> Void = { _, _, _ in }
    /// Hears about each file as it closes (on the file's thread).
    public var closed: @Sendable (SegmentReport) -> Void
    /// Hears of each older file removed to stay above the `--min-free` floor.
    public var reclaimed: @Sendable (String) -> Void

    /// Creates a series; see the properties for the meaning of each argument.
    public init(name: (@Sendable (Date) -> String)? = nil, closed: @escaping @Sendable (SegmentReport) -> Void = { _ in },
                reclaimed: @escaping @Sendable (String) -> Void = { _ in }) {
        self.name = name
        self.closed = closed
        self.reclaimed = reclaimed
    }
}
