import Foundation
import Testing

/// A USB webcam with a microphone on the VM's own USB bus (`vm/usb-camera`): a configfs
/// gadget on dummy_hcd (built by `vm/run` with isochronous transfers), seen by the
/// kernel's uvcvideo and snd-usb-audio as a webcam on a cable. Its device side
/// (`vm/usb-gadget/uvc-gadget.c`) sends YUYV or MJPEG at 640x360, 640x480, 1280x720 and
/// 1920x1080, and YUYV at 320x180 too, at 30, 15 or 10 fps, each frame numbered in its
/// bottom strip, and logs what the host asks (`streamon 640x480 YUYV 333333/10000000`,
/// `brightness 200`). In the VM only; `stop()` (or the end of the test) takes it away.
final class USBCamera {
    /// The stable name udev gives it.
    static let byID = "/dev/v4l/by-id/usb-vidrec_vidrec_test_webcam_0001-video-index0"
    /// Its name as the driver reports it.
    static let name = "vidrec test webcam: UVC Camera"
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("vm/usb-camera").path

    /// The microphone's ALSA name on the host side.
    static let microphone = "hw:webcam,0"

    /// The host side's capture node (`/dev/videoN`); empty for the microphone alone.
    let node: String
    private var stopped = false

    /// Makes the gadget and plugs it in; returns once the host has bound it. With
    /// `microphoneOnly`, the gadget is a USB microphone and nothing else.
    init(tone: Int = 1000, microphoneOnly: Bool = false) throws {
        node = try LoopbackCamera.output(Self.script, ["start", "--tone", "\(tone)"] + (microphoneOnly ? ["--microphone-only"] : []))
            .trimmingCharacters(in: .whitespacesAndNewlines)
        try #require(microphoneOnly ? node.isEmpty : node.hasPrefix("/dev/video"), "vm/usb-camera start printed \(node)")
    }

    /// What the device side has logged so far.
    var gadgetLog: String { Self.stateFile("gadget.log") }

    /// The picture size of ``lightPreset(in:)``.
    static let (lightWidth, lightHeight) = (320, 180)
    /// The frame rate of ``lightPreset(in:)``.
    static let lightFrameRate = 10

    /// A preset as light as the gadget allows, for the unplug tests, which are about the
    /// gap: its smallest YUYV mode (320x180 at 10 fps), x264's ultrafast, and ALAC for
    /// the sound. The guest emulates the USB bus as well, and beside two busy loops it
    /// could not keep up with 640x360 and AAC: FFmpeg's AAC encoder alone takes 45 % of
    /// a guest processor for a mono track (ALAC a fifth of that), and each frame's
    /// isochronous packets are kernel work on both sides of the bus. Written into
    /// `home`; returns its path.
    static func lightPreset(in home: Home) throws -> String {
        let path = home.path + "/usb-light.json"
        try Data("""
            {"description": "The USB unplug tests' light preset.", "width": \(lightWidth), "height": \(lightHeight),
             "frameRate": \(lightFrameRate), "container": "mp4",
             "video": {"codec": "libx264", "speed": "ultrafast", "crf": 28, "keyframeInterval": \(lightFrameRate), "pixelFormat": "yuv420p"},
             "audio": {"codec": "alac", "sampleRate": 48000, "channels": 1, "bitRate": "64k"}}
            """.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// What the gadget's tone player (aplay) has logged so far: its underruns ("underrun!!!").
    static var toneLog: String { stateFile("tone.log") }

    /// A file `vm/usb-camera` keeps in its state folder, or "" while there is none.
    private static func stateFile(_ name: String) -> String {
        (try? String(contentsOfFile: "/run/usb-camera/" + name, encoding: .utf8)) ?? ""
    }

    /// Detaches the gadget from its UDC, as a pulled cable; returns once the host has
    /// lost the webcam.
    func unplug() throws {
        _ = try LoopbackCamera.output(Self.script, ["unplug"])
    }

    /// Attaches it again; returns once the host has bound it and udev made its links.
    func replug() throws {
        _ = try LoopbackCamera.output(Self.script, ["replug"])
    }

    func stop() {
        guard !stopped else { return }
        stopped = true
        _ = try? LoopbackCamera.output(Self.script, ["stop"])
    }

    deinit { stop() }
}
