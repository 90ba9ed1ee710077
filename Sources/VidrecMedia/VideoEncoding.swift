/// Video encoding parameters.
public struct VideoEncoding: Sendable, Equatable {
    /// FFmpeg encoder name, such as `libx264`.
    public var codec: String
    /// Output width in pixels (even).
    public var width: Int
    /// Output height in pixels (even).
    public var height: Int
    /// Output frames per second; the stream's time base is its reciprocal. Without a
    /// video stream (``isRecorded`` false), the grid the recording's time is counted on.
    public var frameRate: Rational
    /// Output pixel format name, such as `yuv420p`.
    public var pixelFormat: String
    /// Encoder speed preset (x264/x265 `preset`, VP9 `deadline`/`cpu-used`), or `nil`.
    public var speed: String?
    /// Constant quality, or `nil` to use ``bitRate``.
    public var crf: Int?
    /// Target bits per second, or `nil` to use ``crf``. With both, the bit rate caps CRF.
    public var bitRate: Int?
    /// Frames between keyframes; at most one second's worth, so fragments stay short.
    public var keyframeInterval: Int
    /// How camera pictures of another aspect ratio are fitted into the movie's size.
    public var fit: VideoFit = .crop
    /// How far a player turns the picture clockwise (`--rotate`): 0, 90, 180 or 270
    /// degrees, written into the movie's display matrix; the pictures are stored as
    /// the camera took them.
    public var rotation = 0
    /// Whether each picture is flipped left to right before encoding (`--mirror`).
    public var isMirrored = false
    /// A line of text burned into each picture (`--overlay`), or `nil`.
    public var overlay: TextOverlay?
    /// The processors the encoder sizes its threads for, or `nil` for those this process
    /// may run on. x264 starts one and a half frame threads a processor, and each holds a
    /// frame back; vidrec caps them so that what a crash loses stays bounded on a
    /// machine with many cores.
    public var processors: Int?
    /// Whether the camera's compressed stream may be stored as it is (`--video`).
    public var handling: VideoHandling = .auto
    /// The camera's stream stored as it is, once the camera is chosen; `nil`: the
    /// pictures are encoded with ``codec``.
    public var copied: CopiedStream?
    /// What the camera sends, once it is chosen; `nil` before. A Motion JPEG camera's
    /// pictures are full range (0–255): a `yuv420p` movie made from them keeps that range
    /// (flagged in the stream), so that no pass over every pixel converts it.
    public var sourceFormat: PixelFormat?
    /// Whether the movie has a video stream. `false`: a sound recording, whose "camera"
    /// only keeps time (its frames mark the grid of ``frameRate``, and nothing of them is
    /// stored); the file is a sound file (``Container/soundFile(for:)``).
    public var isRecorded = true

    /// Creates video encoding parameters.
    public init(codec: String, width: Int, height: Int, frameRate: Rational, pixelFormat: String,
                speed: String?, crf: Int?, bitRate: Int?, keyframeInterval: Int) {
        self.codec = codec
        self.width = width
        self.height = height
        self.frameRate = frameRate
        self.pixelFormat = pixelFormat
        self.speed = speed
        self.crf = crf
        self.bitRate = bitRate
        self.keyframeInterval = keyframeInterval
    }

    /// The longest keyframe interval vidrec allows at `frameRate`: one second of frames,
    /// rounded up, so that a crash (whose file is cut at a keyframe) loses at most one
    /// second.
    public static func maximumKeyframeInterval(at frameRate: Rational) -> Int {
        max(1, Int((frameRate.numerator + frameRate.denominator - 1) / frameRate.denominator))
    }
}

extension VideoEncoding {
    /// The camera format whose frames are already what ``codec`` makes, so that they can
    /// be stored as they are: H.264 for an H.264 encoder (`libx264`, `libopenh264`,
    /// `h264_vaapi`, …), Motion JPEG for `mjpeg`; `nil` for other codecs.
    public var copyableFormat: PixelFormat? {
        let name = codec.lowercased()
        if name == "libx264" || name == "libx264rgb" || name == "libopenh264" || name.hasPrefix("h264") { return .h264 }
        if name == "mjpeg" || name.hasPrefix("mjpeg_") { return .mjpeg }
        return nil
    }
}
