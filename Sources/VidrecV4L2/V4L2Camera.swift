import CV4L2
import Glibc
import Synchronization
import VidrecMedia
import VidrecSystem

/// A V4L2 camera as a capture source: mmap streaming with half a second of driver
/// buffers (``driverBufferCount(frameBytes:frameRate:)``), dequeued on the
/// `vidrec.camera` thread with `poll` and a timeout, so a camera that stops sending is
/// reported instead of hanging.
///
/// Frames carry the kernel's capture timestamp when the driver stamps them on
/// CLOCK_MONOTONIC (otherwise the dequeue time), and its sequence number, whose gaps
/// are frames the camera dropped. A buffer stamped before streaming started holds no
/// frame of this recording and is passed over: v4l2loopback hands its reader first the
/// buffer written before the reader asked for buffers, stamped at that request, with
/// sequence 0 and the whole buffer as its length.
///
/// A camera that sends H.264 delivers its access units from its first keyframe on
/// (``KeyframeGate``), asked for at once where the camera has the control
/// (`V4L2_CID_MPEG_VIDEO_FORCE_KEY_FRAME`); Motion-JPEG frames pass as they come.
public final class V4L2Camera: CompressedVideoSource {
    /// How long the camera may send nothing before it counts as gone.
    public static let frameTimeout: Int32 = CaptureTiming.stallTimeout.milliseconds

    /// The fewest driver buffers asked for.
    public static let minimumDriverBuffers = 6
    /// The most driver buffers asked for: as many as ffmpeg's v4l2 input asks for.
    public static let maximumDriverBuffers = 32
    /// The most memory the driver buffers may take together.
    public static let driverBufferBytes = 32 << 20

    /// How many driver buffers to ask for: half a second of frames, so that the camera
    /// drops none while the capture thread waits for a busy CPU (the frames only queue
    /// in the driver), between ``minimumDriverBuffers`` and ``maximumDriverBuffers``,
    /// and within ``driverBufferBytes`` (at 1080p, uncompressed frames are 4 MB each).
    ///
    /// - Parameters:
    ///   - frameBytes: a buffer's size, as the driver reported it (`sizeimage`).
    ///   - frameRate: the camera's frame rate.
    public static func driverBufferCount(frameBytes: Int, frameRate: Rational) -> Int {
        let halfSecond = Int((frameRate.doubleValue / 2).rounded(.up))
        let withinBytes = driverBufferBytes / max(1, frameBytes)
        return max(minimumDriverBuffers, min(halfSecond, withinBytes, maximumDriverBuffers))
    }

    public let displayName: String
    public let videoFormat: VideoFormat
    /// Bytes per row of each plane, as the driver reported.
    private let strides: [Int]
    private let device: V4L2Device
    private let buffers: [MappedBuffer]
    /// The blocks frames are copied into, as many kept as there are driver buffers.
    private let pool: FrameBufferPool
    private let worker = CaptureWorker()
    /// Where a compressed stream begins, and its header.
    private let gate: KeyframeGate
    /// Controls to set back when the camera is closed: (ID, key, value before), in the
    /// order they were changed.
    private let restore = Mutex<[(id: UInt32, key: String, value: Int)]>([])

    /// One mmap'ed driver buffer, unmapped when released.
    private final class MappedBuffer: @unchecked Sendable {
        // Only the camera thread touches the memory while streaming.
        let start: UnsafeMutableRawPointer
        let length: Int
        private let device: V4L2Device
        init(start: UnsafeMutableRawPointer, length: Int, device: V4L2Device) {
            self.start = start
            self.length = length
            self.device = device
        }
        deinit { device.unmap(start, length: length) }
    }

