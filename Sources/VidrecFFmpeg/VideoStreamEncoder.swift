import CFFmpeg
import CSystemShims
import CVidrecPixels
import VidrecMedia
import VidrecSystem

/// The video stream of a movie: its encoder, its output frame and the scaler that
/// turns camera frames (any size, any ``PixelFormat``) into the preset's size and format.
final class VideoStreamEncoder: StreamEncoder {
    let stream: EncodedStream
    let name: String
    let defaultPacketDuration: Int64 = 1
    var codecContext: UnsafeMutablePointer<AVCodecContext> { context.pointer }

    private let context: CodecContext
    private let ownedFrame: OwnedFrame
    private var frame: UnsafeMutablePointer<AVFrame> { ownedFrame.pointer }
    private let scaler = Scaler()
    private var decoder: FrameDecoder?
    /// Decode threads for a Motion JPEG camera's frames (``DecoderPool``), for the
    /// processors the encoder is sized for; none: they are decoded here.
    private let decodeThreads: Int
    /// The decode stage, made on the first JPEG when ``decodeThreads`` is not zero.
    private var ahead: DecoderPool?
    private let fit: VideoFit
    /// For `--mirror`: each plane's bytes per row and rows, flipped after scaling.
    private var mirroredPlanes: [(width: Int, rows: Int)] = []
    /// For `--overlay`: burns the text into each picture, after mirroring.
    private var painter: OverlayPainter?
    /// Whether the movie stores full-range pixels (a Motion JPEG camera's, kept as they
    /// are; see ``VideoEncoding/sourceFormat``).
    private let isFullRange: Bool
    /// What the encoder is given for a decoded JPEG passed on without scaling
    /// (``direct(_:frameIndex:)``): references to the decoder's luma plane and to
    /// ``chroma``'s planes.
    private let directFrame: OwnedFrame
    /// A 4:2:0 frame whose chroma planes hold a 4:2:2 JPEG's chroma, halved vertically.
    private let chroma: OwnedFrame

    /// Opens the encoder.
    ///
    /// - Parameter globalHeader: whether a muxer it feeds wants the codec's headers in the
    ///   stream parameters (``EncoderSetup/begin(_:globalHeader:)``).
    /// - Throws: ``FFmpegError`` naming the encoder and the setting it refused.
    init(settings: VideoEncoding, globalHeader: Bool) throws {
        name = settings.codec
        fit = settings.fit
        decodeThreads = DecoderPool.threads(processors: settings.processors ?? Int(csystem_available_processors()))
        let parts = try EncoderSetup.begin(settings.codec, globalHeader: globalHeader)
        let codec = parts.codec
        context = parts.context
        ownedFrame = parts.frame

        let pixelFormat = av_get_pix_fmt(settings.pixelFormat)
        guard pixelFormat != AV_PIX_FMT_NONE else {
            throw FFmpegError("av_get_pix_fmt", settings.pixelFormat, code: cffmpeg_averror(EINVAL),
                              hint: "use a pixel format such as yuv420p", kind: .unsupportedSettings)
        }
        let rate = AVRational(num: Int32(settings.frameRate.numerator), den: Int32(settings.frameRate.denominator))
        let cc = parts.context.pointer
        cc.pointee.codec_id = codec.pointee.id
        cc.pointee.width = Int32(settings.width)
        cc.pointee.height = Int32(settings.height)
        cc.pointee.pix_fmt = pixelFormat
        cc.pointee.time_base = av_inv_q(rate)
        cc.pointee.framerate = rate
        cc.pointee.gop_size = Int32(settings.keyframeInterval)
        cc.pointee.thread_count = 0
        isFullRange = settings.sourceFormat?.isJPEG == true && pixelFormat == AV_PIX_FMT_YUV420P
        if isFullRange {
            // JPEG's range and chroma siting (between the rows and columns it covers),
            // written into the stream's VUI and the MP4's colour box.
            cc.pointee.color_range = AVCOL_RANGE_JPEG
            cc.pointee.chroma_sample_location = AVCHROMA_LOC_CENTER
        }
        directFrame = try OwnedFrame(subject: settings.codec)
        chroma = try OwnedFrame(subject: settings.codec)
        try VideoStreamEncoder.applyRateControl(cc, settings)
        stream = try EncoderSetup.open(parts, kind: .video, name: settings.codec)
        stream.rotation = settings.rotation
        if settings.isMirrored {
            mirroredPlanes = try VideoStreamEncoder.mirrorablePlanes(pixelFormat, width: settings.width, height: settings.height)
        }
        if let overlay = settings.overlay {
            painter = try VideoStreamEncoder.painter(overlay, pixelFormat, width: settings.width, height: settings.height,
                                                     fullRange: isFullRange)
        }

        for owner in [ownedFrame, chroma] {
            owner.pointer.pointee.format = pixelFormat.rawValue
            owner.pointer.pointee.width = cc.pointee.width
            owner.pointer.pointee.height = cc.pointee.height
            try check(av_frame_get_buffer(owner.pointer, 0), "av_frame_get_buffer", settings.codec)
        }
        frame.pointee.color_range = cc.pointee.color_range
    }

