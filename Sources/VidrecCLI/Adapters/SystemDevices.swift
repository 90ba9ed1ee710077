import Synchronization
import VidrecALSA
import VidrecCore
import VidrecFFmpeg
import VidrecLibcamera
import VidrecMedia
import VidrecTestSources
import VidrecV4L2

/// The recorder's devices on this machine: `--camera`, `--camera-format`, `--fit` and
/// `--mic` turned into V4L2 and ALSA sources (or the built-in test sources, or no camera
/// for a sound recording). Never falls back to another device than the one asked for.
final class SystemDevices: RecordingDevices, Sendable {
    let camera: String
    let cameraFormat: PixelFormat?
    let fit: VideoFit
    private let microphone: String
    let controls: CameraControlRequest
    let keepControls: Bool
    private let report: @Sendable (String) -> Void
    /// The lines told so far: a camera opened again (``CameraReconnection``) in the same
    /// mode says nothing new, and a wrong one tried every half second says it once.
    private let told = Mutex<Set<String>>([])
    /// vidrec's runtime folder, where a `vidrec serve` preview that holds a camera says
    /// so (``PreviewClaim``); `nil`: a busy camera is not asked for.
    private let previewClaims: String?
    private let found = Mutex<CameraDescription?>(nil)
    /// The libcamera camera ``findCamera()`` found, opened by ``openCamera(adjusting:)``
    /// without asking libcamera for its cameras again.
    private let foundLibcamera = Mutex<LibcameraDiscovery.Camera?>(nil)

    /// `--camera none`: no camera, a sound recording (``NoCamera``).
    static let noCamera = "none"

    /// - Parameters:
    ///   - camera: `--camera` (`test` for the test pattern, `none` for sound only).
    ///   - controls: `--set` and the control shortcuts; `keepControls`: `--keep-controls`.
    ///   - previewClaims: vidrec's runtime folder: a camera that is busy in a `vidrec
    ///     serve` preview is asked for there (``PreviewClaim``).
    ///   - report: where the camera mode chosen is told.
    init(camera: String, cameraFormat: PixelFormat?, fit: VideoFit, microphone: String,
         controls: CameraControlRequest = CameraControlRequest(), keepControls: Bool = false,
         previewClaims: String? = nil, report: @escaping @Sendable (String) -> Void) {
        self.previewClaims = previewClaims
        self.controls = controls
        self.keepControls = keepControls
        self.camera = camera
        self.cameraFormat = cameraFormat
        self.fit = fit
        self.microphone = microphone
        self.report = report
    }

    /// Tells `line` through `report`, unless it was told before.
    func tell(_ line: String) {
        if told.withLock({ $0.insert(line).inserted }) { report(line) }
    }

    func findCamera() throws -> String? {
        guard TestPatternCamera.format(named: camera) == nil, camera != SystemDevices.noCamera else { return nil }
        if let libcamera = try libcameraCamera() { return keep(libcamera) }
        let description: CameraDescription
        do {
            description = try CameraDiscovery(listing: .readable).resolve(camera)
        } catch {
            return keep(try libcameraFallback(after: error))
        }
        if let owner = libcameraOwner(of: description) { return keep(owner) }
        // A --camera-format the camera does not offer is refused now, before the
        // microphone is opened, so that the error names the format, not the microphone.
        if let cameraFormat {
            _ = try CameraModeSelector().largest(from: description.modes, format: cameraFormat, camera: description.path,
                                                 offered: description.formats)
        }
        found.withLock { $0 = description }
        return description.path
    }

    /// Keeps `camera` for ``openCamera(adjusting:)`` and returns its name.
    private func keep(_ camera: LibcameraDiscovery.Camera) -> String {
        foundLibcamera.withLock { $0 = camera }
        return camera.selector
    }

