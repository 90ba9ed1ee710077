import VidrecMedia

/// A quality preset: a named set of movie settings loaded from a JSON file.
public struct Preset: Sendable, Equatable {
    /// The name users pass to `--quality` (the file name without `.json`).
    public var name: String
    /// The file it was read from.
    public var file: String
    /// The preset's own one-line description.
    public var summary: String
    /// What the preset resolves to.
    public var settings: MovieSettings

    /// Creates a preset.
    public init(name: String, file: String, summary: String, settings: MovieSettings) {
        self.name = name
        self.file = file
        self.summary = summary
        self.settings = settings
    }

    /// One line: `1920x1080 30 fps, libx264 veryfast CRF 23, aac 48000 Hz 2 ch 128 kb/s, mp4`
    /// (`sound only, aac 48000 Hz 1 ch 64 kb/s, m4a` without video).
    public var resolvedDescription: String {
        let v = settings.video
        var video = "\(v.width)x\(v.height) \(v.frameRate) fps, "
        if let copied = v.copied {
            video += "\(copied.format == .h264 ? "H.264" : "Motion JPEG") copied from the camera"
        } else {
            video += v.codec
            if let speed = v.speed { video += " \(speed)" }
            if let crf = v.crf { video += " CRF \(crf)" }
            if let bitRate = v.bitRate { video += (v.crf == nil ? " " : " max ") + ByteCount.bitRate(bitRate) }
            video += " \(v.pixelFormat) key every \(v.keyframeInterval)"
            if v.handling != .auto { video += " (video \(v.handling.rawValue))" }
        }
        let audio = settings.audio.map {
            "\($0.codec) \($0.sampleRate) Hz \($0.channels) ch \(ByteCount.bitRate($0.bitRate))"
        } ?? "no audio"
        if settings.isAudioOnly { return "sound only, \(audio), \(settings.container.rawValue)" }
        return "\(video), \(audio), \(settings.container.rawValue)"
    }
}
