import CALSA
import Foundation
import Glibc
import Synchronization
import VidrecMedia
import VidrecSystem

/// An ALSA capture device as a capture source. Periods of about 10 ms are read on the
/// `vidrec.mic` thread; each is stamped on CLOCK_MONOTONIC from ALSA's own timestamp
/// (`snd_pcm_htimestamp`, monotonic type), so it lines up with the camera's frames.
///
/// A sound server's PCM (PipeWire's or PulseAudio's plug-in, ``SoundServer``) is read
/// in periods of the size the server works in (a power of two, 1024 frames at 48 kHz),
/// and, since a plug-in's timestamp is only the time of the call, each period is dated
/// from the time it is read and `snd_pcm_delay`, which counts the frames still in the
/// server's graph and buffers: the samples are as old as that. The first quarter second
/// is dated together (``ServerStreamDating``): a server's delay can be off while its
/// stream starts.
///
/// An overrun (the process was held up and the device's buffer filled) is recovered
/// with `snd_pcm_recover` and counted; the lost time shows as a gap in the timestamps,
/// which the session fills with silence.
public final class ALSAMicrophone: AudioCaptureSource, OverrunCounting {
    /// How long the device may deliver nothing before it counts as gone (ms).
    public static let timeout: Int32 = CaptureTiming.stallTimeout.milliseconds

    public let displayName: String
    public let audioFormat: AudioFormat
    /// Overruns recovered so far.
    public var overruns: Int { overrunCount.load(ordering: .relaxed) }

    private let handle: PCMHandle
    private let periodFrames: Int
    /// The sound server the PCM goes through, if it does.
    public let soundServer: SoundServer?
    /// Whether each of a sound server's first ``tracedPeriods`` periods is written to
    /// standard error as it is read (`VIDREC_SOUND_TRACE=1`), to see what the server
    /// says of its delay.
    private let tracesPeriods: Bool
    /// The most periods traced: about 40 s of PipeWire's, 16 s of PulseAudio's smallest.
    public static let tracedPeriods = 2000
    private let worker = CaptureWorker()
    private let overrunCount = Atomic<Int>(0)

    /// Owns the `snd_pcm_t`. Only the capture thread uses it once started, which is
    /// why `@unchecked Sendable` is safe.
    private final class PCMHandle: @unchecked Sendable {
        let pcm: OpaquePointer
        init(_ pcm: OpaquePointer) { self.pcm = pcm }
        deinit { snd_pcm_close(pcm) }
    }