    func openCamera(adjusting video: inout VideoEncoding) throws -> OpenedCamera {
        if camera == SystemDevices.noCamera {
            // A sound recording (what acts on a picture was refused with the options).
            return NoCamera.open(adjusting: &video)
        }
        if let format = TestPatternCamera.format(named: camera) { return try openTestCamera(sending: format, adjusting: &video) }
        if let libcamera = try foundLibcamera.withLock({ found in defer { found = nil }; return found }) ?? libcameraCamera() {
            return try openLibcamera(libcamera, adjusting: &video)
        }
        // The camera found is opened once; opened again (it went away and may be back
        // under another node), it is looked up again by its name.
        let description: CameraDescription
        do {
            description = try found.withLock { found in defer { found = nil }; return found }
                ?? CameraDiscovery(listing: .readable).resolve(camera)
        } catch {
            return try openLibcamera(libcameraFallback(after: error), adjusting: &video)
        }
        if let owner = libcameraOwner(of: description) { return try openLibcamera(owner, adjusting: &video) }
        let choice = try CameraModeSelector().choose(from: description.modes, width: video.width, height: video.height,
                                                     frameRate: video.frameRate, format: cameraFormat, fit: fit,
                                                     camera: description.path, offered: description.formats,
                                                     handling: video.handling, copyable: video.copyableFormat)
        let source = try open(description, mode: choice.mode)
        video.sourceFormat = source.videoFormat.pixelFormat
        if choice.copied, let format = choice.mode.pixelFormat {
            video.width = source.videoFormat.width
            video.height = source.videoFormat.height
            video.frameRate = source.videoFormat.frameRate
            video.copied = CopiedStream(format: format, header: [])
            tell(choice.summary)
            if format == .h264, let interval = source.setKeyframeInterval(video.keyframeInterval) {
                tell("camera keyframe interval: \(interval)")
            }
            return OpenedCamera(source: source, path: description.path, mode: choice.mode.description + ", copied", copiedStream: source)
        }
        Self.fit(&video, to: source, choice: choice, fit: fit)
        tell(choice.summary)
        return OpenedCamera(source: source, path: description.path,
                            mode: choice.mode.description + (choice.fit.map { ", \($0.rawValue)" } ?? ""))
    }

    /// The encoding of `source`'s pictures as `choice` says: its fit, and the output rate
    /// no faster than the camera's (a driver may round the rate it was asked for).
    static func fit(_ video: inout VideoEncoding, to source: any VideoCaptureSource, choice: CameraModeSelector.Choice,
                    fit: VideoFit) {
        video.sourceFormat = source.videoFormat.pixelFormat
        video.fit = choice.fit ?? fit
        let output = min(source.videoFormat.frameRate, video.frameRate)
        if output != video.frameRate {
            video.frameRate = output
            video.keyframeInterval = min(video.keyframeInterval, VideoEncoding.maximumKeyframeInterval(at: output))
        }
    }

    /// Opens the built-in test camera (`--camera test`, `test:h264`, `test:mjpeg`): the
    /// preset's size and rate, its pictures as `format`, copied or not as for any camera.
    private func openTestCamera(sending format: PixelFormat, adjusting video: inout VideoEncoding) throws -> OpenedCamera {
        if !controls.isEmpty {
            throw CLIError("the test camera has no controls (asked: \(controls.entries.map(\.name).joined(separator: ", "))); --set and the control shortcuts need a real camera", .dataError)
        }
        guard format.isCompressed else {
            if video.handling == .copy {
                throw CLIError("the test camera sends YUYV, which cannot be stored as it is; --video copy needs --camera test:h264 or --camera test:mjpeg", .usage)
            }
            return OpenedCamera(source: TestPatternCamera(width: video.width, height: video.height, frameRate: video.frameRate),
                                path: nil, mode: nil)
        }
        // The test camera has one mode, the preset's; copied or not as for any camera.
        let mode = CameraMode(fourcc: format.rawValue, width: video.width, height: video.height, frameRate: video.frameRate)
        let choice = try CameraModeSelector().choose(from: [mode], width: video.width, height: video.height,
                                                     frameRate: video.frameRate, format: nil, camera: "test",
                                                     handling: video.handling, copyable: video.copyableFormat)
        let source = try TestPatternCamera(width: video.width, height: video.height, frameRate: video.frameRate,
                                           compressedAs: format, compressor: TestStreamCompressor())
        video.sourceFormat = format
        if choice.copied { video.copied = CopiedStream(format: format, header: []) }
        tell(choice.summary + " (the test camera)")
        return OpenedCamera(source: source, path: nil, mode: mode.description + (choice.copied ? ", copied" : ""),
                            copiedStream: choice.copied ? source : nil)
    }

