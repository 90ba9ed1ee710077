import CFFmpeg
import VidrecMedia

/// The movie file output of a continuous recording cut into segments (`--segment`): a
/// ``MovieFileOutput`` for each segment, opened when the segment's first packet arrives
/// and closed as soon as every stream has moved on to the next segment, each file
/// starting at time 0 and playable on its own.
///
/// The encoder cuts the streams (``MovieEncoder/cut(into:)``); this output only follows
/// each packet's ``EncodedPacket/segment`` and ``EncodedPacket/segmentStart`` (a copied
/// stream's segments start at the camera's keyframes, after the plan's boundaries). Video packets come in decoding order and a
/// segment starts with an IDR picture, so every packet of a segment comes before the
/// next segment's first; audio is drained at the cut, so it does too. A segment's file
/// may therefore open before the previous one closes (the encoder holds video back
/// longer than audio), never after.
public final class SegmentedFileOutput: PacketOutput {
    private let container: Container
    private let streams: [EncodedStream]
    private let plan: SegmentPlan
    private let frameRate: Rational
    private let sampleRate: Int?
    private let sink: any SegmentSink
    private let indexSlackSeconds: Double
    private var open: [Int: (file: MovieFileOutput, path: String)] = [:]
    /// The newest segment each stream has reached.
    private var reached: [MediaKind: Int] = [:]
    private var closedBytes: Int64 = 0
    private var lastClosedPath: String?

    public var outputName: String {
        "segment \(open.values.map(\.path).sorted().last ?? lastClosedPath ?? "(none yet)")"
    }

    /// Creates the output; nothing is opened before the first packet.
    ///
    /// - Parameters:
    ///   - streams: the encoder's streams (``MovieEncoder/streams``).
    ///   - plan: where the encoder cuts.
    ///   - frameRate: the movie's frame rate; `sampleRate`: its audio's, if it has audio.
    ///   - sink: where each segment goes.
    ///   - indexSlackSeconds: how much longer than the plan's length a segment may run
    ///     (a copied stream's, up to the camera's next keyframe), for its index's room.
    public init(container: Container, streams: [EncodedStream], plan: SegmentPlan, frameRate: Rational,
                sampleRate: Int?, sink: any SegmentSink, indexSlackSeconds: Double = 0) {
        self.indexSlackSeconds = indexSlackSeconds
        self.container = container
        self.streams = streams
        self.plan = plan
        self.frameRate = frameRate
        self.sampleRate = sampleRate
        self.sink = sink
    }

    public var bytesWritten: Int64 { closedBytes + open.values.reduce(0) { $0 + $1.file.bytesWritten } }

    public func write(_ packet: EncodedPacket) throws {
        let segment = packet.segment
        reached[packet.kind] = max(reached[packet.kind] ?? 0, segment)
        let file = try file(for: segment, startingAt: packet.segmentStart)
        let offset = switch packet.kind {
        case .video: packet.segmentStart
        case .audio: SegmentPlan.audioSample(atSlot: packet.segmentStart, sampleRate: sampleRate ?? 1, frameRate: frameRate)
        case .subtitle: ClockTrack.milliseconds(ofSlot: packet.segmentStart, frameRate: frameRate)
        }
        try file.write(packet, shiftedBack: offset)
        // Every stream past a segment: it is complete. (The clock track's cues come a
        // second apart: a segment does not wait for the next one.)
        let done = streams.filter { $0.kind != .subtitle }.map { reached[$0.kind] ?? 0 }.min() ?? 0
        for finished in open.keys.sorted() where finished < done { try close(finished) }
    }

    /// Closes every segment still open (the last one, normally), reporting the first
    /// failure after trying them all.
    public func finish() throws {
        var firstFailure: (any Error)?
        for segment in open.keys.sorted() {
            do { try close(segment) } catch { firstFailure = firstFailure ?? error }
        }
        if let firstFailure { throw firstFailure }
    }

    private func file(for segment: Int, startingAt start: Int64) throws -> MovieFileOutput {
        if let open = open[segment] { return open.file }
        let seconds = (Rational(start) * frameRate.reciprocal).doubleValue
        let (path, metadata) = try sink.openSegment(segment, startingAt: seconds)
        let length = segment == 0 ? plan.firstLength : plan.length
        let file = try MovieFileOutput(path: path, container: container, streams: streams,
                                       indexSeconds: (Rational(length) * frameRate.reciprocal).doubleValue + indexSlackSeconds,
                                       metadata: metadata)
        open[segment] = (file, path)
        return file
    }

    private func close(_ segment: Int) throws {
        guard let (file, path) = open.removeValue(forKey: segment) else { return }
        var failure: (any Error)?
        do { try file.finish() } catch { failure = error }
        closedBytes += file.bytesWritten
        lastClosedPath = path
        try sink.closeSegment(segment, path: path, failure: failure)
        if let failure { throw failure }
    }
}
