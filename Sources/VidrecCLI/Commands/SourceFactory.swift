import VidrecALSA
import VidrecCore
import VidrecMedia
import VidrecTestSources
import VidrecV4L2

/// Turns `--camera`, `--camera-format` and `--mic` into capture sources for a preset,
/// negotiating the camera mode. Never falls back to another device than the one asked for.
enum SourceFactory {
    /// The camera (`nil`: the test camera), and the preset adjusted to what it can do
    /// (frame rate).
    static func camera(_ description: CameraDescription?, format: PixelFormat?, fit: VideoFit, preset: inout Preset,
                       report: (String) -> Void) throws -> (source: any VideoCaptureSource, mode: String?) {
        var video = preset.settings.video
        guard let description else {
            return (TestPatternCamera(width: video.width, height: video.height, frameRate: video.frameRate), nil)
        }
        let choice = try CameraModeSelector().choose(from: description.modes, width: video.width, height: video.height,
                                                     frameRate: video.frameRate, format: format, fit: fit, camera: description.path)
        let camera = try V4L2Camera(description, mode: choice.mode)
        video.fit = choice.fit ?? fit
        // The driver may round the rate it was asked for.
        let output = min(camera.videoFormat.frameRate, video.frameRate)
        if output != video.frameRate {
            video.frameRate = output
            let oneSecond = Int((output.numerator + output.denominator - 1) / output.denominator)
            video.keyframeInterval = max(1, min(video.keyframeInterval, oneSecond))
        }
        preset.settings.video = video
        report(choice.summary)
        return (camera, choice.mode.description + (choice.fit.map { ", \($0.rawValue)" } ?? ""))
    }

    /// The microphone (`nil` for none, or when the preset has no audio).
    static func microphone(_ selector: String, preset: Preset) throws -> (any AudioCaptureSource)? {
        guard selector != "none", let audio = preset.settings.audio else { return nil }
        if selector == "test" {
            return ToneMicrophone(sampleRate: audio.sampleRate, channels: audio.channels)
        }
        let name = try MicrophoneDiscovery().resolve(selector)
        return try ALSAMicrophone(name: name, sampleRate: audio.sampleRate, channels: audio.channels)
    }
}
