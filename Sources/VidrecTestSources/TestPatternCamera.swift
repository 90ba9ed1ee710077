import VidrecMedia
import VidrecSystem

/// The built-in test camera (`--camera test`): moving colour bars with the frame
/// number drawn in digits (top left) and as a 16-bit binary strip (bottom rows,
/// most significant bit first, white = 1), so every frame can be identified.
///
/// It delivers YUYV, the commonest raw webcam format, paced in real time on
/// CLOCK_MONOTONIC from a named thread, exactly like a V4L2 camera; the frames then
/// take the same path through the session and the movie output as a real camera's.
///
/// Its compressed variants (`--camera test:mjpeg`, `--camera test:h264`) send what USB
/// webcams send at HD sizes: the same pictures as Motion JPEG (4:2:2, as UVC cameras
/// send it) or as H.264 access units (a keyframe a second, no B-frames). They are
/// compressed once, when the camera is made, and sent in a loop of
/// ``compressedLoopSeconds``, so that sending costs what a camera costs (nothing):
/// their frame numbers count up to the loop's length and start again.
public final class TestPatternCamera: CompressedVideoSource {
    public let displayName: String
    /// The size of a still photo at the test camera's "largest size" (`vidrec snap`).
    public static let largestSize = (width: 1920, height: 1080)
    /// How long the compressed variants' loop lasts, in seconds.
    public static let compressedLoopSeconds = 2
    public let videoFormat: VideoFormat

    private let worker = CaptureWorker()
    /// The compressed variants' frames, sent in turn.
    private let loop: [FrameBuffer]
    /// Whether each of the loop's frames is a keyframe.
    private let keyframes: [Bool]
    private let header: [UInt8]

    /// Creates a test camera of the given size (even width) and rate, sending YUYV.
    public init(width: Int, height: Int, frameRate: Rational) {
        precondition(width >= 32 && width % 2 == 0 && height >= 32, "test pattern needs an even size of at least 32x32")
        videoFormat = VideoFormat(pixelFormat: .yuyv, width: width, height: height, frameRate: frameRate)
        displayName = "test pattern"
        loop = []
        keyframes = []
        header = []
    }

    /// Creates a test camera that sends compressed frames: `format` is ``PixelFormat/mjpeg``
    /// or ``PixelFormat/h264``, made by `compressor` now.
    ///
    /// - Throws: the compressor's error.
    public init(width: Int, height: Int, frameRate: Rational, compressedAs format: PixelFormat,
                compressor: any FrameCompressing) throws {
        precondition(width >= 32 && width % 2 == 0 && height >= 32, "test pattern needs an even size of at least 32x32")
        precondition(format == .mjpeg || format == .h264, "the test camera compresses to MJPEG or H.264")
        videoFormat = VideoFormat(pixelFormat: format, width: width, height: height, frameRate: frameRate)
        displayName = "test pattern (\(format == .h264 ? "H.264" : "MJPEG"))"
        let painter = TestPatternPainter(width: width, height: height)
        let keyframeInterval = max(1, Int(frameRate.doubleValue.rounded()))
        let count = keyframeInterval * TestPatternCamera.compressedLoopSeconds
        let frames = try compressor.compress(count, pictures: { number in
            let buffer = painter.paint(frameNumber: UInt64(number))
            return VideoFrame(pixelFormat: .yuyv, width: width, height: height, buffer: buffer, byteCount: buffer.count,
                              strides: [width * 2], captureTime: 0, sequence: UInt64(number))
        }, as: format, frameRate: frameRate, keyframeInterval: keyframeInterval)
        loop = frames.map { bytes in bytes.withUnsafeBytes { FrameBuffer(copying: $0.baseAddress!, count: max(1, $0.count)) } }
        header = format == .h264 ? H264AccessUnit(frames[0]).parameterSets : []
        keyframes = frames.map { format != .h264 || H264AccessUnit($0).isKeyframe }
    }

    /// The test camera asked for by `--camera`: `test` (YUYV), `test:mjpeg` or
    /// `test:h264`; `nil` for any other name.
    public static func format(named name: String) -> PixelFormat? {
        switch name {
        case "test": .yuyv
        case "test:mjpeg": .mjpeg
        case "test:h264": .h264
        default: nil
        }
    }

    public func streamHeader(timeout: Double) throws -> [UInt8] { header }

    /// The loop starts with a keyframe and has one a second: nothing to ask for.
    public func requestKeyframe() {}

    public func start(into queue: CaptureQueue) throws {
        let format = videoFormat
        let painter = loop.isEmpty ? TestPatternPainter(width: format.width, height: format.height) : nil
        let loop = self.loop, keyframes = self.keyframes
        worker.startPaced(name: "vidrec.camera", frameRate: format.frameRate) { sequence, due in
            let frame: VideoFrame
            if let painter {
                let buffer = painter.paint(frameNumber: sequence)
                frame = VideoFrame(pixelFormat: .yuyv, width: format.width, height: format.height, buffer: buffer,
                                   byteCount: buffer.count, strides: [format.width * 2], captureTime: due, sequence: sequence)
            } else {
                let buffer = loop[Int(sequence % UInt64(loop.count))]
                frame = VideoFrame(pixelFormat: format.pixelFormat, width: format.width, height: format.height,
                                   buffer: buffer, byteCount: buffer.count, strides: [0], captureTime: due, sequence: sequence,
                                   isKeyframe: keyframes[Int(sequence % UInt64(loop.count))])
            }
            queue.push(.video(frame))
        }
    }

    public func stop() {
        worker.stop()
    }
}
