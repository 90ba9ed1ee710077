import VidrecMedia

/// Holds audio that the ``Timeline`` has placed until video has reached the same time,
/// so that whatever ends a recording (a limit, a stop, a failure), the audio written
/// never runs ahead of the video written.
///
/// Without it, audio overtakes video whenever frames wait in the capture queue or are
/// dropped there because encoding fell behind: the audio between two surviving frames
/// is written at once, and a stop at that moment leaves the audio longer than the video
/// by the whole backlog.
///
/// Positions are audio frames (samples per channel) from t = 0, at the source's rate.
/// What is held is bounded by the session's stall timeout: a camera that sends nothing
/// for that long ends the recording.
public struct AudioGate: Sendable {
    /// Audio frames released so far (the end of the audio written).
    public private(set) var released: Int64 = 0
    /// Audio frames held back, waiting for video.
    public private(set) var held: Int64 = 0
    /// Audio frames discarded at the end because they lay past the video's end.
    public private(set) var discarded: Int64 = 0

    private var pieces: [AudioChunk] = []

    /// Creates an empty gate.
    public init() {}

    /// Takes audio placed on the timeline, in order, right after what was held before.
    public mutating func hold(_ placed: [AudioChunk]) {
        for piece in placed where piece.frameCount > 0 {
            pieces.append(piece)
            held += Int64(piece.frameCount)
        }
    }

    /// The held audio up to position `end` (where video has reached), in order; pieces
    /// that straddle `end` are split.
    public mutating func release(upTo end: Int64) -> [AudioChunk] {
        var out: [AudioChunk] = []
        var taken = 0
        while taken < pieces.count, released < end {
            let piece = pieces[taken]
            let room = end - released
            if Int64(piece.frameCount) <= room {
                out.append(piece)
                taken += 1
                released += Int64(piece.frameCount)
                held -= Int64(piece.frameCount)
            } else {
                let head = Int(room)
                out.append(piece.slice(0..<head))
                pieces[taken] = piece.slice(head..<piece.frameCount)
                released += room
                held -= room
            }
        }
        pieces.removeFirst(taken)
        return out
    }

    /// Releases everything up to `end`, the audio's final length, and discards the rest.
    public mutating func finish(at end: Int64) -> [AudioChunk] {
        let out = release(upTo: end)
        discarded += held
        held = 0
        pieces = []
        return out
    }
}
