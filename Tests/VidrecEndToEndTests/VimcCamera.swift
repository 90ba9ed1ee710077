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
    /// The sensor's colour bars, left to right, by the channels (red, green, blue) that
    /// are on in each: white, yellow, cyan, green, magenta, red, blue, black. (Their
    /// levels differ between kernels and libcamera's releases.)
    static let bars = [[true, true, true], [true, true, false], [false, true, true], [false, true, false],
                       [true, false, true], [true, false, false], [false, false, true], [false, false, false]]

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("vm/vimc-camera").path

    /// Loads vimc; `alone`: with vivid unloaded until the end, so that vimc's nodes are
    /// the only V4L2 cameras.
    init(alone: Bool = false) throws {
        _ = try LoopbackCamera.output(Self.script, ["start"] + (alone ? ["--alone"] : []))
    }

    deinit {
        _ = try? LoopbackCamera.output(Self.script, ["stop"])
    }
}
