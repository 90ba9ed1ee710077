import CFFmpeg
import VidrecMedia

/// `--trigger motion`: watches the camera's frames beside the movie, as another output
/// of the session, and calls `onMotion` for every frame that differs enough from the one
/// before. Each frame is scaled down to a 32x18 grey picture (libswscale, with area
/// averaging: camera noise and compression speckle average out) and compared with the
/// previous one: the mean absolute difference of their pixels, from 0 to 255, is the
/// frame's motion. A moving hand fills some of the picture and scores tens; a still
/// scene with sensor noise scores under one.
///
/// Its cost is the scaler reading each frame once (a fraction of what the encoder
/// spends on it) plus 576 subtractions; an MJPEG frame is decoded first, which costs
/// as much as the encoder's own decoding of it.
public final class MotionDetector: CaptureOutput {
    /// The picture frames are compared at.
    public static let width: Int32 = 32, height: Int32 = 18
    /// The default smallest motion that counts (`--trigger motion`).
    public static let defaultThreshold = 6.0

    public let outputName = "motion detector"
    public var bytesWritten: Int64 { 0 }

    private let threshold: Double
    private let onMotion: @Sendable (Double) -> Void
    private let scaler = Scaler()
    private var decoder: FrameDecoder?
    private var previous: [UInt8]?
    private var current = [UInt8](repeating: 0, count: Int(MotionDetector.width * MotionDetector.height))

    /// - Parameters:
    ///   - threshold: the smallest mean absolute difference, 0 to 255, that counts.
    ///   - onMotion: called with the frame's motion when it counts (on the output's thread).
    public init(threshold: Double, onMotion: @escaping @Sendable (Double) -> Void) {
        self.threshold = threshold
        self.onMotion = onMotion
    }

    public func appendVideo(_ frame: VideoFrame, frameIndex: Int64) throws {
        // A corrupt compressed frame is simply not looked at.
        guard let picture = try? CapturedPicture(frame, decoder: &decoder) else { return }
        let context = try scaler.context(from: Int32(frame.width), Int32(frame.height), picture.format,
                                         to: Self.width, Self.height, AV_PIX_FMT_GRAY8, subject: "motion")
        try current.withUnsafeMutableBufferPointer { pixels in
            var destination: [UnsafeMutablePointer<UInt8>?] = [pixels.baseAddress, nil, nil, nil]
            let strides: [Int32] = [Self.width, 0, 0, 0]
            try check(sws_scale(context, picture.planes, picture.strides, 0, Int32(frame.height), &destination, strides),
                      "sws_scale", "motion")
        }
        defer { previous = current }
        guard let previous else { return }
        var total = 0
        for index in current.indices { total += abs(Int(current[index]) - Int(previous[index])) }
        let motion = Double(total) / Double(current.count)
        if motion >= threshold { onMotion(motion) }
    }

    public func appendAudio(_ chunk: AudioChunk) throws {}

    public func finish() throws {}
}
