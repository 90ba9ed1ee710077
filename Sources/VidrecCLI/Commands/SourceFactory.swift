import VidrecCore
import VidrecMedia
import VidrecTestSources

/// Turns `--camera` and `--mic` into capture sources for a preset.
enum SourceFactory {
    static func camera(_ name: String, preset: Preset) throws -> any VideoCaptureSource {
        let video = preset.settings.video
        switch name {
        case "test":
            return TestPatternCamera(width: video.width, height: video.height, frameRate: video.frameRate)
        default:
            throw CLIError("camera '\(name)': this build records from the built-in test camera only (V4L2 cameras are not supported yet); use --camera test", .unavailable)
        }
    }

    static func microphone(_ name: String, preset: Preset) throws -> (any AudioCaptureSource)? {
        switch name {
        case "none":
            return nil
        case "test":
            guard let audio = preset.settings.audio else { return nil }
            return ToneMicrophone(sampleRate: audio.sampleRate, channels: audio.channels)
        default:
            throw CLIError("microphone '\(name)': this build records from the built-in test microphone only (ALSA is not supported yet); use --mic test or --mic none", .unavailable)
        }
    }
}