    /// Opens `description.path` and sets `mode` (VIDIOC_S_FMT, VIDIOC_S_PARM), then maps
    /// the buffers (VIDIOC_REQBUFS, VIDIOC_QUERYBUF, `v4l2_mmap`).
    ///
    /// - Throws: ``DeviceError`` or ``SystemError`` naming the device and the call.
    public init(_ description: CameraDescription, mode: CameraMode) throws {
        guard let pixelFormat = mode.pixelFormat else {
            throw DeviceError.notACamera(path: description.path, reason: "format \(mode.fourcc) is not supported")
        }
        let device = try V4L2Device(path: description.path)
        self.device = device
        displayName = "\(description.path) (\(description.name))"

        var format = v4l2_format()
        format.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        format.fmt.pix.width = UInt32(mode.width)
        format.fmt.pix.height = UInt32(mode.height)
        format.fmt.pix.pixelformat = FourCC.code(mode.fourcc)
        format.fmt.pix.field = V4L2_FIELD_NONE.rawValue
        try device.controlReportingBusy(CV4L2_VIDIOC_S_FMT, "VIDIOC_S_FMT", &format)
        let width = Int(format.fmt.pix.width), height = Int(format.fmt.pix.height)
        guard FourCC.name(format.fmt.pix.pixelformat) == mode.fourcc else {
            throw SystemError("VIDIOC_S_FMT \(mode.fourcc) (the driver chose \(FourCC.name(format.fmt.pix.pixelformat)))",
                              description.path, errno: EINVAL)
        }
        let bytesPerLine = Int(format.fmt.pix.bytesperline)
        strides = switch pixelFormat {
        case .yu12, .yv12: [bytesPerLine, bytesPerLine / 2, bytesPerLine / 2]
        case .nv12: [bytesPerLine, bytesPerLine]
        default: [bytesPerLine]
        }

        var parm = v4l2_streamparm()
        parm.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        parm.parm.capture.timeperframe = v4l2_fract(numerator: UInt32(mode.frameRate.denominator),
                                                    denominator: UInt32(mode.frameRate.numerator))
        var rate = mode.frameRate
        if (try? device.control(CV4L2_VIDIOC_S_PARM, "VIDIOC_S_PARM", &parm)) != nil {
            let t = parm.parm.capture.timeperframe
            if t.numerator > 0 && t.denominator > 0 { rate = Rational(Int64(t.denominator), Int64(t.numerator)) }
        }
        videoFormat = VideoFormat(pixelFormat: pixelFormat, width: width, height: height, frameRate: rate)
        gate = KeyframeGate(format: pixelFormat)

        var request = v4l2_requestbuffers()
        request.count = UInt32(V4L2Camera.driverBufferCount(frameBytes: Int(format.fmt.pix.sizeimage), frameRate: rate))
        request.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        request.memory = V4L2_MEMORY_MMAP.rawValue
        try device.controlReportingBusy(CV4L2_VIDIOC_REQBUFS, "VIDIOC_REQBUFS", &request)
        guard request.count >= 4 else {
            throw SystemError("VIDIOC_REQBUFS (only \(request.count) buffers)", description.path, errno: ENOMEM)
        }
        var mapped: [MappedBuffer] = []
        for index in 0..<request.count {
            var buffer = v4l2_buffer()
            buffer.index = index
            buffer.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
            buffer.memory = V4L2_MEMORY_MMAP.rawValue
            try device.control(CV4L2_VIDIOC_QUERYBUF, "VIDIOC_QUERYBUF", &buffer)
            let start = try device.map(length: Int(buffer.length), offset: Int64(buffer.m.offset))
            mapped.append(MappedBuffer(start: start, length: Int(buffer.length), device: device))
        }
        buffers = mapped
        pool = FrameBufferPool(blockSize: mapped.map(\.length).max()!, keep: mapped.count)
    }

    /// Sets camera controls (VIDIOC_S_CTRL), in order, before streaming. V4L2 controls
    /// stay set on the device after the program ends; with `restoreAtEnd`, each is set
    /// back to the value it had when this camera is closed (not after a `kill -9`).
    ///
    /// - Returns: for each control, its key, the value set and the value before
    ///   (`brightness=200 (was 128)`).
    /// - Throws: ``SystemError`` naming the control when the driver refuses a value.
    @discardableResult
    public func setControls(_ settings: [(control: CameraControl, value: Int)], restoreAtEnd: Bool) throws -> [String] {
        var done: [String] = []
        for (control, value) in settings {
            let before = try? device.controlValue(control.id, name: control.key)
            try device.setControl(control.id, to: value, name: control.key)
            if restoreAtEnd, let before {
                restore.withLock { list in
                    if !list.contains(where: { $0.id == control.id }) { list.append((control.id, control.key, before)) }
                }
            }
            done.append("\(control.key)=\(value)" + (before.map { " (was \($0))" } ?? ""))
        }
        return done
    }

