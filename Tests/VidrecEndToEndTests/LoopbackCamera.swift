import Foundation
import Glibc
import Testing

/// A camera that sends what real webcams send and vivid does not: MJPEG or H.264, or
/// only 8-bit raw Bayer (RGGB), as a sensor's receiver node does. It is
/// v4l2loopback (built by `vm/run` for the VM's kernel) at `/dev/video40`, fed by
/// ffmpeg's V4L2 output at 640x360, 15 fps, in real time (`-re`), from a loop of
/// 300 numbered pictures: the left half red, the right half blue, and the frame's
/// number in the bottom strip that ``Probe/frameNumbers(_:width:height:everyPacket:)``
/// reads. v4l2loopback stamps each buffer when ffmpeg writes it, so the frames come as
/// unevenly as the feeder writes them. In the VM only.
final class LoopbackCamera {
    enum Kind: String {
        case mjpeg, h264
        /// 8-bit RGGB Bayer, the only Bayer depth v4l2loopback 0.12.7 offers.
        case bayer
    }

    static let device = "/dev/video40"
    static let width = 640, height = 360, rate = 15
    /// Pictures in the feed's loop: frame numbers count modulo this.
    static let loop = 300
    static let red = [240, 16, 16], blue = [16, 16, 240]

    private let feeder = Process()
    private var signaller: ChildSignal?

    init(_ kind: Kind) throws {
        try Self.modprobe(["v4l2loopback", "devices=1", "video_nr=40", "max_buffers=8", "exclusive_caps=1",
                           "card_label=vidrec \(kind.rawValue) loopback"])
        feeder.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        switch kind {
        case .mjpeg:
            feeder.arguments = ["-v", "error", "-re", "-stream_loop", "-1", "-i", try Self.feed(kind), "-c", "copy"]
        case .bayer:
            feeder.arguments = ["-v", "error", "-re", "-stream_loop", "-1", "-f", "rawvideo", "-pix_fmt", "bayer_rggb8",
                                "-video_size", "\(Self.width)x\(Self.height)", "-framerate", "\(Self.rate)", "-i", try Self.feed(kind), "-c", "copy"]
        case .h264:
            // MPEG-TS holds Annex B, as the V4L2 output wants it, and loops (a raw .h264
            // file cannot be looped; a bitstream filter from Matroska takes the end of the
            // first loop for the stream's end and refuses every later packet).
            feeder.arguments = ["-v", "error", "-re", "-stream_loop", "-1", "-i", try Self.feed(kind), "-c", "copy"]
        }
        feeder.arguments! += ["-f", "v4l2", Self.device]
        feeder.standardInput = FileHandle.nullDevice
        feeder.standardOutput = FileHandle.nullDevice
        try feeder.run()
        signaller = ChildSignal(feeder)
        // With exclusive_caps, the node offers capture once the feeder has set its format.
        let ready = Poll.until(timeout: 120) { () -> Bool? in
            guard feeder.isRunning, let info = try? Self.output("/usr/bin/v4l2-ctl", ["-d", Self.device, "--info"]) else { return nil }
            let deviceCaps = info.components(separatedBy: "Device Caps").last ?? ""
            return deviceCaps.contains("Video Capture") ? true : nil
        }
        try #require(ready == true, "the loopback camera never offered capture (feeder running: \(feeder.isRunning))")
        // A real camera reports its frame rate; the loopback reports what it is told.
        _ = try Self.output("/usr/bin/v4l2-ctl", ["-d", Self.device, "--set-parm=\(Self.rate)"])
    }

    deinit {
        signaller?.send(SIGKILL)
        feeder.waitUntilExit()
        // The node may stay open for a moment after a reader exits.
        _ = Poll.until(timeout: 30) { (try? Self.modprobe(["-r", "v4l2loopback"])) }
    }

    /// How many frame numbers are missing from `numbers` (counted modulo the loop);
    /// `nil` when they do not strictly increase.
    static func missingFrames(_ numbers: [Int]) -> Int? {
        var missing = 0
        for (a, b) in zip(numbers, numbers.dropFirst()) {
            let step = (b - a + loop) % loop
            guard step >= 1, step < loop / 2 else { return nil }
            missing += step - 1
        }
        return missing
    }