    /// Pixels a second up to which x264 encodes each frame in slices rather than several
    /// frames at once (`low`'s 640x360 at 15 fps is 3.5 million): below 640x360 at 30
    /// fps, x264's veryfast has room to spare even on two emulated cores.
    static let lowDelayPixelRate = 640.0 * 360 * 30

    /// Speed preset, CRF and bit rate, mapped onto each encoder's own options.
    private static func applyRateControl(_ cc: UnsafeMutablePointer<AVCodecContext>,
                                         _ settings: VideoEncoding) throws(FFmpegError) {
        let codec = settings.codec
        if let speed = settings.speed {
            if EncoderOptions.has(cc, "preset") {
                try EncoderOptions.set(cc, "preset", speed, codec: codec)
            } else if EncoderOptions.has(cc, "cpu-used") {
                try EncoderOptions.set(cc, "cpu-used", speed, codec: codec)
                if EncoderOptions.has(cc, "deadline") { try EncoderOptions.set(cc, "deadline", "realtime", codec: codec) }
            } else {
                throw FFmpegError("set speed \(speed)", codec, code: cffmpeg_averror(EINVAL),
                                  hint: "this encoder has no speed preset; remove 'video.speed' from the preset", kind: .unsupportedSettings)
            }
        }
        if EncoderOptions.has(cc, "rc-lookahead") {
            try applyLowLatency(cc, settings)
        }
        if let crf = settings.crf {
            guard EncoderOptions.has(cc, "crf") else {
                throw FFmpegError("set crf \(crf)", codec, code: cffmpeg_averror(EINVAL),
                                  hint: "this encoder has no CRF mode; set 'video.bitRate' instead of 'video.crf'", kind: .unsupportedSettings)
            }
            try EncoderOptions.set(cc, "crf", String(crf), codec: codec)
            if let bitRate = settings.bitRate {
                if codec.hasPrefix("libvpx") || codec == "libaom-av1" {
                    // libvpx/libaom: CRF with a target bit rate is "constrained quality".
                    cc.pointee.bit_rate = Int64(bitRate)
                } else {
                    // x264/x265: CRF capped by the bit rate (VBV).
                    cc.pointee.rc_max_rate = Int64(bitRate)
                    cc.pointee.rc_buffer_size = Int32(clamping: bitRate * 2)
                }
            }
        } else if let bitRate = settings.bitRate {
            cc.pointee.bit_rate = Int64(bitRate)
            cc.pointee.rc_max_rate = Int64(bitRate)
            cc.pointee.rc_buffer_size = Int32(clamping: bitRate * 2)
        }
    }

