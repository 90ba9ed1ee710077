import Foundation
import Glibc
import VidrecCore
import VidrecFFmpeg
import VidrecMedia
import VidrecMP4
import VidrecSystem
import VidrecTestSources
import VidrecV4L2

/// `vidrec snap`: one still photo (JPEG) from the camera, pending like a recording until
/// it is saved to the photo album; taken from the running recording when the camera is
/// busy recording.
struct SnapCommand: VidrecCommand {
    /// The arguments, each declared once and read back through its key.
    enum Key {
        static let size = ArgumentKey.option("size", value: "max|WxH", help: "The photo's size: the camera's largest picture, or the camera mode closest to WxH, scaled to W pixels wide keeping its aspect ratio. (default: max)")
        static let save = ArgumentKey.flag("save", help: "Save the photo to the photo album and print its path.")
        static let saveAs = ArgumentKey.option("as", value: "name", help: "The file name to save under. (default: vidrec-<id>)")
        static let album = ArgumentKey.option("album", value: "dir", help: "The photo album folder (with --save). (default: $VIDREC_PHOTOS or ~/Pictures/vidrec)")
    }

    static let spec = CommandSpec(
        name: "snap",
        abstract: "Take a still photo (JPEG) from the camera.",
        discussion: """
        At the camera's largest size unless --size says otherwise, once its automatic \
        exposure has settled (a few frames). While a recording runs on the camera, the \
        photo is taken from that recording instead, at its camera mode, and the recording \
        loses no frame. The photo is pending, like a recording, until 'vidrec save' or \
        --save; photos are saved to the photo album ($VIDREC_PHOTOS, else \
        $XDG_PICTURES_DIR/vidrec or ~/Pictures/vidrec).
        """,
        arguments: StartOptions.cameraArguments + [
            Key.size.spec,
            Key.save.spec,
            Key.saveAs.spec,
            Key.album.spec,
        ] + UploadOptions.arguments + StartOptions.controlArguments)

    /// How long to wait for a running recording to hand over its photo, in seconds.
    static let recordingTimeout = 20.0

    var camera: String
    var cameraFormat: PixelFormat?
    var size: (width: Int, height: Int)?
    var save: Bool
    var name: String?
    var albumPath: String?
    var upload: UploadOptions?
    var controls: CameraControlRequest
    var keepControls: Bool