    /// Sets the camera's keyframe interval to `frames` where it has a control for it
    /// (`V4L2_CID_MPEG_VIDEO_H264_I_PERIOD`, else `V4L2_CID_MPEG_VIDEO_GOP_SIZE`), so that
    /// a copied stream can be cut and joined a keyframe at a time. Set back at the end.
    ///
    /// - Returns: `i_period=30 (was 60)`, or `nil` when the camera has neither control.
    public func setKeyframeInterval(_ frames: Int) -> String? {
        for (id, key) in [(CV4L2_CID_H264_I_PERIOD, "h264_i_frame_period"), (CV4L2_CID_GOP_SIZE, "video_gop_size")] {
            guard let before = try? device.controlValue(id, name: key) else { continue }
            guard (try? device.setControl(id, to: frames, name: key)) != nil else { continue }
            restore.withLock { list in
                if !list.contains(where: { $0.id == id }) { list.append((id, key, before)) }
            }
            return "\(key)=\(frames) (was \(before))"
        }
        return nil
    }

    public func streamHeader(timeout: Double) throws -> [UInt8] {
        try gate.header(timeout: timeout, device: "camera \(device.path)")
    }

    public func requestKeyframe() {
        guard videoFormat.pixelFormat == .h264 else { return }
        try? device.setControl(CV4L2_CID_FORCE_KEY_FRAME, to: 1, name: "force_key_frame")
    }

    public func start(into queue: CaptureQueue) throws {
        for index in buffers.indices { try enqueue(UInt32(index)) }
        var type = Int32(V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue)
        let streamingSince = MonotonicClock.now()
        try device.controlReportingBusy(CV4L2_VIDIOC_STREAMON, "VIDIOC_STREAMON", &type)
        // The recording starts at a keyframe: ask for one rather than wait for it.
        if !gate.isOpen { requestKeyframe() }
        worker.start(name: "vidrec.camera") { [self] in
            if let error = captureLoop(queue, since: streamingSince) {
                queue.push(.sourceEnded(.video, error))
            }
        }
    }

    public func stop() {
        guard worker.stop() else { return }
        var type = Int32(V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue)
        try? device.control(CV4L2_VIDIOC_STREAMOFF, "VIDIOC_STREAMOFF", &type)
    }

    deinit {
        stop()
        // Last changed, first restored: a manual value before the automatic mode it
        // had switched off.
        for (id, key, value) in restore.withLock({ $0 }).reversed() {
            try? device.setControl(id, to: value, name: key)
        }
    }

    private func enqueue(_ index: UInt32) throws(SystemError) {
        var buffer = v4l2_buffer()
        buffer.index = index
        buffer.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        buffer.memory = V4L2_MEMORY_MMAP.rawValue
        try device.control(CV4L2_VIDIOC_QBUF, "VIDIOC_QBUF", &buffer)
    }

    /// Dequeues until stopped, passing over buffers stamped before `since` (when
    /// streaming started); returns the error that ended capture, if any.
    private func captureLoop(_ queue: CaptureQueue, since: Int64) -> (any Error)? {
        let frameBytes = videoFormat.pixelFormat.isCompressed ? nil : minimumFrameBytes()
        do {
            while try waitForFrame() {
                guard let buffer = try dequeue() else { continue }
                try deliver(buffer, since: since, frameBytes: frameBytes, into: queue)
                try requeue(buffer.index)
            }
        } catch {
            return error
        }
        return nil
    }

    /// Waits for a frame, waking at least every 100 ms to notice ``stop()``: `true` when
    /// one is ready (or the device reports an error the dequeue will tell), `false` once
    /// stopped. Throws when none came for ``frameTimeout`` or the device hung up.
    private func waitForFrame() throws -> Bool {
        var waited: Int32 = 0
        var revents: Int16 = 0
        while worker.isRunning, waited < V4L2Camera.frameTimeout {
            revents = try FileDescriptor(rawValue: device.fd).poll(Int16(POLLIN), orWake: worker.wake,
                                                                   milliseconds: CaptureTiming.wakeInterval.milliseconds, device.path)
            if revents != 0 { break }
            waited += CaptureTiming.wakeInterval.milliseconds
        }
        guard worker.isRunning else { return false }
        guard revents != 0 else {
            throw DeviceError.stopped(device: "camera \(device.path)", reason: "sent no frame for \(CaptureTiming.stallTimeout.wholeSeconds) s")
        }
        if revents & Int16(POLLHUP | POLLNVAL) != 0 && revents & Int16(POLLIN) == 0 {
            throw DeviceError.stopped(device: "camera \(device.path)", reason: "disappeared (it was unplugged or its driver stopped)")
        }
        // POLLERR alone: the dequeue tells what (EIO: the driver ended the stream).
        return true
    }

