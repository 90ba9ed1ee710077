import CFFmpeg
import VidrecMedia

/// Encodes the session's video and audio once and sends the packets to every connected
/// ``PacketOutput`` (the movie file; later its segments, a live stream): encode once,
/// mux many.
///
/// The encoder runs on its ``OutputConnection``'s thread, as the capture session's
/// output. Each packet output runs on a thread of its own behind a ``PacketConnection``,
/// so that one that stalls holds back neither the encoder nor the others, within its
/// ``PacketPolicy``.
///
/// An essential output's failure is thrown from the next append (which ends the
/// recording); another output's failure leaves it behind, listed in ``lostOutputs``.
///
/// A sound recording (``MovieSettings/isAudioOnly``) has the audio stream only: the
/// session's frames then only keep its time (segments are cut on their slots).
public final class MovieEncoder: CaptureOutput {
    /// The encoded streams, video (if any) first, for making packet outputs.
    public let streams: [EncodedStream]

    // Owners, each freeing its own C object, so that a throw part-way through the
    // initializer frees what was made so far.
    private let video: VideoStreamEncoder?
    /// The camera's own stream, stored as it is instead of ``video`` (`--video copy`).
    private let copier: VideoStreamCopier?
    /// The audio encoder; a movie cut into segments gets a new one for each segment, so
    /// that its audio ends and the next one's starts on the same sample.
    private var audio: AudioStreamEncoder?
    /// The wall-clock track (`--clock-track`), if the movie has one.
    private let clock: ClockTrack?
    /// A movie cut into segments with outputs that take it as one stream (a live stream,
    /// the event files): their audio, one encoder for the whole recording.
    private var unbrokenAudio: AudioStreamEncoder?
    private let audioSettings: AudioEncoding?
    private let globalHeader: Bool
    private let frameRate: Rational
    /// Where the movie is cut into files, if it is (``cut(into:)``).
    public private(set) var segments: SegmentPlan?
    private var videoSegment = 0
    /// The newest camera frame encoded and its slot, for a cut's slots that no frame
    /// reached (``holdOverCuts(_:upTo:)``).
    private var newestPicture: (frame: VideoFrame, slot: Int64)?
    private var audioSegment = 0
    /// The frame slot where the audio's segment starts.
    private var audioSegmentStart: Int64 = 0
    /// Audio samples appended so far (at the encoder's rate, which is the source's).
    private var audioSamples: Int64 = 0
    /// A copied stream cut into segments: audio that may still belong to the next segment
    /// (the camera's keyframe that starts it has not come), in order; and the cuts the
    /// copied video made that the audio has not reached (segment, first slot).
    private var pendingAudio: [AudioChunk] = []
    private var audioCuts: [(segment: Int, start: Int64)] = []
    private let packetOwner: OwnedPacket
    private var packet: UnsafeMutablePointer<AVPacket> { packetOwner.pointer }
    private var connections: [PacketConnection] = []
    /// The connections that take the recording as one stream, not cut into segments.
    private var continuous: Set<ObjectIdentifier> = []
    private var started = false
    private var finished = false

    /// Opens the encoders that `settings` asks for.
    ///
    /// - Parameters:
    ///   - settings: codecs, sizes and rates, from the quality preset.
    ///   - containers: the containers the packets will go into; decides where the codec
    ///     headers go (MP4 and Matroska want them in the stream parameters).
    /// - Throws: ``FFmpegError`` naming the encoder and the setting it refused.
    public convenience init(settings: MovieSettings, for containers: [Container]) throws {
        try self.init(settings: settings, globalHeader: containers.contains { $0.wantsGlobalHeader })
    }