    /// Opens `name` and negotiates the sample format, channels and rate nearest to those
    /// asked for (libswresample converts the rest).
    ///
    /// - Throws: ``DeviceError`` naming the microphone and the fix, or an ALSA error
    ///   naming the call.
    public init(name: String, sampleRate: Int, channels: Int,
                environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        calsa_silence_errors()
        displayName = name
        let server = SoundServer.behind(pcm: name)
        soundServer = server
        tracesPeriods = server != nil && environment["VIDREC_SOUND_TRACE"] == "1"
        if let server, let reason = server.unreachableReason(environment: environment) {
            throw DeviceError.soundServerUnreachable(name: name, server: server.name, reason: reason)
        }
        var pcm: OpaquePointer?
        let opened = systemCallNegativeErrno(.pcmOpen) { snd_pcm_open(&pcm, name, SND_PCM_STREAM_CAPTURE, SND_PCM_NONBLOCK) }
        guard opened == 0, let pcm else {
            if let server {
                throw DeviceError.soundServerUnreachable(name: name, server: server.name, reason: String(cString: snd_strerror(opened)))
            }
            switch -opened {
            case EBUSY: throw DeviceError.microphoneBusy(name: name, holder: CaptureDeviceHolder.holder(ofPCM: name))
            case EACCES, EPERM: throw DeviceError.permissionDenied(path: name, group: "audio")
            default:
                let discovery = MicrophoneDiscovery()
                throw DeviceError.microphoneNotFound(name: name, reason: String(cString: snd_strerror(opened)),
                                                     available: discovery.listing(discovery.microphones()))
            }
        }
        handle = PCMHandle(pcm)

        var hw: OpaquePointer?
        snd_pcm_hw_params_malloc(&hw)
        defer { snd_pcm_hw_params_free(hw) }
        try alsaCheck(.pcmHardwareParameters, name, function: "snd_pcm_hw_params_any") { snd_pcm_hw_params_any(pcm, hw) }
        try alsaCheck(.pcmHardwareParameters, name, function: "snd_pcm_hw_params_set_access") { snd_pcm_hw_params_set_access(pcm, hw, SND_PCM_ACCESS_RW_INTERLEAVED) }
        let candidates: [(snd_pcm_format_t, AudioSampleFormat)] = [
            (SND_PCM_FORMAT_S16_LE, .s16), (SND_PCM_FORMAT_S32_LE, .s32), (SND_PCM_FORMAT_FLOAT_LE, .float32),
        ]
        guard let format = candidates.first(where: { candidate in
            systemCallNegativeErrno(.pcmHardwareParameters) { snd_pcm_hw_params_test_format(pcm, hw, candidate.0) } == 0
        }) else {
            throw ALSAError(operation: "snd_pcm_hw_params_set_format (S16_LE, S32_LE or FLOAT_LE)", device: name, code: -EINVAL)
        }
        try alsaCheck(.pcmHardwareParameters, name, function: "snd_pcm_hw_params_set_format") { snd_pcm_hw_params_set_format(pcm, hw, format.0) }
        var channelCount = UInt32(channels)
        try alsaCheck(.pcmHardwareParameters, name, function: "snd_pcm_hw_params_set_channels_near") { snd_pcm_hw_params_set_channels_near(pcm, hw, &channelCount) }
        var rate = UInt32(sampleRate)
        var direction: Int32 = 0
        try alsaCheck(.pcmHardwareParameters, name, function: "snd_pcm_hw_params_set_rate_near") { snd_pcm_hw_params_set_rate_near(pcm, hw, &rate, &direction) }
        if server != nil {
            var size = snd_pcm_uframes_t(ALSAMicrophone.serverPeriod(rate: Int(rate)))
            try alsaCheck(.pcmHardwareParameters, name, function: "snd_pcm_hw_params_set_period_size_near") { snd_pcm_hw_params_set_period_size_near(pcm, hw, &size, &direction) }
        } else {
            var periodTime: UInt32 = 10_000
            try alsaCheck(.pcmHardwareParameters, name, function: "snd_pcm_hw_params_set_period_time_near") { snd_pcm_hw_params_set_period_time_near(pcm, hw, &periodTime, &direction) }
        }
        var bufferTime: UInt32 = 500_000
        try alsaCheck(.pcmHardwareParameters, name, function: "snd_pcm_hw_params_set_buffer_time_near") { snd_pcm_hw_params_set_buffer_time_near(pcm, hw, &bufferTime, &direction) }
        try alsaCheck(.pcmHardwareParameters, name) { snd_pcm_hw_params(pcm, hw) }
        var period: snd_pcm_uframes_t = 0
        try alsaCheck(.pcmHardwareParameters, name, function: "snd_pcm_hw_params_get_period_size") { snd_pcm_hw_params_get_period_size(hw, &period, &direction) }
        periodFrames = max(Int(period), 32)

        var sw: OpaquePointer?
        snd_pcm_sw_params_malloc(&sw)
        defer { snd_pcm_sw_params_free(sw) }
        try alsaCheck(.pcmSoftwareParameters, name, function: "snd_pcm_sw_params_current") { snd_pcm_sw_params_current(pcm, sw) }
        // Start on the first read (snd_pcm_set_params would wait for a whole buffer).
        try alsaCheck(.pcmSoftwareParameters, name, function: "snd_pcm_sw_params_set_start_threshold") { snd_pcm_sw_params_set_start_threshold(pcm, sw, 1) }
        try alsaCheck(.pcmSoftwareParameters, name, function: "snd_pcm_sw_params_set_avail_min") { snd_pcm_sw_params_set_avail_min(pcm, sw, period) }
        try alsaCheck(.pcmSoftwareParameters, name, function: "snd_pcm_sw_params_set_tstamp_mode") { snd_pcm_sw_params_set_tstamp_mode(pcm, sw, SND_PCM_TSTAMP_ENABLE) }
        try alsaCheck(.pcmSoftwareParameters, name, function: "snd_pcm_sw_params_set_tstamp_type") { snd_pcm_sw_params_set_tstamp_type(pcm, sw, SND_PCM_TSTAMP_TYPE_MONOTONIC) }
        try alsaCheck(.pcmSoftwareParameters, name) { snd_pcm_sw_params(pcm, sw) }

        audioFormat = AudioFormat(sampleFormat: format.1, sampleRate: Int(rate), channels: Int(channelCount))
    }

    /// The period a sound server works in at `rate`: the power of two nearest to about
    /// 21 ms (PipeWire's default quantum, 1024 frames at 48 kHz).
    static func serverPeriod(rate: Int) -> Int {
        let target = Double(rate) * 1024 / 48000
        return 1 << Int(log2(max(target, 32)).rounded())
    }

    public func start(into queue: CaptureQueue) throws {
        try alsaCheck(.pcmPrepare, displayName) { snd_pcm_prepare(handle.pcm) }
        try alsaCheck(.pcmStart, displayName) { snd_pcm_start(handle.pcm) }
        worker.start(name: "vidrec.mic") { [self] in
            if let error = captureLoop(queue) { queue.push(.sourceEnded(.audio, error)) }
        }
    }

    public func stop() {
        worker.stop()
        systemCallNegativeErrno(.pcmDrop) { snd_pcm_drop(handle.pcm) }
    }

