import Foundation
import Testing

/// The kernel's vimc, libcamera's virtual camera (a raw Bayer sensor, a debayer and a
/// scaler behind a media controller), which `vm/vimc-camera` loads with udevd running
/// and libcamera's vimc pipeline handler turns into one camera. In the VM only.
final class VimcCamera {
    /// libcamera's id of the camera.
    static let id = "platform/vimc.0 Sensor B"
    /// `--camera`'s name for it.
    static let selector = "libcamera:" + id
    /// The sensor's colour bars, left to right, as they come out of the debayer: white,
    /// yellow, cyan, green, magenta, red, blue, black (75 % bars).
    static let bars = [[190, 190, 190], [180, 185, 5], [0, 182, 185], [0, 182, 3], [175, 2, 189], [175, 1, 8], [0, 0, 185], [0, 0, 0]]

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("vm/vimc-camera").path

    init() throws {
        _ = try LoopbackCamera.output(Self.script, ["start"])
    }

    deinit {
        _ = try? LoopbackCamera.output(Self.script, ["stop"])
    }
}