    /// Opens the encoders that `settings` asks for, with the codec headers in the stream
    /// parameters (`globalHeader`, for MP4, Matroska, FLV) or in the packets.
    ///
    /// - Throws: ``FFmpegError`` naming the encoder and the setting it refused.
    ///
    /// - Parameter requestKeyframe: for a copied H.264 stream (``VideoEncoding/copied``),
    ///   asks the camera for a keyframe after a frame was lost.
    public init(settings: MovieSettings, globalHeader: Bool, requestKeyframe: @escaping () -> Void = {}) throws {
        packetOwner = try OwnedPacket(subject: settings.isAudioOnly ? settings.audio?.codec ?? "audio" : settings.video.codec)
        if settings.isAudioOnly {
            guard settings.audio != nil else { preconditionFailure("a recording without video needs audio") }
            (copier, video) = (nil, nil)
        } else if let copied = settings.video.copied {
            copier = try VideoStreamCopier(copied, settings: settings.video, requestKeyframe: requestKeyframe)
            video = nil
        } else {
            copier = nil
            video = try VideoStreamEncoder(settings: settings.video, globalHeader: globalHeader)
        }
        audio = try settings.audio.map { try AudioStreamEncoder(settings: $0, globalHeader: globalHeader) }
        clock = settings.hasClockTrack && !settings.isAudioOnly
            ? try ClockTrack(container: settings.container, frameRate: settings.video.frameRate) : nil
        streams = [video?.stream ?? copier?.stream].compactMap { $0 } + (audio.map { [$0.stream] } ?? []) + (clock.map { [$0.stream] } ?? [])
        audioSettings = settings.audio
        self.globalHeader = globalHeader
        frameRate = settings.video.frameRate
    }

    /// Cuts the movie into segments as `plan` says: the encoder makes a keyframe (an IDR
    /// picture for H.264) at the first frame of every segment, and ends each segment's
    /// audio on the sample of that instant (a fresh audio encoder for the next one), so
    /// that the segments played back to back are the continuous recording. Packets carry
    /// their segment (``EncodedPacket/segment``). Call before the first append.
    ///
    /// A copied stream is cut at the camera's first keyframe at or after each of the
    /// plan's boundaries (``VideoStreamCopier/cut(into:)``); the audio waits for that
    /// keyframe and is cut on its instant.
    public func cut(into plan: SegmentPlan) {
        precondition(!started, "cut the movie before encoding")
        segments = plan
        copier?.cut(into: plan)
    }

    /// Encodes for a movie file at `path`, as `vidrec start` records: the encoder with one
    /// essential ``MovieFileOutput``, and the outputs `sideOutputs` (a live stream).
    ///
    /// - Parameters:
    ///   - indexSeconds: the longest the recording may last, and
    ///   - maxBytes: the largest the file may be, for the room kept for its index
    ///     (``MovieFileOutput/init(path:container:streams:indexSeconds:maxBytes:)``).
    ///   - sideOutputs: outputs that take the same packets, if any.
    ///   - requestKeyframe: for a copied H.264 stream, asks the camera for a keyframe.
    /// - Throws: ``FFmpegError`` or ``SystemError``, naming the encoder, option or file.
    public static func recordingFile(path: String, settings: MovieSettings,
                                     indexSeconds: Double = MovieFileOutput.defaultIndexSeconds,
                                     maxBytes: Int64? = nil, sideOutputs: [SideOutput] = [],
                                     requestKeyframe: @escaping () -> Void = {}) throws -> MovieEncoder {
        let encoder = try MovieEncoder(settings: settings, globalHeader: settings.container.wantsGlobalHeader,
                                       sideOutputs: sideOutputs, requestKeyframe: requestKeyframe)
        // The outputs beside the file are made first: they open nothing yet, and refusing
        // a codec then leaves no empty file behind.
        let beside = try encoder.make(sideOutputs)
        let file = try MovieFileOutput(path: path, container: settings.container, streams: encoder.streams,
                                       indexSeconds: indexSeconds, maxBytes: maxBytes, metadata: settings.metadata)
        encoder.connect(file, policy: .movieFile, threadName: "vidrec.file")
        try encoder.connect(beside)
        return encoder
    }

    /// Opens the encoders for `settings` with the codec headers in the stream parameters
    /// when the container or one of `sideOutputs` wants them.
    private convenience init(settings: MovieSettings, globalHeader: Bool, sideOutputs: [SideOutput],
                             requestKeyframe: @escaping () -> Void) throws {
        try self.init(settings: settings, globalHeader: globalHeader || sideOutputs.contains(where: \.wantsGlobalHeader),
                      requestKeyframe: requestKeyframe)
    }

    /// Makes `sideOutputs` for this encoder's streams (they open nothing yet).
    private func make(_ sideOutputs: [SideOutput]) throws -> [(output: any PacketOutput, threadName: String)] {
        try sideOutputs.map { (output: try $0.make(streams), threadName: $0.threadName) }
    }