    /// Holds back as few frames as x264 can without losing speed or compression, since
    /// the frames inside the encoder are what a `kill -9` loses (with the tenth of a
    /// second of the fragment being built). x264 holds max(B-frames, lookahead) frames,
    /// plus, with frame threads, one per extra thread and its threaded lookahead's
    /// buffer (`sync-lookahead`, by default B-frames + 1).
    ///
    /// - A small picture (up to ``lowDelayPixelRate``): x264 has ample headroom, so
    ///   it splits each frame into slices across the cores instead of encoding several
    ///   frames at once, with a lookahead of a tenth of a second: it holds fewer frames,
    ///   so a `kill -9` loses less, for a few per cent more bytes.
    /// - Larger pictures keep frame threads (slices do not keep 720p in real time on
    ///   two cores) with a lookahead of a sixth of a second and a threaded-lookahead
    ///   buffer of two frames: a `kill -9` loses less than with x264's defaults, for the
    ///   same CPU time and bytes. The frame threads are capped
    ///   (``frameThreads(processors:frameRate:lookahead:)``) so that a machine with many
    ///   cores does not hold more.
    ///
    /// What a crash loses at each preset, measured: docs/PERFORMANCE.md
    /// (`scripts/benchmark-finish --crash-only`).
    private static func applyLowLatency(_ cc: UnsafeMutablePointer<AVCodecContext>,
                                        _ settings: VideoEncoding) throws(FFmpegError) {
        let codec = settings.codec
        let rate = settings.frameRate
        let pixelRate = Double(settings.width * settings.height) * rate.doubleValue
        let isSmall = pixelRate <= lowDelayPixelRate
        let lookahead = min(isSmall ? 3 : 10, max(1, Int(rate.numerator / ((isSmall ? 10 : 6) * rate.denominator))))
        try EncoderOptions.set(cc, "rc-lookahead", String(lookahead), codec: codec)
        if EncoderOptions.has(cc, "x264-params") {
            try EncoderOptions.set(cc, "x264-params",
                                   isSmall ? "sliced-threads=1:sync-lookahead=0" : "sync-lookahead=\(syncLookahead)",
                                   codec: codec)
            if !isSmall {
                let processors = settings.processors ?? Int(csystem_available_processors())
                cc.pointee.thread_count = Int32(frameThreads(processors: processors, frameRate: rate, lookahead: lookahead))
            }
        }
    }

    /// x264's threaded-lookahead buffer, in frames, when it encodes several frames at once.
    static let syncLookahead = 2

    /// The most a crash should lose to the frames x264 holds back: a third of a second
    /// and a little more (the fragment being built and the last writes add about a
    /// tenth of a second, for at most half a second in all).
    static let heldSeconds = Rational(7, 20)

    /// x264's frame threads for a picture encoded several frames at once: as many as x264
    /// would start by itself (one and a half a processor, 3 on two cores), but no more
    /// than keep the frames it holds within ``heldSeconds``. It holds max(B-frames,
    /// `lookahead`) + ``syncLookahead`` + one frame a thread (measured through FFmpeg):
    /// on 8 processors x264 would start 12 and hold 19 frames at 30 fps (0.63 s);
    /// capped, it starts 3 and holds 10 (0.33 s), as on two. Never fewer than the 3
    /// that two processors start, which keep 720p in real time on two cores; at
    /// 60 fps the cap is 9. Three frame threads still encode 1080p at veryfast faster
    /// than real time on a current processor; the rest of the cores stay free.
    ///
    /// - Parameter lookahead: the `rc-lookahead` set (veryfast and faster presets have at
    ///   most 3 B-frames).
    static func frameThreads(processors: Int, frameRate: Rational, lookahead: Int) -> Int {
        let automatic = max(1, processors * 3 / 2)
        let budget = Int(frameRate.doubleValue * heldSeconds.doubleValue)
        let cap = max(3, budget - max(3, lookahead) - syncLookahead)
        return min(automatic, cap)
    }

    /// Compressed frames that could not be decoded and were left out (cameras do send
    /// corrupt JPEGs; the slot stays empty and players hold the previous frame).
    private(set) var undecodableFrames = 0

    /// Converts `input` into the encoder's frame, stamped with `frameIndex`, and hands
    /// it to `encode` with its slot.
    ///
    /// A Motion JPEG frame goes into the decode stage (``DecoderPool``) when the machine
    /// has processors for it: `encode` is then called for the earlier frames that are
    /// decoded, in order, and this one's turn comes in a later call or in
    /// ``flush(_:)``. A compressed frame that gives no picture (corrupt) is skipped and
    /// counted (``undecodableFrames``).
    ///
    /// - Parameter encode: sends a frame, valid only during the call, to the encoder.
    func append(_ input: VideoFrame, frameIndex: Int64,
                encode: (UnsafeMutablePointer<AVFrame>, Int64) throws -> Void) throws {
        if input.pixelFormat.isJPEG, decodeThreads > 0 {
            if ahead == nil { ahead = DecoderPool(threads: decodeThreads) }
            try ahead!.submit(input, frameIndex: frameIndex)
            while let job = ahead!.next(waiting: false) { try pass(job, encode) }
            return
        }
        // The frames still in the stage come first (a camera switched from MJPEG).
        try flush(encode)
        if let prepared = try prepare(input, frameIndex: frameIndex) { try encode(prepared, frameIndex) }
    }

