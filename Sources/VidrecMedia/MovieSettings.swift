/// How a movie file is encoded: what a quality preset resolves to.
public struct MovieSettings: Sendable, Equatable {
    /// The container: `mp4`, `mov`, `mkv` or `webm`.
    public var container: String
    /// The video stream's encoding.
    public var video: VideoEncoding
    /// The audio stream's encoding, or `nil` for a silent movie.
    public var audio: AudioEncoding?

    /// Creates settings.
    public init(container: String, video: VideoEncoding, audio: AudioEncoding?) {
        self.container = container
        self.video = video
        self.audio = audio
    }

    /// The file name extension for ``container``.
    public var fileExtension: String { container }
}

/// Video encoding parameters.
public struct VideoEncoding: Sendable, Equatable {
    /// FFmpeg encoder name, such as `libx264`.
    public var codec: String
    /// Output width in pixels (even).
    public var width: Int
    /// Output height in pixels (even).
    public var height: Int
    /// Output frames per second; the stream's time base is its reciprocal.
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
}

/// Audio encoding parameters.
public struct AudioEncoding: Sendable, Equatable {
    /// FFmpeg encoder name, such as `aac`.
    public var codec: String
    /// Samples per second.
    public var sampleRate: Int
    /// Channels (1 or 2).
    public var channels: Int
    /// Target bits per second.
    public var bitRate: Int

    /// Creates audio encoding parameters.
    public init(codec: String, sampleRate: Int, channels: Int, bitRate: Int) {
        self.codec = codec
        self.sampleRate = sampleRate
        self.channels = channels
        self.bitRate = bitRate
    }
}