    /// Connects the outputs beside the file, which take the packets as one continuous
    /// stream (``connect(_:policy:threadName:continuous:)``).
    private func connect(_ beside: [(output: any PacketOutput, threadName: String)]) throws {
        for (output, threadName) in beside { connect(output, policy: .sideOutput, threadName: threadName) }
    }

    /// Encodes a continuous recording cut into segments (`--segment`): the encoder cuts
    /// as `plan` says (``cut(into:)``), and one essential ``SegmentedFileOutput`` writes
    /// each segment to the file `sink` opens for it; `sideOutputs` (a live stream) take
    /// the packets as one stream, beside the segments.
    ///
    /// - Throws: ``FFmpegError`` naming the encoder and the setting it refused.
    /// - Parameter requestKeyframe: for a copied H.264 stream, asks the camera for a keyframe.
    public static func segmentedRecording(settings: MovieSettings, plan: SegmentPlan, sink: any SegmentSink,
                                          sideOutputs: [SideOutput] = [],
                                          requestKeyframe: @escaping () -> Void = {}) throws -> MovieEncoder {
        let encoder = try MovieEncoder(settings: settings, globalHeader: settings.container.wantsGlobalHeader,
                                       sideOutputs: sideOutputs, requestKeyframe: requestKeyframe)
        let beside = try encoder.make(sideOutputs)
        encoder.cut(into: plan)
        // A copied segment runs on to the camera's next keyframe.
        let output = SegmentedFileOutput(container: settings.container, streams: encoder.streams, plan: plan,
                                         frameRate: settings.video.frameRate, sampleRate: settings.audio?.sampleRate, sink: sink,
                                         indexSlackSeconds: settings.video.copied == nil ? 0 : MovieEncoder.copiedSegmentSlackSeconds)
        encoder.connect(output, policy: .movieFile, threadName: "vidrec.file")
        try encoder.connect(beside)
        return encoder
    }

    /// How much longer than planned a copied segment's index has room for: the camera's
    /// keyframes may come this much after a boundary.
    public static let copiedSegmentSlackSeconds = 10.0

    /// Encodes a recording that waits for triggers (`--pre`, `--post`): one essential
    /// ``EventFileOutput``, whose ``EventFileOutput/trigger()`` starts or extends an event;
    /// `sideOutputs` (a live stream) take every packet, between events too.
    ///
    /// - Parameter requestKeyframe: for a copied H.264 stream, asks the camera for a keyframe.
    /// - Throws: ``FFmpegError`` naming the encoder and the setting it refused.
    public static func eventRecording(settings: MovieSettings, pre: Double, post: Double, sink: any SegmentSink,
                                      sideOutputs: [SideOutput] = [],
                                      requestKeyframe: @escaping () -> Void = {}) throws -> (encoder: MovieEncoder, events: EventFileOutput) {
        let encoder = try MovieEncoder(settings: settings, globalHeader: settings.container.wantsGlobalHeader,
                                       sideOutputs: sideOutputs, requestKeyframe: requestKeyframe)
        let beside = try encoder.make(sideOutputs)
        let events = EventFileOutput(container: settings.container, streams: encoder.streams, pre: pre, post: post, sink: sink)
        encoder.connect(events, policy: .movieFile, threadName: "vidrec.file")
        try encoder.connect(beside)
        return (encoder, events)
    }

    /// Writes one file for each event of a movie cut into segments (`--segment` with
    /// `--pre/--post`): an essential ``EventFileOutput`` that takes the recording as one
    /// stream beside the segments' files, its files opened by `sink`. Call before the
    /// first append.
    ///
    /// - Returns: the output, whose ``EventFileOutput/trigger()`` starts or extends an event.
    public func writeEvents(pre: Double, post: Double, container: Container, sink: any SegmentSink) -> EventFileOutput {
        let events = EventFileOutput(container: container, streams: streams, pre: pre, post: post, sink: sink)
        connect(events, policy: .movieFile, threadName: "vidrec.events", continuous: true)
        return events
    }