    /// A 16x16 picture scaled up without smoothing: rows 0-14 red | blue, row 15 the
    /// frame number's 16 bits, most significant first, white for 1. (X counts the
    /// samples of the plane being made: X/SW is the column in luma samples.)
    static let picture = "color=c=black:s=16x16:r=\(rate),"
        + #"geq=lum='if(eq(Y\,15)\,255*mod(floor(N/pow(2\,15-X))\,2)\,if(lt(X\,8)\,81\,41))'"#
        + #":cb='if(lt(X/SW\,8)\,90\,240)':cr='if(lt(X/SW\,8)\,240\,110)',"#
        + "scale=\(width):\(height):flags=neighbor"

    /// The encoded loop for `kind`, made once per VM boot.
    private static func feed(_ kind: Kind) throws -> String {
        let path = NSTemporaryDirectory() + "loopback-feed-\(kind.rawValue)" + (kind == .bayer ? ".raw" : kind == .h264 ? ".ts" : ".mkv")
        if FileManager.default.fileExists(atPath: path) { return path }
        if kind == .bayer { return try bayerFeed(path) }
        let codec: [String] = switch kind {
        case .mjpeg: ["-c:v", "mjpeg", "-q:v", "3", "-pix_fmt", "yuvj422p"]
        case .bayer: []
        // As H.264 webcams send it: baseline, no B frames, a keyframe every second,
        // parameter sets before each.
        case .h264: ["-c:v", "libx264", "-preset", "ultrafast", "-tune", "zerolatency", "-profile:v", "baseline",
                     "-g", "\(rate)", "-x264-params", "repeat-headers=1", "-pix_fmt", "yuv420p"]
        }
        let part = path + ".part"
        _ = try output("/usr/bin/ffmpeg", ["-v", "error", "-f", "lavfi", "-i", picture, "-frames:v", "\(loop)"]
                       + codec + ["-f", kind == .h264 ? "mpegts" : "matroska", "-y", part])
        try FileManager.default.moveItem(atPath: part, toPath: path)
        return path
    }

    /// The same pictures as an RGGB mosaic, frame after frame with no header: swscale
    /// makes no Bayer, so the picture's red, green and blue planes are merged through
    /// two fixed masks (red on even rows' even columns, blue on odd rows' odd columns,
    /// green elsewhere) into one grey plane, which the feeder reads as `bayer_rggb8`.
    private static func bayerFeed(_ path: String) throws -> String {
        func mask(_ sum: Int) -> String {
            "color=c=black:s=\(width)x\(height):r=\(rate),trim=end_frame=1,format=gray,"
                + #"geq=lum='255*eq(mod(X\,2)+mod(Y\,2)\,"# + "\(sum))',loop=loop=-1:size=1"
        }
        let graph = "\(picture),format=gbrp,extractplanes=r+g+b[r][g][b];\(mask(0))[onRed];\(mask(2))[onBlue];"
            + "[g][r][onRed]maskedmerge[greenRed];[greenRed][b][onBlue]maskedmerge,format=gray[mosaic]"
        let part = path + ".part"
        _ = try output("/usr/bin/ffmpeg", ["-v", "error", "-filter_complex", graph, "-map", "[mosaic]", "-frames:v", "\(loop)",
                                           "-f", "rawvideo", "-pix_fmt", "gray", "-y", part])
        try FileManager.default.moveItem(atPath: part, toPath: path)
        return path
    }

    private static func modprobe(_ arguments: [String]) throws {
        let modules = ProcessInfo.processInfo.environment["VIDREC_VM_MODULES"] ?? ""
        _ = try output("/sbin/modprobe", ["-d", modules] + arguments)
    }

    /// Runs a tool and returns its standard output; throws when it fails.
    @discardableResult
    static func output(_ path: String, _ arguments: [String]) throws -> String {
        struct Failed: Error, CustomStringConvertible { let description: String }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failed(description: "\(path) \(arguments.joined(separator: " ")): \(errors)")
        }
        return text
    }
}