    /// Hands every frame still in the decode stage to `encode`, in order; before the
    /// encoder is flushed at the end.
    func flush(_ encode: (UnsafeMutablePointer<AVFrame>, Int64) throws -> Void) throws {
        while let job = ahead?.next(waiting: true) { try pass(job, encode) }
    }

    /// Converts a frame the decode stage is done with, hands it to `encode`, and gives
    /// its picture back to the stage.
    private func pass(_ job: DecoderPool.Job, _ encode: (UnsafeMutablePointer<AVFrame>, Int64) throws -> Void) throws {
        defer { ahead?.recycle(job) }
        if let prepared = try prepare(job) { try encode(prepared, job.frameIndex) }
    }

    /// Converts a frame the decode stage is done with.
    private func prepare(_ job: DecoderPool.Job) throws -> UnsafeMutablePointer<AVFrame>? {
        try check(av_frame_make_writable(frame), "av_frame_make_writable", name)
        av_frame_unref(directFrame.pointer)
        guard job.isDecoded else {
            undecodableFrames += 1
            return nil
        }
        return try convert(job.input, CapturedPicture(decoded: job.picture.pointer), decoded: job.picture.pointer,
                           frameIndex: job.frameIndex)
    }

    /// Converts `input` into the encoder's frame and stamps it with `frameIndex`,
    /// decoding it here if it is compressed.
    ///
    /// - Returns: the frame to send to the encoder, valid until the next call; `nil`
    ///   for a compressed frame that gives no picture (corrupt), which is skipped and
    ///   counted.
    private func prepare(_ input: VideoFrame, frameIndex: Int64) throws -> UnsafeMutablePointer<AVFrame>? {
        try check(av_frame_make_writable(frame), "av_frame_make_writable", name)
        // Let go of the last picture passed on as it was, so that the decoder writes the
        // next one into the same buffers rather than copying them first.
        av_frame_unref(directFrame.pointer)
        let decoded: CapturedPicture?
        do { decoded = try CapturedPicture(input, decoder: &decoder) } catch where input.pixelFormat.isCompressed {
            decoded = nil
        }
        guard let picture = decoded else {
            undecodableFrames += 1
            return nil
        }
        return try convert(input, picture, decoded: input.pixelFormat.isCompressed ? decoder?.frame : nil, frameIndex: frameIndex)
    }

    /// Scales, fits and mirrors `picture`, the pixels of `input`, into the encoder's
    /// frame, or passes a decoded JPEG at the movie's size on as it is (``direct(_:frameIndex:)``).
    ///
    /// - Parameter decoded: the decoder's picture, for a compressed frame.
    private func convert(_ input: VideoFrame, _ picture: CapturedPicture, decoded: UnsafeMutablePointer<AVFrame>?,
                         frameIndex: Int64) throws -> UnsafeMutablePointer<AVFrame> {
        let cc = codecContext.pointee
        if isFullRange, mirroredPlanes.isEmpty, input.pixelFormat.isJPEG, let decoded,
           input.width == Int(cc.width), input.height == Int(cc.height),
           let direct = try direct(decoded, frameIndex: frameIndex, capturedAt: input.captureTime) {
            return direct
        }
        var source = picture.planes
        let strides = picture.strides
        let sourceFormat = picture.format
        // Fit a picture of another aspect ratio: use part of it (crop), or draw it into
        // part of the frame with black bars (pad).
        let (from, to) = fit.rectangles(sourceWidth: input.width, sourceHeight: input.height,
                                        width: Int(cc.width), height: Int(cc.height))
        try VideoStreamEncoder.offset(&source, strides: strides, format: sourceFormat, x: from.x, y: from.y)
        var destination = (0..<4).map { frame.plane($0) }
        let destinationStrides = (0..<4).map { frame.linesize($0) }
        if to.width != Int(cc.width) || to.height != Int(cc.height) {
            let lines = destinationStrides.map { Int($0) }
            try check(av_image_fill_black(&destination, lines, cc.pix_fmt, AVCOL_RANGE_MPEG, cc.width, cc.height),
                      "av_image_fill_black", name)
            var shifted = destination.map { $0.map { UnsafePointer($0) } }
            try VideoStreamEncoder.offset(&shifted, strides: destinationStrides, format: cc.pix_fmt, x: to.x, y: to.y)
            destination = shifted.map { $0.map { UnsafeMutablePointer(mutating: $0) } }
        }
        // libswscale reads the range from the format: yuvj420p is yuv420p at full range.
        let target = isFullRange ? AV_PIX_FMT_YUVJ420P : cc.pix_fmt
        let conversion = try scaler.context(from: Int32(from.width), Int32(from.height), sourceFormat,
                                            to: Int32(to.width), Int32(to.height), target,
                                            subject: "\(input.width)x\(input.height) \(input.pixelFormat.rawValue)")
        let scaled = sws_scale(conversion, source, strides, 0, Int32(from.height), destination, destinationStrides)
        try check(scaled, "sws_scale", name)
        for (plane, size) in mirroredPlanes.enumerated() {
            guard let start = frame.plane(plane) else { continue }
            PlaneMirror.flip(start, stride: Int(destinationStrides[plane]), width: size.width, rows: size.rows)
        }
        paint(frame, capturedAt: input.captureTime)
        frame.pointee.pts = frameIndex
        return frame
    }