    /// Sends every packet from now on to `output` as well, on a thread called
    /// `threadName`. Connect outputs before the first append.
    ///
    /// A movie cut into segments starts each segment's audio with a new encoder, so that
    /// every file starts and ends on the sample of its cut. An output that takes the
    /// recording as one stream (`continuous`; by default, every output that is not
    /// essential, such as a live stream) cannot take that audio (an AAC packet's samples
    /// are 1024, and a new encoder starts with its priming): it gets its audio from an
    /// encoder of its own that runs through (``unbrokenAudio``). The video, the costly
    /// part, is encoded once for all.
    public func connect(_ output: any PacketOutput, policy: PacketPolicy, threadName: String, continuous: Bool? = nil) {
        precondition(!started, "connect packet outputs before encoding")
        let connection = PacketConnection(output: output, policy: policy, threadName: threadName)
        connections.append(connection)
        if continuous ?? !policy.isEssential { self.continuous.insert(ObjectIdentifier(connection)) }
    }

    public var outputName: String {
        let codecs = [video?.name ?? copier?.name, audio?.name].compactMap { $0 }.joined(separator: "/")
        return "\(codecs) for \(connections.map(\.outputName).joined(separator: ", "))"
    }

    /// Bytes the first essential output (the movie file) has written.
    public var bytesWritten: Int64 { essential?.bytesWritten ?? 0 }

    /// The slot after the newest frame the movie file has written; `nil` for a sound
    /// recording, whose frame slots are only its time (the slots handed over count).
    public var writtenVideoEnd: Int64? { video == nil && copier == nil ? nil : essential?.writtenVideoEnd }

    /// The outputs that failed and were left behind, each with its error.
    public var lostOutputs: [String] {
        connections.filter { !$0.policy.isEssential }.compactMap { connection in
            connection.failure.map { "\(connection.outputName): \($0)" }
        }
    }

    /// Video packets each output beside the file dropped to keep up, by output name.
    public var droppedPackets: [String: Int64] {
        var drops: [String: Int64] = [:]
        for connection in connections where !connection.policy.isEssential {
            drops[connection.outputName] = connection.droppedVideoPackets
        }
        return drops
    }

    /// Camera frames left out of the movie: those that could not be decoded (corrupt
    /// JPEGs), or, for a copied H.264 stream, those after a lost frame up to the next
    /// keyframe. Their slots are empty; players hold the picture before.
    public var leftOutFrames: Int64 { Int64(video?.undecodableFrames ?? copier?.leftOutFrames ?? 0) }

    private var essential: PacketConnection? { connections.first { $0.policy.isEssential } }

    public func appendVideo(_ frame: VideoFrame, frameIndex: Int64) throws {
        try startIfNeeded()
        if let copier {
            if let packet = try copier.append(frame, slot: frameIndex) { try send(packet) }
            if let clock, let cue = try clock.cue(atSlot: frameIndex, capturedAt: frame.captureTime, segment: copier.segment,
                                                  segmentStart: copier.segmentStart) {
                try send(cue)
            }
            if segments != nil {
                if copier.segment != videoSegment {
                    videoSegment = copier.segment
                    audioCuts.append((copier.segment, copier.segmentStart))
                }
                try releaseAudio(upTo: copier.cutsDecidedUntil)
            }
            return
        }
        // A sound recording's frames only keep its time: the audio's segments follow the plan.
        guard let video else { return }
        if let clock {
            let segment = segments?.segment(ofFrame: frameIndex) ?? 0
            if let cue = try clock.cue(atSlot: frameIndex, capturedAt: frame.captureTime, segment: segment,
                                       segmentStart: segments?.start(ofSegment: segment) ?? 0) {
                try send(cue)
            }
        }
        if newestPicture == nil, frameIndex > 0 {
            // The first frames never reached this encoder (it was starting on a starved
            // machine while the session's queue for it was full): the movie still starts
            // at 0, as its sound does, with the first picture it has.
            try video.append(frame, frameIndex: 0, encode: encodePicture)
            newestPicture = (frame, 0)
        }
        if let segments { try holdOverCuts(segments, upTo: frameIndex) }
        try video.append(frame, frameIndex: frameIndex, encode: encodePicture)
        newestPicture = (frame, frameIndex)
    }