    private func captureLoop(_ queue: CaptureQueue) -> (any Error)? {
        let pcm = handle.pcm
        let format = audioFormat
        let throughServer = soundServer != nil
        var idle: Int32 = 0
        // Where the next chunk starts when nothing was lost since the last read: the
        // samples of two reads with no overrun between them are contiguous.
        var nextCaptureTime: Int64?
        // A sound server's first periods, held until the stream's start is dated.
        var dating = ServerStreamDating(sampleRate: format.sampleRate)
        var held: [(buffer: FrameBuffer, frames: Int)] = []
        var traced = 0
        // Sends the oldest held periods, as many as there are `dates`, with those dates.
        func release(_ dates: [Int64]) {
            for (period, date) in zip(held, dates) {
                queue.push(.audio(AudioChunk(format: format, buffer: period.buffer, frameCount: period.frames, captureTime: date)))
                nextCaptureTime = date + format.nanoseconds(ofFrames: Int64(period.frames))
            }
            held.removeFirst(min(dates.count, held.count))
        }
        // Periods held when the loop ends (a stop) or the stream breaks are released.
        defer { release(dating.release()) }
        while worker.isRunning {
            let ready = systemCallNegativeErrno(.pcmWait) { snd_pcm_wait(pcm, 100) }
            if ready == 0 {
                idle += 100
                if idle >= ALSAMicrophone.timeout {
                    return DeviceError.stopped(device: "microphone \(displayName)", reason: "sent no audio for \(CaptureTiming.stallTimeout.wholeSeconds) s")
                }
                continue
            }
            if ready < 0 {
                release(dating.release())
                nextCaptureTime = nil
                if let error = recover(Int32(ready)) { return error }
            }
            let buffer = FrameBuffer(count: periodFrames * format.bytesPerFrame)
            let read = systemCallNegativeErrno(.pcmRead) { snd_pcm_readi(pcm, buffer.bytes, snd_pcm_uframes_t(periodFrames)) }
            if read == -Int(EAGAIN) { continue }
            if read < 0 {
                release(dating.release())
                nextCaptureTime = nil
                if let error = recover(Int32(read)) { return error }
                continue
            }
            guard read > 0 else { continue }
            idle = 0
            var avail: snd_pcm_uframes_t = 0
            var stamp = timespec()
            let now = MonotonicClock.now()
            let lasting = format.nanoseconds(ofFrames: Int64(read))
            let captured: Int64
            var delay: snd_pcm_sframes_t = 0
            let delayKnown = throughServer && systemCallNegativeErrno(.pcmDelay, { snd_pcm_delay(pcm, &delay) }) == 0 && delay >= 0
            if tracesPeriods, traced < ALSAMicrophone.tracedPeriods {
                traced += 1
                let line = "vidrec: sound trace: period \(traced): \(read) frames read at \(now) ns, snd_pcm_delay \(delayKnown ? String(delay) : "unknown")\n"
                FileHandle.standardError.write(Data(line.utf8))
            }
            if throughServer, !dating.isSettled {
                held.append((buffer, Int(read)))
                release(dating.add(frames: Int(read), now: now, delay: delayKnown ? Int(delay) : nil))
                continue
            }
            if delayKnown {
                // The newest frame read is `delay` frames old now.
                captured = now - format.nanoseconds(ofFrames: Int64(delay) + Int64(read))
            } else if systemCallNegativeErrno(.pcmTimestamp, { snd_pcm_htimestamp(pcm, &avail, &stamp) }) == 0, stamp.tv_sec > 0 {
                let at = Int64(stamp.tv_sec) * 1_000_000_000 + Int64(stamp.tv_nsec)
                // At `at`, `avail` frames were waiting after the ones just read.
                captured = at - format.nanoseconds(ofFrames: Int64(avail) + Int64(read))
            } else if let next = nextCaptureTime {
                // No timestamp: the device overran (or the process was stopped) after
                // the read, so `now` and the waiting frames say nothing of when these
                // were captured; they follow the last chunk.
                captured = next
            } else {
                captured = now - lasting
            }
            nextCaptureTime = captured + lasting
            queue.push(.audio(AudioChunk(format: format, buffer: buffer, frameCount: Int(read), captureTime: captured)))
        }
        return nil
    }

    /// Recovers from an overrun or a suspend; returns the error that cannot be recovered.
    private func recover(_ code: Int32) -> (any Error)? {
        if code == -ENODEV {
            return DeviceError.stopped(device: "microphone \(displayName)", reason: "disappeared (it was unplugged or its driver stopped)")
        }
        if code == -EPIPE { overrunCount.add(1, ordering: .relaxed) }
        if systemCallNegativeErrno(.pcmRecover, { snd_pcm_recover(handle.pcm, code, 1) }) < 0 {
            return ALSAError(operation: "snd_pcm_readi", device: displayName, code: code)
        }
        systemCallNegativeErrno(.pcmStart) { snd_pcm_start(handle.pcm) }
        return nil
    }
}