    init(_ arguments: ParsedArguments) throws(ParserError) {
        camera = arguments[StartOptions.Key.camera] ?? "default"
        cameraFormat = try StartOptions.cameraFormat(arguments, camera: camera)
        if let text = arguments[Key.size], text != "max" {
            let parts = text.lowercased().split(separator: "x")
            guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
                  (32...16384).contains(width), (32...16384).contains(height), width % 2 == 0, height % 2 == 0
            else {
                throw .invalidValue(text, for: "--size <max|WxH>", reason: "give max, or an even width and height from 32 to 16384 such as 1920x1080")
            }
            size = (width, height)
        }
        save = arguments[Key.save]
        name = try AlbumFileName.validated(arguments[Key.saveAs])
        albumPath = arguments[Key.album]
        if albumPath != nil, !save { throw .conflicting("--album <dir>", "a photo that is not saved; add --save") }
        upload = try UploadOptions.parse(arguments)
        if upload != nil, !save { throw .conflicting("--upload <remote:path>", "a photo that is not saved; add --save") }
        (controls, keepControls) = try StartOptions.controls(arguments)
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        let rclone = try upload?.check(environment: context.paths.environment, album: context.photoAlbum(albumPath).path)
        let store = try context.store()
        let devices = SystemDevices(camera: camera, cameraFormat: cameraFormat, fit: .crop, microphone: "none",
                                    controls: controls, keepControls: keepControls,
                                    previewClaims: context.paths.runtimeDirectory) { context.err("vidrec: \($0)\n") }
        let cameraPath: String?
        do {
            cameraPath = try devices.findCamera()
        } catch let error as DeviceError {
            // Said plainly where a sound recording runs: it has no picture to give.
            if let sound = store.running().first(where: { !$0.isPhoto && $0.sidecar.camera == NoCamera.name }) {
                throw CLIError("\(error.description.prefix { $0 != ";" }); recording \(sound.id) records sound only (--camera none), so it has no picture to take a photo from; name a camera with --camera", error.exitCode)
            }
            throw error
        }
        let recording = store.running().first { !$0.isPhoto && $0.sidecar.cameraPath == cameraPath }
        if let recording, !controls.isEmpty || cameraFormat != nil {
            throw CLIError("the camera is recording (\(recording.id), pid \(recording.sidecar.pid)), and its settings belong to that recording; take the photo without --set, the control shortcuts and --camera-format, or stop the recording first", .temporaryFailure)
        }
        let saver = AlbumSaver(store: store, manifest: context.manifest, finalizer: MovieFinalizer(), posterFrames: PosterFrame(),
                               warn: { [err = context.err] in err("vidrec: \($0)\n") })
        let photos = PhotoSaver(store: store, saver: saver)
        let entry = try photos.keep(at: Date(), camera: recording?.sidecar.camera ?? camera, cameraPath: cameraPath, name: name,
                                    pid: getpid()) { path, sidecar in
            if let recording {
                try Self.ask(recording, for: path, width: size?.width, into: &sidecar)
            } else {
                try Self.take(from: devices, size: size, to: path, into: &sidecar)
            }
        }
        let sidecar = entry.sidecar

        let from = sidecar.endReason?.hasPrefix("taken from") == true ? ", \(sidecar.endReason!)" : ""
        context.err("vidrec: photo \(entry.id): \(sidecar.photoSize ?? "?") from \(sidecar.camera)\(from)\n")
        guard save else {
            context.err("vidrec: photo \(entry.id) is pending; keep it with 'vidrec save'\n")
            return .success
        }
        let album = context.photoAlbum(albumPath)
        let (saved, _) = try photos.save(entry, to: SaveRequest(album: album))
        context.out(saved + "\n")
        guard let upload, let rclone else { return .success }
        return try UploadRunner.uploadNow(saved, album: album.path, options: upload, rclone: rclone, context: context)
    }

    /// Asks `recording`, which has the camera, for a photo written to `path`, and says so
    /// in its sidecar.
    private static func ask(_ recording: RecordingStore.Entry, for path: String, width: Int?, into sidecar: inout RecordingSidecar) throws {
        let reply: ControlReply
        do {
            reply = try ControlClient.send(ControlRequest(.snap, path: path, width: width),
                                           to: recording.controlPath, timeout: SnapCommand.recordingTimeout)
        } catch {
            throw CLIError("the camera is recording (\(recording.id), pid \(recording.sidecar.pid)), and that recording did not answer for a photo (\(error)); try again, or stop the recording first", .temporaryFailure)
        }
        if let error = reply.error {
            throw CLIError("the camera is recording (\(recording.id)), and that recording could not take a photo: \(error)",
                           reply.exitCode.flatMap(ExitCode.init(rawValue:)) ?? .temporaryFailure)
        }
        sidecar.camera = reply.camera ?? sidecar.camera
        sidecar.photoSize = "\(reply.width ?? 0)x\(reply.height ?? 0)"
        sidecar.endReason = "taken from recording \(recording.id)"
    }

    /// Opens the camera `devices` finds for a still photo, takes one and writes it to
    /// `path`, and says so in its sidecar.
    private static func take(from devices: SystemDevices, size: (width: Int, height: Int)?, to path: String,
                             into sidecar: inout RecordingSidecar) throws {
        let (source, mode) = try devices.openStillCamera(size: size)
        sidecar.camera = source.displayName
        sidecar.cameraMode = mode
        let encoder = PhotoEncoder()
        let frame = try StillCapture.frame(from: source, observe: encoder.observe)
        let photo = try encoder.jpeg(of: frame, width: size?.width)
        try AtomicFile.write(Data(photo.bytes), to: path, durable: true)
        sidecar.photoSize = "\(photo.width)x\(photo.height)"
        sidecar.endReason = "taken"
    }
}
