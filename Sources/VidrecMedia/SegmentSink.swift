/// Where the segments of a continuous recording go (`--segment`), as the segment writer
/// opens and closes them: the recording core decides each file's path and tags, and
/// what happens to a closed one (finalized, made pending or saved to the album).
///
/// Called on the segment writer's thread, one call at a time.
public protocol SegmentSink: AnyObject, Sendable {
    /// The file for segment `index`, which starts `seconds` into the recording, and the
    /// tags to write into it.
    func openSegment(_ index: Int, startingAt seconds: Double) throws -> (path: String, metadata: [String: String])

    /// Segment `index` is complete in `path` (its trailer written), or ended by
    /// `failure` with what was written before it.
    func closeSegment(_ index: Int, path: String, failure: (any Error)?) throws
}