    /// Burns the overlay's text for `captureTime` (``MonotonicClock``) into `picture`.
    private func paint(_ picture: UnsafeMutablePointer<AVFrame>, capturedAt captureTime: Int64) {
        guard let painter else { return }
        painter.paint(planes: (0..<3).map { picture.plane($0) }, strides: (0..<3).map { Int(picture.linesize($0)) },
                      wallTime: WallClock.time(ofMonotonic: captureTime))
    }

    /// A decoded JPEG at the movie's size, handed to the encoder without a pass of the
    /// scaler over every pixel: its luma plane by reference (the range is kept, see
    /// ``isFullRange``), and its chroma by reference for a 4:2:0 JPEG or halved
    /// vertically (each pair of rows averaged) for a 4:2:2 one (UVC cameras send 4:2:2).
    /// This costs a fraction of what converting the whole picture with libswscale costs
    /// (measured: docs/PERFORMANCE.md, `scripts/benchmark-webcam`).
    ///
    /// - Returns: the frame to send, valid until the next call; `nil` for a JPEG in
    ///   another layout (4:4:4, greyscale), which takes the scaler's way.
    private func direct(_ decoded: UnsafeMutablePointer<AVFrame>, frameIndex: Int64,
                        capturedAt: Int64) throws -> UnsafeMutablePointer<AVFrame>? {
        let layout = AVPixelFormat(rawValue: decoded.pointee.format)
        guard layout == AV_PIX_FMT_YUVJ420P || layout == AV_PIX_FMT_YUVJ422P else { return nil }
        let out = directFrame.pointer  // emptied by prepare(_:frameIndex:) before decoding
        try check(av_frame_ref(out, decoded), "av_frame_ref", name)
        if layout == AV_PIX_FMT_YUVJ422P {
            try check(av_frame_make_writable(chroma.pointer), "av_frame_make_writable", name)
            let width = (decoded.pointee.width + 1) / 2, height = decoded.pointee.height
            for plane in 1...2 {
                guard let source = decoded.plane(plane), let target = chroma.pointer.plane(plane) else { return nil }
                cpixels_halve_rows(source, Int(decoded.linesize(plane)), height,
                                   target, Int(chroma.pointer.linesize(plane)), width, (height + 1) / 2)
            }
            // The chroma planes now lie in `chroma`'s buffer: reference that one instead.
            let chromaBuffer = try allocated(av_buffer_ref(chroma.pointer.pointee.buf.0), "av_buffer_ref", name)
            withUnsafeMutableBytes(of: &out.pointee.buf) { raw in
                let buffers = raw.bindMemory(to: UnsafeMutablePointer<AVBufferRef>?.self)
                av_buffer_unref(&buffers[1])
                av_buffer_unref(&buffers[2])
                buffers[1] = chromaBuffer
            }
            for plane in 1...2 {
                out.setPlane(plane, chroma.pointer.plane(plane), linesize: chroma.pointer.linesize(plane))
            }
        }
        out.pointee.format = codecContext.pointee.pix_fmt.rawValue
        out.pointee.color_range = AVCOL_RANGE_JPEG
        // Drawn into the decoder's picture in place: it is this frame's alone (the
        // decoder writes the next one into another buffer of its pool), and the encoder
        // takes its own reference or copy when it is sent.
        paint(out, capturedAt: capturedAt)
        out.pointee.pts = frameIndex
        return out
    }

