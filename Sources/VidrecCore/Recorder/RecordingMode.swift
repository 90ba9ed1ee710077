/// How a recording is written: one movie, a continuous series of segments, one file for
/// each event, or both series at once. The ``Recorder`` makes the movie output and the
/// pending entries for the mode, and nothing else depends on it.
public enum RecordingMode: Sendable {
    /// One movie, finalized and (with `--save`) saved when the recording ends.
    case singleFile
    /// `--segment`: a continuous recording cut into files of a given length, each its
    /// own pending recording, committed to the album as it closes (with `--save`).
    case segments(SegmentSettings, FileSeries)
    /// `--pre`/`--post`: nothing is written until a trigger (``Recorder/trigger()``);
    /// then one file for each event, with what was kept from before it.
    case events(EventSettings, FileSeries)
    /// `--segment` with `--pre`/`--post`: the continuous segments, and beside them one
    /// file for each event, from one encode.
    case segmentsAndEvents(SegmentSettings, FileSeries, EventSettings, events: FileSeries)

    /// How the files of a segmented or event recording are named and reported (the
    /// segments', when there are both); `nil` for a single movie.
    public var series: FileSeries? {
        switch self {
        case .singleFile: nil
        case let .segments(_, series), let .events(_, series), let .segmentsAndEvents(_, series, _, _): series
        }
    }

    /// Whether the recording waits for triggers: it writes nothing until one comes.
    public var waitsForTriggers: Bool {
        if case .events = self { return true }
        return false
    }

    /// Whether triggers start event files: the recording waits for them, or writes
    /// them beside its segments.
    public var takesTriggers: Bool {
        switch self {
        case .events, .segmentsAndEvents: true
        case .singleFile, .segments: false
        }
    }
}