    /// Fills the slots on both sides of each cut before `index` that no frame reached
    /// (the camera skipped them, or the session dropped them while this encoder was
    /// behind) with the newest picture, as players hold it over any empty slot: every
    /// segment then starts at time 0 with a keyframe and ends on its last slot, as a
    /// file played on its own must, and a segment no frame reached at all still has
    /// its picture. They stay counted as dropped: they show no new picture. A copied
    /// stream's segments start at the camera's keyframes instead.
    private func holdOverCuts(_ segments: SegmentPlan, upTo index: Int64) throws {
        guard let video, let (frame, newestSlot) = newestPicture else { return }
        var slot = newestSlot
        var segment = segments.segment(ofFrame: slot) + 1
        while segments.start(ofSegment: segment) <= index {
            let start = segments.start(ofSegment: segment)
            if slot < start - 1 { try video.append(frame, frameIndex: start - 1, encode: encodePicture) }
            guard start < index else { break }
            try video.append(frame, frameIndex: start, encode: encodePicture)
            (slot, segment) = (start, segment + 1)
        }
        newestPicture = (frame, slot)
    }

    /// Encodes a picture of the camera's for slot `frameIndex`: the first frame of a
    /// segment is a keyframe; the others are the encoder's choice.
    private func encodePicture(_ prepared: UnsafeMutablePointer<AVFrame>, frameIndex: Int64) throws {
        guard let video else { return }
        prepared.pointee.pict_type = AV_PICTURE_TYPE_NONE
        if let segments {
            let segment = segments.segment(ofFrame: frameIndex)
            if segment != videoSegment {
                prepared.pointee.pict_type = AV_PICTURE_TYPE_I
                videoSegment = segment
            }
        }
        try encode(video, prepared)
    }

    public func appendAudio(_ chunk: AudioChunk) throws {
        try startIfNeeded()
        if let unbrokenAudio { try unbrokenAudio.append(chunk) { try encode(unbrokenAudio, $0) } }
        guard var encoder = audio, let settings = audioSettings else { return }
        if let copier, segments != nil {
            pendingAudio.append(chunk)
            try releaseAudio(upTo: copier.cutsDecidedUntil)
            return
        }
        var rest = chunk
        if let segments {
            // Each segment's audio ends on the sample where the next segment's video
            // starts: the encoder is drained there, and a new one takes the rest.
            while true {
                let boundary = segments.audioStart(ofSegment: audioSegment + 1, sampleRate: settings.sampleRate, frameRate: frameRate)
                let room = boundary - audioSamples
                guard room <= Int64(rest.frameCount) else { break }
                if room > 0 {
                    try encoder.append(rest.slice(0..<Int(room))) { try encode(encoder, $0) }
                    audioSamples += room
                }
                encoder = try startAudioSegment(audioSegment + 1, at: segments.start(ofSegment: audioSegment + 1))
                rest = rest.slice(Int(room)..<rest.frameCount)
            }
        }
        guard rest.frameCount > 0 else { return }
        try encoder.append(rest) { try encode(encoder, $0) }
        audioSamples += Int64(rest.frameCount)
    }

    /// Ends the audio's segment (drains its encoder) and starts segment `segment` at
    /// frame slot `start` with a new encoder, which it returns.
    private func startAudioSegment(_ segment: Int, at start: Int64) throws -> AudioStreamEncoder {
        guard let encoder = audio, let settings = audioSettings else { preconditionFailure("no audio to cut") }
        try encoder.drain { try encode(encoder, $0) }
        try encode(encoder, nil)
        audioSegment = segment
        audioSegmentStart = start
        let next = try AudioStreamEncoder(settings: settings, globalHeader: globalHeader, firstSample: audioSamples)
        audio = next
        return next
    }

    /// A copied stream cut into segments: encodes the held audio up to each cut the video
    /// made, cuts it there, and encodes the rest up to frame slot `decided` (where no cut
    /// can come any more), keeping what lies after.
    private func releaseAudio(upTo decided: Int64) throws {
        guard var encoder = audio, let settings = audioSettings else { return }
        func sample(_ slot: Int64) -> Int64 {
            slot == .max ? .max : SegmentPlan.audioSample(atSlot: slot, sampleRate: settings.sampleRate, frameRate: frameRate)
        }
        while true {
            let limit = audioCuts.first.map { sample($0.start) } ?? sample(decided)
            while let chunk = pendingAudio.first, audioSamples < limit {
                let room = limit - audioSamples
                let part = room >= Int64(chunk.frameCount) ? chunk : chunk.slice(0..<Int(room))
                try encoder.append(part) { try encode(encoder, $0) }
                audioSamples += Int64(part.frameCount)
                if part.frameCount == chunk.frameCount {
                    pendingAudio.removeFirst()
                } else {
                    pendingAudio[0] = chunk.slice(part.frameCount..<chunk.frameCount)
                }
            }
            // The audio has not reached the next cut yet: it waits for more.
            guard let cut = audioCuts.first, audioSamples == limit else { return }
            audioCuts.removeFirst()
            encoder = try startAudioSegment(cut.segment, at: cut.start)
        }
    }

