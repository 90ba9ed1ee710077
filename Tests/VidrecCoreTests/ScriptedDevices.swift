import Foundation
import Glibc
import Synchronization
import VidrecCore
import VidrecMedia
import VidrecSystem

/// The recorder's devices in a test: a scripted camera (with a device path, or none like
/// the test camera), scripted audio, and a movie output that writes what it is given to
/// a real file, one line per frame, so the store's rename and the album see a file.
final class ScriptedDevices: RecordingDevices, MovieOutputFactory, Sendable {
    let cameraPath: String?
    let frames: Int64
    let ending: (any Error)??
    let failOutput: Bool
    /// The microphone the camera's first frame sets off (the session starts the
    /// microphone before the camera), if the recording has one.
    let microphone: ScriptedMicrophone?
    let cameraStartError: (any Error)?
    /// When the camera's first frame is captured (its frames follow at its frame rate).
    let cameraStart: Int64
    /// The camera delivers its frames at their frame rate, as a real one does (the
    /// default: no output's queue can then overflow, so nothing may be dropped);
    /// otherwise as fast as the session takes them.
    let realTime: Bool
    /// `--camera none`: the camera is a `NoCamera` (ticks on the real clock, a sound
    /// recording), and the microphone delivers from when it is started.
    let soundOnly: Bool

    init(cameraPath: String? = nil, frames: Int64 = 120, ending: (any Error)?? = nil, failOutput: Bool = false,
         microphone: Bool = true, cameraStartError: (any Error)? = nil, realTime: Bool = true,
         cameraStart: Int64 = ScriptedDevices.start, soundOnly: Bool = false) {
        self.soundOnly = soundOnly
        self.cameraStart = cameraStart
        self.realTime = realTime
        self.cameraStartError = cameraStartError
        self.cameraPath = cameraPath
        self.frames = frames
        self.ending = ending
        self.failOutput = failOutput
        let seconds = Int(frames / 30) + 1
        self.microphone = !microphone ? nil
            : soundOnly ? ScriptedMicrophone(startingNow: seconds) : ScriptedMicrophone(start: Self.start, seconds: seconds)
    }

    static let start: Int64 = 7_000 * 1_000_000_000

    func findCamera() throws -> String? { cameraPath }

    func openCamera(adjusting video: inout VideoEncoding) throws -> OpenedCamera {
        if soundOnly { return NoCamera.open(adjusting: &video) }
        let camera = ScriptedCamera(frameRate: video.frameRate, start: cameraStart, indexes: Array(0..<frames), ending: ending,
                                    paced: true, realTime: realTime, startError: cameraStartError)
        if let microphone { camera.follow(microphone) }
        return OpenedCamera(source: camera, path: cameraPath, mode: cameraPath.map { _ in "2x2 YUYV 30 fps" })
    }

    func openMicrophone(for audio: AudioEncoding?) throws -> (any AudioCaptureSource)? {
        audio != nil ? microphone : nil
    }

    func makeDriftCorrector(for format: AudioFormat) throws -> (any AudioStretching)? { nil }

    func makeMovieOutput(path: String, settings: MovieSettings, maxDuration: DurationLimit?,
                         byteBudget: Int64?, copying: (any CompressedVideoSource)?) throws -> any CaptureOutput {
        if failOutput { throw SystemError("open", path, errno: EACCES) }
        return try FileRecordingOutput(path: path)
    }

    func makeSegmentedMovieOutput(settings: MovieSettings, plan: SegmentPlan, sink: any SegmentSink,
                                  copying: (any CompressedVideoSource)?) throws -> any CaptureOutput {
        ScriptedSeriesOutput(cut: .plan(plan), sink: sink, frameRate: settings.video.frameRate)
    }

    func makeEventMovieOutput(settings: MovieSettings, pre: Double, post: Double, sink: any SegmentSink,
                              copying: (any CompressedVideoSource)?) throws
        -> (output: any CaptureOutput, trigger: @Sendable () -> Void) {
        let slots = { (seconds: Double) in Int64((seconds * settings.video.frameRate.doubleValue).rounded()) }
        let output = ScriptedSeriesOutput(cut: .events(pre: slots(pre), post: slots(post)), sink: sink, frameRate: settings.video.frameRate)
        return (output, { output.trigger() })
    }

    /// A preset for scripted recordings: 30 fps, mono 48 kHz audio, container `rec`.
    static func preset() -> Preset {
        Preset(name: "scripted", file: "/presets/scripted.json", summary: "scripted",
               settings: MovieSettings(
                container: .mkv,
                video: VideoEncoding(codec: "none", width: 2, height: 2, frameRate: Rational(30), pixelFormat: "yuyv422",
                                     speed: nil, crf: nil, bitRate: 8_000, keyframeInterval: 30),
                audio: AudioEncoding(codec: "none", sampleRate: 48000, channels: 1, bitRate: 8_000)))
    }
}

/// A movie output that writes one line per video frame and per audio chunk to a file.
final class FileRecordingOutput: CaptureOutput {
    let outputName: String
    private let handle: FileHandle
    private(set) var bytesWritten: Int64 = 0

    init(path: String) throws {
        outputName = "file \(path)"
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            throw SystemError("open", path, errno: EEXIST)
        }
        handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    }

    private func write(_ line: String) throws {
        let data = Data((line + "\n").utf8)
        try handle.write(contentsOf: data)
        bytesWritten += Int64(data.count)
    }

    /// `video SLOT N`: the frame's slot, and the scripted camera's number for it.
    func appendVideo(_ frame: VideoFrame, frameIndex: Int64) throws {
        try write("video \(frameIndex) \(frame.buffer.bytes.load(as: UInt8.self))")
    }
    func appendAudio(_ chunk: AudioChunk) throws { try write("audio \(chunk.frameCount)") }
    func finish() throws { try handle.close() }
}

/// The finalizer for the scripted container: nothing to rewrite, the store renames.
struct RenameOnly: MovieFinalizing {
    func indexes(_ container: Container) -> Bool { false }
    func finalize(_ path: String, trimToCommonEnd: Bool) throws -> Double { 0 }
}
