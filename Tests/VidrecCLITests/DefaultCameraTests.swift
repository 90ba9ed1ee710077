import Testing
import VidrecMedia
@testable import VidrecV4L2

/// `--camera default` on machines whose first video node cannot be recorded.
@Suite struct DefaultCameraTests {
    static func node(_ path: String, _ name: String, formats: [String]) -> CameraDescription {
        CameraDescription(path: path, name: name, driver: "test", bus: "test",
                          modes: formats.map { CameraMode(fourcc: $0, width: 640, height: 480, frameRate: Rational(30)) },
                          formats: formats, controls: [])
    }

    @Test func theFirstRecordableNodeIsTheDefault() throws {
        // A Raspberry Pi: the CSI receiver's raw Bayer node comes first, then the ISP's.
        let cameras = [Self.node("/dev/video0", "unicam", formats: ["pRAA", "RGGB"]),
                       Self.node("/dev/video1", "bcm2835-isp", formats: ["YU12", "NV12"])]
        #expect(try CameraDiscovery.defaultCamera(among: cameras).path == "/dev/video1")
        #expect(cameras[0].unusableReason?.hasPrefix("raw Bayer (pRAA, RGGB): needs libcamera") == true)
        #expect(cameras[1].unusableReason == nil)
        // 16-bit and IPU3-packed Bayer (a Surface's or an older Intel laptop's IPU3) too.
        #expect(Self.node("/dev/video3", "ipu3-cio2", formats: ["ip3G", "RG16"]).unusableReason?
            .hasPrefix("raw Bayer (ip3G, RG16): needs libcamera") == true)
        // A compressed-only camera is recordable.
        #expect(Self.node("/dev/video2", "h264 cam", formats: ["H264"]).unusableReason == nil)
    }

    @Test func noRecordableNodeNamesEachAndWhy() throws {
        let cameras = [Self.node("/dev/video0", "ipu6", formats: ["BG10"]),
                       Self.node("/dev/video1", "odd", formats: ["Y16 "])]
        #expect {
            try CameraDiscovery.defaultCamera(among: cameras)
        } throws: { error in
            let text = "\(error)"
            return text.hasPrefix("no camera vidrec can record from: /dev/video0 (ipu6): raw Bayer (BG10): needs libcamera")
                && text.contains("/dev/video1 (odd): sends Y16 , none of which vidrec reads")
        }
        #expect(throws: DeviceError.noCamera) { try CameraDiscovery.defaultCamera(among: []) }
    }

    /// A Bayer node libcamera names as a part of one of its cameras points to that camera;
    /// one it does not name points to libcamera's list.
    @Test func aBayerNodeNamesTheLibcameraCameraItIsAPartOf() {
        var unicam = Self.node("/dev/video0", "unicam", formats: ["pRAA"])
        #expect(unicam.unusableReason == "raw Bayer (pRAA): needs libcamera: record it with --camera libcamera:<id> ('vidrec devices' lists libcamera's cameras)")
        unicam.libcameraCamera = "libcamera:/base/soc/i2c0mux/i2c@1/imx219@10"
        #expect(unicam.unusableReason == "raw Bayer (pRAA): part of libcamera:/base/soc/i2c0mux/i2c@1/imx219@10: record it with --camera libcamera:/base/soc/i2c0mux/i2c@1/imx219@10")
    }
}