    /// Opens the camera for a still photo (`vidrec snap`): at its largest picture, or at
    /// the mode ``CameraModeSelector`` picks for `size`; the test camera at 1920x1080 or
    /// at `size`.
    ///
    /// - Returns: the source, and the mode for messages (`nil` for the test camera).
    func openStillCamera(size: (width: Int, height: Int)?) throws -> (source: any VideoCaptureSource, mode: String?) {
        if let format = TestPatternCamera.format(named: camera) {
            if !controls.isEmpty {
                throw CLIError("the test camera has no controls (asked: \(controls.entries.map(\.name).joined(separator: ", "))); --set and the control shortcuts need a real camera", .dataError)
            }
            let (width, height) = size ?? TestPatternCamera.largestSize
            guard format.isCompressed else { return (TestPatternCamera(width: width, height: height, frameRate: Rational(30)), nil) }
            return (try TestPatternCamera(width: width, height: height, frameRate: Rational(30), compressedAs: format,
                                          compressor: TestStreamCompressor()), nil)
        }
        let description = try found.withLock { $0 } ?? CameraDiscovery(listing: .readable).resolve(camera)
        let selector = CameraModeSelector()
        let mode = try size.map {
            try selector.choose(from: description.modes, width: $0.width, height: $0.height, frameRate: Rational(1),
                                format: cameraFormat, fit: fit, camera: description.path, offered: description.formats).mode
        } ?? selector.largest(from: description.modes, format: cameraFormat, camera: description.path,
                              offered: description.formats)
        return (try open(description, mode: mode), mode.description)
    }

    /// Opens `description` in `mode` and sets the controls asked for, checked against
    /// the camera's own before it streams: a wrong name or value costs nothing.
    private func open(_ description: CameraDescription, mode: CameraMode) throws -> V4L2Camera {
        let settings = try controls.resolve(against: description.controls, camera: "\(description.path) (\(description.name))")
        let source: V4L2Camera
        do {
            source = try V4L2Camera(description, mode: mode)
        } catch DeviceError.busy(let path) where previewClaims != nil {
            // A page watching `vidrec serve`'s preview holds it: asked, the server lends it.
            let lenders = PreviewClaim.askToLend(path, in: previewClaims!)
            guard !lenders.isEmpty else { throw DeviceError.busy(path: path) }
            tell("camera lent by the preview of vidrec serve (pid \(lenders.map(String.init).joined(separator: ", ")))")
            source = try V4L2Camera(description, mode: mode)
        }
        if !settings.isEmpty {
            let done = try source.setControls(settings, restoreAtEnd: !keepControls)
            tell("camera controls: \(done.joined(separator: ", "))" + (keepControls ? "; kept afterwards (--keep-controls)" : "; set back at the end"))
        }
        return source
    }

    func openMicrophone(for audio: AudioEncoding?) throws -> (any AudioCaptureSource)? {
        guard microphone != "none", let audio else { return nil }
        if microphone == "test" {
            return ToneMicrophone(sampleRate: audio.sampleRate, channels: audio.channels)
        }
        let name = try MicrophoneDiscovery().resolve(microphone)
        return try ALSAMicrophone(name: name, sampleRate: audio.sampleRate, channels: audio.channels)
    }
}