    /// The painter of `overlay` for `format` at `width`x`height`: planar 8-bit YUV or
    /// greyscale only.
    ///
    /// - Throws: ``FFmpegError`` of kind ``FFmpegError/Kind/unsupportedSettings`` for
    ///   packed, RGB or deeper formats, naming those that work.
    static func painter(_ overlay: TextOverlay, _ format: AVPixelFormat, width: Int, height: Int,
                        fullRange: Bool) throws(FFmpegError) -> OverlayPainter {
        guard let descriptor = av_pix_fmt_desc_get(format) else {
            throw FFmpegError("--overlay", "pixel format \(format.rawValue)", code: cffmpeg_averror(EINVAL), kind: .unsupportedSettings)
        }
        let desc = descriptor.pointee
        let components = withUnsafeBytes(of: desc.comp) { raw in
            (0..<Int(desc.nb_components)).map { raw.load(fromByteOffset: $0 * MemoryLayout<AVComponentDescriptor>.stride, as: AVComponentDescriptor.self) }
        }
        let planar = desc.flags & UInt64(AV_PIX_FMT_FLAG_PLANAR) != 0 || desc.nb_components == 1
        guard planar, desc.flags & UInt64(AV_PIX_FMT_FLAG_RGB) == 0, components.allSatisfy({ $0.step == 1 && $0.depth == 8 }) else {
            throw FFmpegError("--overlay", String(cString: desc.name), code: cffmpeg_averror(EINVAL),
                              hint: "--overlay draws into planar 8-bit YUV pictures such as yuv420p, yuv422p and yuv444p; change 'video.pixelFormat' in the preset",
                              kind: .unsupportedSettings)
        }
        return OverlayPainter(overlay, width: width, height: height,
                              chromaShift: (Int(desc.log2_chroma_w), Int(desc.log2_chroma_h)), fullRange: fullRange)
    }

    /// The planes of `format` at `width`x`height` as (bytes per row, rows), for flipping
    /// left to right by reversing each row: planar formats with one byte a sample only.
    ///
    /// - Throws: ``FFmpegError`` of kind ``FFmpegError/Kind/unsupportedSettings`` for
    ///   packed or deeper formats (NV12, 10-bit), naming those that work.
    static func mirrorablePlanes(_ format: AVPixelFormat, width: Int, height: Int) throws(FFmpegError) -> [(width: Int, rows: Int)] {
        guard let descriptor = av_pix_fmt_desc_get(format) else { return [] }
        let desc = descriptor.pointee
        let components = withUnsafeBytes(of: desc.comp) { raw in
            (0..<Int(desc.nb_components)).map { raw.load(fromByteOffset: $0 * MemoryLayout<AVComponentDescriptor>.stride, as: AVComponentDescriptor.self) }
        }
        guard desc.flags & UInt64(AV_PIX_FMT_FLAG_PLANAR) != 0, components.allSatisfy({ $0.step == 1 && $0.depth == 8 }) else {
            throw FFmpegError("--mirror", String(cString: desc.name), code: cffmpeg_averror(EINVAL),
                              hint: "--mirror works with planar 8-bit pixel formats such as yuv420p, yuv422p and yuv444p; change 'video.pixelFormat' in the preset",
                              kind: .unsupportedSettings)
        }
        return components.map { component in
            let chroma = component.plane == 1 || component.plane == 2
            return (width: chroma ? -((-width) >> Int(desc.log2_chroma_w)) : width,
                    rows: chroma ? -((-height) >> Int(desc.log2_chroma_h)) : height)
        }
    }

    /// Moves plane pointers to pixel (`x`, `y`) of a picture in `format` (even
    /// coordinates, so that subsampled chroma planes move by whole samples).
    static func offset(_ planes: inout [UnsafePointer<UInt8>?], strides: [Int32], format: AVPixelFormat,
                       x: Int, y: Int) throws(FFmpegError) {
        guard x > 0 || y > 0 else { return }
        var columns: [Int32] = [0, 0, 0, 0]
        try check(av_image_fill_linesizes(&columns, format, Int32(x)), "av_image_fill_linesizes", "crop")
        var rows: [Int] = [0, 0, 0, 0]
        let lines = strides.map { Int($0) }
        try check(av_image_fill_plane_sizes(&rows, format, Int32(y), lines), "av_image_fill_plane_sizes", "crop")
        for plane in 0..<4 where planes[plane] != nil {
            planes[plane] = planes[plane]! + rows[plane] + Int(columns[plane])
        }
    }
}
