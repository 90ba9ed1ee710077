import Testing
import VidrecCore
import VidrecMedia

@Suite struct CameraModeSelectorTests {
    /// A webcam like vivid's: fast at small sizes, slow at large ones.
    static let webcam: [CameraMode] = {
        var modes: [CameraMode] = []
        let table: [(Int, Int, [Rational])] = [
            (320, 180, [Rational(60), Rational(30)]), (640, 360, [Rational(40), Rational(30), Rational(15)]),
            (640, 480, [Rational(25), Rational(15)]), (1280, 720, [Rational(25, 2)]), (1920, 1080, [Rational(5)]),
        ]
        for format in ["YUYV", "MJPG"] {
            for (w, h, rates) in table {
                for rate in rates { modes.append(CameraMode(fourcc: format, width: w, height: h, frameRate: rate)) }
            }
        }
        modes.append(CameraMode(fourcc: "MJPG", width: 1280, height: 720, frameRate: Rational(30)))
        return modes
    }()

    let selector = CameraModeSelector()

    @Test func theExactModeIsUsedWhenOffered() throws {
        let choice = try selector.choose(from: Self.webcam, width: 640, height: 360, frameRate: Rational(30), format: nil, camera: "cam")
        #expect(choice.mode == CameraMode(fourcc: "YUYV", width: 640, height: 360, frameRate: Rational(30)))
        #expect(choice.summary == "camera mode: 640x360 YUYV 30 fps")
    }

    @Test func mjpegIsChosenWhereRawFormatsCannotReachTheRate() throws {
        let choice = try selector.choose(from: Self.webcam, width: 1280, height: 720, frameRate: Rational(30), format: nil, camera: "cam")
        #expect(choice.mode.fourcc == "MJPG")
        #expect(choice.mode.width == 1280)
        #expect(choice.outputFrameRate == Rational(30))
    }

    @Test func theFrameRateIsKeptAndTheFramesScaledWhenNoModeHasTheSize() throws {
        let choice = try selector.choose(from: Self.webcam, width: 1920, height: 1080, frameRate: Rational(30), format: .yuyv, camera: "cam")
        #expect(choice.mode == CameraMode(fourcc: "YUYV", width: 640, height: 360, frameRate: Rational(30)))
        #expect(choice.summary == "camera mode: 640x360 YUYV 30 fps → scaled to 1920x1080")
    }

    @Test func aSlowerCameraRecordsAtItsOwnRateAndSaysSo() throws {
        let slow = Self.webcam.filter { $0.frameRate <= Rational(25) && $0.fourcc == "YUYV" }
        let choice = try selector.choose(from: slow, width: 640, height: 480, frameRate: Rational(30), format: nil, camera: "cam")
        #expect(choice.mode == CameraMode(fourcc: "YUYV", width: 640, height: 480, frameRate: Rational(25)))
        #expect(choice.outputFrameRate == Rational(25))
        #expect(choice.summary.contains("recording at 25 fps"))
    }

    @Test func nativeFormatsComeBeforeLibv4lConversions() throws {
        let modes = [CameraMode(fourcc: "YU12", width: 640, height: 480, frameRate: Rational(30), emulated: true),
                     CameraMode(fourcc: "YUYV", width: 640, height: 480, frameRate: Rational(30))]
        let choice = try selector.choose(from: modes, width: 640, height: 480, frameRate: Rational(30), format: nil, camera: "cam")
        #expect(choice.mode.fourcc == "YUYV")
    }

    @Test func aForcedFormatTheCameraLacksNamesWhatItOffers() {
        #expect(throws: CameraModeSelector.Failure.formatNotOffered(camera: "/dev/video0", asked: "NV12", offered: ["MJPG", "YUYV"])) {
            try selector.choose(from: Self.webcam, width: 640, height: 480, frameRate: Rational(30), format: .nv12, camera: "/dev/video0")
        }
        let exotic = [CameraMode(fourcc: "Y10B", width: 640, height: 480, frameRate: Rational(30))]
        #expect(throws: CameraModeSelector.Failure.self) {
            try selector.choose(from: exotic, width: 640, height: 480, frameRate: Rational(30), format: nil, camera: "c")
        }
    }
}
