import CFFmpeg
import Synchronization
import VidrecMedia

/// The movie output of a recording that waits for something to happen (`--pre`,
/// `--post`): it keeps the last `pre` seconds of encoded packets in memory, from a
/// keyframe, and writes nothing; on a trigger it opens a file, writes what it kept, and
/// goes on writing until `post` seconds after the last trigger, then closes the file at
/// the next keyframe and keeps packets in memory again. Each event is one file, which
/// `sink` opens and finishes (as it does segments).
///
/// What is kept is bounded: the packets since the keyframe at or before `pre` seconds
/// ago (at most `pre` plus one keyframe interval of encoded media). An event starts at
/// that keyframe, so it holds between `pre` and `pre` plus one keyframe interval from
/// before the trigger (less when the previous event ended more recently).
///
/// The video stream leads: its time is the event's, its keyframes are where an event may
/// start and end. A sound recording has only audio, which leads then: every packet of it
/// is a place to cut.
///
/// The sound of an event begins with the packets a decoder needs before its start
/// (``EncodedStream/decoderPreroll``: the AAC frame before, for one), stamped before 0
/// so that the file's edit list hides them, as ffmpeg does when it cuts AAC: without
/// them the first frame would decode as a transform's warm-up, not the sound.
public final class EventFileOutput: PacketOutput, @unchecked Sendable {
    // @unchecked Sendable: only ``trigger()`` is called from other threads, and it only
    // sets an atomic flag; everything else runs on the output's own thread.

    private let container: Container
    private let streams: [EncodedStream]
    /// The stream whose time and keyframes the events follow: video, or audio without it.
    private let lead: MediaKind
    private let pre: Double
    private let post: Double
    private let sink: any SegmentSink
    private let triggered = Atomic<Bool>(false)
    private var kept: [EncodedPacket] = []
    /// Where an event opened now would start: the cut point what is kept begins at.
    private var keptStart = -Double.infinity
    /// The open event's newest audio packets, which the next event may need before its
    /// start (it may start at the keyframe this one ends at).
    private var writtenAudio: [EncodedPacket] = []
    private var event: (file: MovieFileOutput, path: String, index: Int, start: Double)?
    /// Where the open event's clock track has its cues to (seconds): a cue is sent when
    /// the next begins, so at the event's last keyframe the one showing there may be
    /// still to come.
    private var cueEnd = 0.0
    /// An event past its last keyframe whose clock track waits for that cue, until `end`.
    private var closing: (file: MovieFileOutput, path: String, index: Int, start: Double, end: Double)?
    private var events = 0
    private var end: Double = 0
    private var newest: Double = 0
    private var closedBytes: Int64 = 0
    private var waitingForKeyframe = false
    /// Audio (and clock-track cues) past an event's end, waiting for the keyframe that
    /// ends it.
    private var heldAudio: [EncodedPacket] = []

    /// Creates the output; nothing is written before the first trigger.
    ///
    /// - Parameters:
    ///   - pre: seconds of media kept from before a trigger; `post`: written after the last one.
    ///   - sink: where each event's file goes.
    public init(container: Container, streams: [EncodedStream], pre: Double, post: Double, sink: any SegmentSink) {
        self.container = container
        self.streams = streams
        lead = streams.contains { $0.kind == .video } ? .video : .audio
        self.pre = pre
        self.post = post
        self.sink = sink
    }

    public var outputName: String { event.map { "event \($0.path)" } ?? "event buffer (\(kept.count) packets)" }

    public var bytesWritten: Int64 { closedBytes + (event?.file.bytesWritten ?? 0) + (closing?.file.bytesWritten ?? 0) }

    /// Something happened: keep (or start) writing until `post` seconds from now. Safe
    /// from any thread (a signal, `vidrec trigger`).
    public func trigger() {
        triggered.store(true, ordering: .sequentiallyConsistent)
    }

    /// Whether an event may start or end at `packet`: a keyframe of the leading stream.
    private func isCutPoint(_ packet: EncodedPacket) -> Bool {
        packet.kind == lead && (packet.isKeyframe || packet.kind == .audio)
    }

    /// The packet's presentation time in seconds.
    private static func time(of packet: EncodedPacket) -> Double {
        Double(packet.presentationTime) * av_q2d(packet.stream.timeBase)
    }

    /// Whether `packet`, from before `start` (seconds), is needed by an event starting
    /// there: sound a decoder needs for the sound from `start` on to come out whole, or
    /// the clock track's cue still showing at `start`.
    private static func isNeeded(_ packet: EncodedPacket, before start: Double) -> Bool {
        let time = time(of: packet)
        guard time < start else { return false }
        switch packet.kind {
        case .video: return false
        case .audio: return time + packet.seconds + Double(packet.stream.decoderPreroll) * av_q2d(packet.stream.timeBase) > start
        case .subtitle: return time + packet.seconds > start
        }
    }

