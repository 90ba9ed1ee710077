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

    /// Whether the capture loop ended on its own, with an error (the device gone or
    /// broken): ``stop()`` then closes the PCM.
    private let endedWithError = Atomic<Bool>(false)

    /// Owns the `snd_pcm_t`. Only the capture thread uses it once started, which is
    /// why `@unchecked Sendable` is safe; ``close()`` comes after that thread has ended.
    private final class PCMHandle: @unchecked Sendable {
        let pcm: OpaquePointer
        private let closed = Atomic<Bool>(false)
        init(_ pcm: OpaquePointer) { self.pcm = pcm }
        /// Closes the PCM now, once: a USB card that was unplugged is freed only when its
        /// last handle closes, and its successor takes its name only then.
        func close() {
            if !closed.exchange(true, ordering: .sequentiallyConsistent) { snd_pcm_close(pcm) }
        }
        var isClosed: Bool { closed.load(ordering: .sequentiallyConsistent) }
        deinit { close() }
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
        let pcm = try Self.openCapture(name, server: server)
        handle = PCMHandle(pcm)
        let hardware = try Self.setHardwareParameters(pcm, name: name, sampleRate: sampleRate, channels: channels,
                                                      behindServer: server != nil)
        periodFrames = max(Int(hardware.period), 32)
        try Self.setSoftwareParameters(pcm, name: name, period: hardware.period)
        audioFormat = hardware.format
    }

    /// Opens PCM `name` for capture, without blocking; a failure names its cause: the
    /// sound server out of reach, the card busy (and who holds it), no permission, or
    /// no such device (with the microphones there are).
    private static func openCapture(_ name: String, server: SoundServer?) throws -> OpaquePointer {
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
        return pcm
    }

    /// Sets `pcm`'s hardware parameters: interleaved reads in the first sample format
    /// it takes of S16, S32 and float, the channels and rate nearest those asked, 10-ms
    /// periods (a sound server's own period behind one) in a half-second buffer.
    ///
    /// - Returns: the format it gives and its period, in frames.
    private static func setHardwareParameters(_ pcm: OpaquePointer, name: String, sampleRate: Int, channels: Int,
                                              behindServer: Bool) throws -> (format: AudioFormat, period: snd_pcm_uframes_t) {
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
        if behindServer {
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
        return (AudioFormat(sampleFormat: format.1, sampleRate: Int(rate), channels: Int(channelCount)), period)
    }

    /// Sets `pcm`'s software parameters: it starts on the first read (snd_pcm_set_params
    /// would wait for a whole buffer), wakes for each `period`, and stamps periods on
    /// CLOCK_MONOTONIC.
    private static func setSoftwareParameters(_ pcm: OpaquePointer, name: String, period: snd_pcm_uframes_t) throws {
        var sw: OpaquePointer?
        snd_pcm_sw_params_malloc(&sw)
        defer { snd_pcm_sw_params_free(sw) }
        try alsaCheck(.pcmSoftwareParameters, name, function: "snd_pcm_sw_params_current") { snd_pcm_sw_params_current(pcm, sw) }
        try alsaCheck(.pcmSoftwareParameters, name, function: "snd_pcm_sw_params_set_start_threshold") { snd_pcm_sw_params_set_start_threshold(pcm, sw, 1) }
        try alsaCheck(.pcmSoftwareParameters, name, function: "snd_pcm_sw_params_set_avail_min") { snd_pcm_sw_params_set_avail_min(pcm, sw, period) }
        try alsaCheck(.pcmSoftwareParameters, name, function: "snd_pcm_sw_params_set_tstamp_mode") { snd_pcm_sw_params_set_tstamp_mode(pcm, sw, SND_PCM_TSTAMP_ENABLE) }
        try alsaCheck(.pcmSoftwareParameters, name, function: "snd_pcm_sw_params_set_tstamp_type") { snd_pcm_sw_params_set_tstamp_type(pcm, sw, SND_PCM_TSTAMP_TYPE_MONOTONIC) }
        try alsaCheck(.pcmSoftwareParameters, name) { snd_pcm_sw_params(pcm, sw) }
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
            if let error = captureLoop(queue) {
                endedWithError.store(true, ordering: .sequentiallyConsistent)
                queue.push(.sourceEnded(.audio, error))
            }
        }
    }

    /// Stops capturing and closes the device: a microphone is not started again, and a
    /// USB one that was unplugged can come back under its name only once it is closed.
    public func stop() {
        worker.stop()
        if !endedWithError.load(ordering: .sequentiallyConsistent), !handle.isClosed {
            systemCallNegativeErrno(.pcmDrop) { snd_pcm_drop(handle.pcm) }
        }
        handle.close()
    }

    private func captureLoop(_ queue: CaptureQueue) -> (any Error)? {
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
            let ready: Int
            do {
                guard let result = try waitForPeriod(idle: &idle) else { continue }
                ready = result
            } catch { return error }
            if ready < 0 {
                release(dating.release())
                nextCaptureTime = nil
                if let error = recover(Int32(ready)) { return error }
            }
            let buffer = FrameBuffer(count: periodFrames * format.bytesPerFrame)
            let read = systemCallNegativeErrno(.pcmRead) { snd_pcm_readi(handle.pcm, buffer.bytes, snd_pcm_uframes_t(periodFrames)) }
            if read == -Int(EAGAIN) { continue }
            if read < 0 {
                release(dating.release())
                nextCaptureTime = nil
                if let error = recover(Int32(read)) { return error }
                continue
            }
            guard read > 0 else { continue }
            idle = 0
            let now = MonotonicClock.now()
            let delay = throughServer ? serverDelay() : nil
            if tracesPeriods, traced < ALSAMicrophone.tracedPeriods {
                traced += 1
                trace(period: traced, frames: Int(read), now: now, delay: delay)
            }
            if throughServer, !dating.isSettled {
                held.append((buffer, Int(read)))
                release(dating.add(frames: Int(read), now: now, delay: delay))
                continue
            }
            let captured = captureTime(ofFramesRead: Int(read), now: now, delay: delay, following: nextCaptureTime)
            nextCaptureTime = captured + format.nanoseconds(ofFrames: Int64(read))
            queue.push(.audio(AudioChunk(format: format, buffer: buffer, frameCount: Int(read), captureTime: captured)))
        }
        return nil
    }

    /// Waits up to 100 ms for a period (`snd_pcm_wait`): its result (negative: the
    /// stream broke), or `nil` when none came; `idle` counts the milliseconds waited in
    /// vain since the last read. Throws once the microphone has sent nothing for the
    /// stall timeout.
    private func waitForPeriod(idle: inout Int32) throws -> Int? {
        let ready = systemCallNegativeErrno(.pcmWait) { snd_pcm_wait(handle.pcm, 100) }
        guard ready == 0 else { return Int(ready) }
        idle += 100
        guard idle < ALSAMicrophone.timeout else {
            throw DeviceError.stopped(device: "microphone \(displayName)", reason: "sent no audio for \(CaptureTiming.stallTimeout.wholeSeconds) s")
        }
        return nil
    }

    /// How many frames old, behind a sound server, the newest frame read is now
    /// (`snd_pcm_delay`); `nil` when the plug-in cannot say.
    private func serverDelay() -> Int? {
        var delay: snd_pcm_sframes_t = 0
        guard systemCallNegativeErrno(.pcmDelay, { snd_pcm_delay(handle.pcm, &delay) }) == 0, delay >= 0 else { return nil }
        return Int(delay)
    }

    /// When the first of the `frames` just read at `now` was captured: from a sound
    /// server's `delay`, else from the driver's timestamp, else right after the chunk
    /// before (`following`), else `now` less their length.
    private func captureTime(ofFramesRead frames: Int, now: Int64, delay: Int?, following next: Int64?) -> Int64 {
        if let delay {
            // The newest frame read is `delay` frames old now.
            return now - audioFormat.nanoseconds(ofFrames: Int64(delay) + Int64(frames))
        }
        var avail: snd_pcm_uframes_t = 0
        var stamp = timespec()
        if systemCallNegativeErrno(.pcmTimestamp, { snd_pcm_htimestamp(handle.pcm, &avail, &stamp) }) == 0, stamp.tv_sec > 0 {
            let at = Int64(stamp.tv_sec) * 1_000_000_000 + Int64(stamp.tv_nsec)
            // At `at`, `avail` frames were waiting after the ones just read.
            return at - audioFormat.nanoseconds(ofFrames: Int64(avail) + Int64(frames))
        }
        if let next {
            // No timestamp: the device overran (or the process was stopped) after the
            // read, so `now` and the waiting frames say nothing of when these were
            // captured; they follow the last chunk.
            return next
        }
        return now - audioFormat.nanoseconds(ofFrames: Int64(frames))
    }

    /// Writes one period's line of the sound trace (`VIDREC_SOUND_TRACE=1`) to stderr.
    private func trace(period: Int, frames: Int, now: Int64, delay: Int?) {
        let line = "vidrec: sound trace: period \(period): \(frames) frames read at \(now) ns, snd_pcm_delay \(delay.map(String.init) ?? "unknown")\n"
        FileHandle.standardError.write(Data(line.utf8))
    }

    /// Recovers from an overrun or a suspend; returns the error that cannot be recovered.
    /// A USB microphone unplugged mid-read reports a broken pipe first and its PCM is
    /// disconnected: that is a microphone gone, not an overrun.
    private func recover(_ code: Int32) -> (any Error)? {
        let gone = DeviceError.stopped(device: "microphone \(displayName)", reason: "disappeared (it was unplugged or its driver stopped)")
        if code == -ENODEV || snd_pcm_state(handle.pcm) == SND_PCM_STATE_DISCONNECTED { return gone }
        let recovered = systemCallNegativeErrno(.pcmRecover, { snd_pcm_recover(handle.pcm, code, 1) })
        if recovered == -ENODEV || snd_pcm_state(handle.pcm) == SND_PCM_STATE_DISCONNECTED { return gone }
        if code == -EPIPE { overrunCount.add(1, ordering: .relaxed) }
        if recovered < 0 {
            return ALSAError(operation: "snd_pcm_readi", device: displayName, code: code)
        }
        systemCallNegativeErrno(.pcmStart) { snd_pcm_start(handle.pcm) }
        return nil
    }
}