    /// Flushes the encoders, then finishes every output and waits for them.
    ///
    /// - Throws: the first essential output's error, or the encoder's.
    public func finish() throws {
        guard !finished else { return }
        finished = true
        try startIfNeeded()
        var encoderError: (any Error)?
        do {
            if let video {
                try video.flush(encodePicture)
                try encode(video, nil)
            }
            if let packet = try copier?.finish() { try send(packet) }
            if copier != nil, segments != nil { try releaseAudio(upTo: .max) }
            for audio in [audio, unbrokenAudio].compactMap({ $0 }) {
                try audio.drain { try encode(audio, $0) }
                try encode(audio, nil)
            }
            if let cue = try clock?.finish() { try send(cue) }
        } catch {
            encoderError = error
        }
        for connection in connections { connection.finish() }
        for connection in connections {
            if let failure = connection.waitUntilFinished(), connection.policy.isEssential, encoderError == nil {
                encoderError = failure
            }
        }
        if let encoderError { throw encoderError }
    }

    private func startIfNeeded() throws {
        guard !started else { return }
        // Made before anything starts: an encoder that cannot open leaves no thread behind.
        if segments != nil, !continuous.isEmpty, unbrokenAudio == nil, let audioSettings {
            unbrokenAudio = try AudioStreamEncoder(settings: audioSettings, globalHeader: globalHeader)
        }
        started = true
        for connection in connections { connection.start() }
    }

    /// Hands a packet that was not encoded here (a copied frame) to every output, after
    /// checking that no essential output has failed.
    private func send(_ packet: EncodedPacket) throws {
        try checkOutputs()
        for connection in connections { connection.send(packet) }
    }

    /// Throws the failure of an essential output, if one has failed.
    private func checkOutputs() throws {
        if let failed = connections.first(where: { $0.policy.isEssential && $0.failure != nil }) {
            throw failed.failure!
        }
    }

    /// Sends one frame (or `nil` to flush) and hands every packet the encoder returns to
    /// every output, after checking that no essential output has failed.
    private func encode(_ encoder: StreamEncoder, _ frame: UnsafeMutablePointer<AVFrame>?) throws {
        try checkOutputs()
        try check(avcodec_send_frame(encoder.codecContext, frame), "avcodec_send_frame", encoder.name)
        while true {
            let received = avcodec_receive_packet(encoder.codecContext, packet)
            if received == cffmpeg_averror_eagain() || received == cffmpeg_averror_eof() { break }
            try check(received, "avcodec_receive_packet", encoder.name)
            if packet.pointee.duration == 0 { packet.pointee.duration = encoder.defaultPacketDuration }
            var segment = 0, segmentStart: Int64 = 0
            if let segments {
                if encoder === video {
                    segment = segments.segment(ofFrame: packet.pointee.pts)
                    segmentStart = segments.start(ofSegment: segment)
                } else {
                    (segment, segmentStart) = (audioSegment, audioSegmentStart)
                }
            }
            let encoded = try EncodedPacket(packet, stream: encoder.stream, segment: segment, segmentStart: segmentStart)
            av_packet_unref(packet)
            // With an unbroken audio encoder, the segments' audio goes to the segments'
            // files only, and its packets to the outputs that take one stream only.
            let unbroken: Bool? = unbrokenAudio == nil || encoder.stream.kind != .audio ? nil : encoder === unbrokenAudio
            for connection in connections where unbroken.map({ $0 == continuous.contains(ObjectIdentifier(connection)) }) ?? true {
                connection.send(encoded)
            }
        }
    }

    deinit {
        // An error path (finish() was never called): close every output as it is.
        guard started, !finished else { return }
        for connection in connections { connection.waitUntilFinished() }
    }
}