    /// The next filled buffer (`VIDIOC_DQBUF`); `nil` when none is ready after all.
    /// Throws when the device went (ENODEV), ended its stream (EIO) or failed.
    private func dequeue() throws -> v4l2_buffer? {
        var buffer = v4l2_buffer()
        buffer.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        buffer.memory = V4L2_MEMORY_MMAP.rawValue
        let dequeued = device.attempt(CV4L2_VIDIOC_DQBUF, &buffer)
        switch dequeued {
        case 0: return buffer
        case EAGAIN: return nil
        case ENODEV:
            throw DeviceError.stopped(device: "camera \(device.path)", reason: "disappeared (it was unplugged or its driver stopped)")
        case EIO:
            throw DeviceError.stopped(device: "camera \(device.path)",
                                      reason: "ended its stream with an error (VIDIOC_DQBUF: \(SystemError.describe(EIO)))")
        default: throw SystemError("VIDIOC_DQBUF", device.path, errno: dequeued)
        }
    }

    /// Copies `buffer`'s frame into `queue`, dated by its monotonic timestamp (or now),
    /// unless it is stale (stamped before `since`), flagged bad, empty, shorter than
    /// `frameBytes`, or held back by the keyframe gate. Throws when the gate refuses the
    /// stream.
    private func deliver(_ buffer: v4l2_buffer, since: Int64, frameBytes: Int?, into queue: CaptureQueue) throws {
        let now = MonotonicClock.now()
        let monotonic = buffer.flags & UInt32(V4L2_BUF_FLAG_TIMESTAMP_MASK) == UInt32(V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC)
        let stamp = Int64(buffer.timestamp.tv_sec) * 1_000_000_000 + Int64(buffer.timestamp.tv_usec) * 1_000
        let captureTime = monotonic && stamp > 0 ? stamp : now
        let used = Int(buffer.bytesused)
        let stale = monotonic && stamp > 0 && stamp < since
        let corrupt = stale || buffer.flags & UInt32(V4L2_BUF_FLAG_ERROR) != 0 || used == 0 || (frameBytes.map { used < $0 } ?? false)
        let mapped = buffers[Int(buffer.index)]
        var verdict = KeyframeGate.Verdict.deliver(byteCount: min(used, mapped.length), isKeyframe: true)
        if !corrupt, videoFormat.pixelFormat.isCompressed {
            verdict = gate.admit(mapped.start, byteCount: min(used, mapped.length))
        }
        if case .refuse(let reason) = verdict {
            throw DeviceError.stopped(device: "camera \(device.path)", reason: reason)
        }
        guard !corrupt, case .deliver(let byteCount, let isKeyframe) = verdict else { return }
        let copy = pool.buffer(copying: mapped.start, count: byteCount)
        queue.push(.video(VideoFrame(
            pixelFormat: videoFormat.pixelFormat, width: videoFormat.width, height: videoFormat.height,
            buffer: copy, byteCount: copy.count, strides: strides, captureTime: captureTime,
            sequence: UInt64(buffer.sequence), isKeyframe: isKeyframe)))
    }

    /// Gives buffer `index` back to the driver (`VIDIOC_QBUF`).
    private func requeue(_ index: UInt32) throws {
        var requeue = v4l2_buffer()
        requeue.index = index
        requeue.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        requeue.memory = V4L2_MEMORY_MMAP.rawValue
        let queued = device.attempt(CV4L2_VIDIOC_QBUF, &requeue)
        if queued == ENODEV {
            throw DeviceError.stopped(device: "camera \(device.path)", reason: "disappeared (it was unplugged or its driver stopped)")
        }
        if queued != 0 { throw SystemError("VIDIOC_QBUF", device.path, errno: queued) }
    }

    /// Bytes a whole raw frame takes; shorter buffers are torn and skipped.
    private func minimumFrameBytes() -> Int {
        zip(strides, videoFormat.pixelFormat.planeRows(height: videoFormat.height)).reduce(0) { $0 + $1.0 * $1.1 }
    }
}