    public func write(_ packet: EncodedPacket) throws {
        let time = Self.time(of: packet)
        if packet.kind == lead { newest = max(newest, time) }
        if closing != nil { try settleClosing(with: packet, at: time) }
        if triggered.exchange(false, ordering: .sequentiallyConsistent) {
            end = newest + post
            if let current = event {
                // The event goes on: audio held at the old end is now inside it, and goes
                // first, in order.
                let inside = heldAudio.filter { Self.time(of: $0) < end }
                heldAudio.removeAll { Self.time(of: $0) < end }
                for audio in inside { try write(audio, into: current.file, from: current.start) }
            } else {
                try open()
            }
        }
        if waitingForKeyframe, isCutPoint(packet) {
            keep(packet)
            try open()
            return
        }
        if let current = event {
            // An event ends at the first keyframe past its end: whatever follows decodes
            // without it. Audio past the end waits for that keyframe's time (video comes
            // later than audio): what comes before it is the event's, the rest is kept.
            if isCutPoint(packet), time >= end {
                for audio in heldAudio where Self.time(of: audio) < time {
                    try write(audio, into: current.file, from: current.start, until: time)
                }
                let after = heldAudio.filter { Self.time(of: $0) >= time }
                heldAudio.removeAll()
                try close(at: time)
                for audio in after { keep(audio) }
            } else if packet.kind != .video, time >= end || !heldAudio.isEmpty {
                heldAudio.append(packet)
                return
            } else {
                try write(packet, into: current.file, from: current.start)
                return
            }
        }
        keep(packet)
    }

    public func finish() throws {
        if let current = event {
            for audio in heldAudio { try write(audio, into: current.file, from: current.start) }
            heldAudio.removeAll()
        }
        try close()
        try finishClosing()
        kept.removeAll()
    }

    /// Gives the event waiting for its last cue (``closing``) the cue showing at its end,
    /// cut to end there, and finishes it; or finishes it without, once the picture is two
    /// seconds past its end (the cue was lost).
    private func settleClosing(with packet: EncodedPacket, at time: Double) throws {
        guard let waiting = closing else { return }
        if packet.kind == .subtitle, time < waiting.end {
            try write(packet, into: waiting.file, from: waiting.start, until: waiting.end)
            if time + packet.seconds >= waiting.end - 0.0005 { try finishClosing() }
        } else if packet.kind == .subtitle || packet.kind == lead && time > waiting.end + 2 {
            try finishClosing()
        }
    }

    /// Adds `packet` to what is kept, and lets go of what is older than the newest
    /// keyframe at or before `pre` seconds ago. By time, not by order: the encoder holds
    /// video back longer than audio, so the audio of a keyframe's moment arrives before it.
    private func keep(_ packet: EncodedPacket) {
        kept.append(packet)
        let keyframes = kept.filter(isCutPoint).map(Self.time(of:))
        let start = keyframes.last(where: { $0 <= newest - pre }) ?? keyframes.first ?? (newest - pre - 2)
        keptStart = start
        kept.removeAll { Self.time(of: $0) < start && !Self.isNeeded($0, before: start) }
    }

    /// Opens the event's file and writes what was kept, from its first keyframe; with no
    /// keyframe kept yet (a trigger at the very start), at the next one.
    private func open() throws {
        guard let first = kept.first(where: { isCutPoint($0) && Self.time(of: $0) >= keptStart }) else {
            waitingForKeyframe = true
            return
        }
        waitingForKeyframe = false
        let start = Self.time(of: first)
        let (path, metadata) = try sink.openSegment(events, startingAt: start)
        let file = try MovieFileOutput(path: path, container: container, streams: streams, indexSeconds: pre + post + 60,
                                       metadata: metadata)
        event = (file, path, events, start)
        cueEnd = start
        events += 1
        let backlog = kept
        kept.removeAll()
        for packet in backlog where Self.time(of: packet) >= start || Self.isNeeded(packet, before: start) {
            try write(packet, into: file, from: start)
        }
    }

    /// Writes `packet` with its time counted from `start`; audio from before the first
    /// picture is left out, but for what primes the decoder (stamped before 0), and the
    /// clock track's cue showing at the start is cut to begin there.
    ///
    /// - Parameter until: where the event ends (seconds), when it is known: a cue going on
    ///   past it is cut to end there.
    private func write(_ packet: EncodedPacket, into file: MovieFileOutput, from start: Double, until: Double? = nil) throws {
        let base = av_q2d(packet.stream.timeBase)
        let offset = Int64((start / base).rounded())
        if packet.kind != .video, packet.presentationTime < offset, !Self.isNeeded(packet, before: start) { return }
        try file.write(packet, shiftedBack: offset, clamped: packet.kind == .subtitle, end: until.map { Int64(($0 / base).rounded()) })
        if packet.kind == .audio {
            writtenAudio.removeAll { !Self.isNeeded($0, before: Self.time(of: packet)) }
            writtenAudio.append(packet)
        }
        if packet.kind == .subtitle, file === event?.file { cueEnd = max(cueEnd, Self.time(of: packet) + packet.seconds) }
    }

    /// Closes the open event, at its last keyframe `cut` (seconds) when it ends there;
    /// one whose clock track still waits for the cue showing at `cut` waits in
    /// ``closing``.
    private func close(at cut: Double? = nil) throws {
        guard let current = event else { return }
        event = nil
        // The next event may start where this one ends: its sound's primer is kept.
        kept = writtenAudio + kept
        writtenAudio.removeAll()
        if let cut, streams.contains(where: { $0.kind == .subtitle }), cueEnd < cut - 0.0005 {
            try finishClosing()
            closing = (current.file, current.path, current.index, current.start, cut)
            return
        }
        try finish(current.file, path: current.path, index: current.index)
    }

    /// Finishes the event waiting for its last cue, if there is one.
    private func finishClosing() throws {
        guard let waiting = closing else { return }
        closing = nil
        try finish(waiting.file, path: waiting.path, index: waiting.index)
    }

    private func finish(_ file: MovieFileOutput, path: String, index: Int) throws {
        var failure: (any Error)?
        do { try file.finish() } catch { failure = error }
        closedBytes += file.bytesWritten
        try sink.closeSegment(index, path: path, failure: failure)
        if let failure { throw failure }
    }
}
