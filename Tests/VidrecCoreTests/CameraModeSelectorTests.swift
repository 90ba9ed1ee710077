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

    @Test func thePresetsAspectRatioIsPreferredOverAFasterModeOfAnother() throws {
        // vivid: 640x480 at 25 fps at most, 640x360 at 30. A 4:3 preset gets 4:3 pictures
        // at the camera's real rate, never 16:9 ones stretched.
        let choice = try selector.choose(from: Self.webcam.filter { $0.fourcc == "YUYV" }, width: 640, height: 480,
                                         frameRate: Rational(30), format: nil, camera: "cam")
        #expect(choice.mode == CameraMode(fourcc: "YUYV", width: 640, height: 480, frameRate: Rational(25)))
        #expect(choice.outputFrameRate == Rational(25))
        #expect(choice.fit == nil)
        #expect(choice.summary == "camera mode: 640x480 YUYV 25 fps (the preset's 30 fps is not offered at this size; recording at 25 fps)")
    }

    @Test func aMuchSlowerExactSizeLosesToTheSameAspectAtTheFullRate() throws {
        // 1280x720 only at 12.5 fps: 640x360 at 30 fps, scaled (same 16:9) is better.
        let choice = try selector.choose(from: Self.webcam.filter { $0.fourcc == "YUYV" }, width: 1280, height: 720,
                                         frameRate: Rational(30), format: nil, camera: "cam")
        #expect(choice.mode == CameraMode(fourcc: "YUYV", width: 640, height: 360, frameRate: Rational(30)))
        #expect(choice.summary == "camera mode: 640x360 YUYV 30 fps → scaled to 1280x720")
    }

    @Test(arguments: [(VideoFit.crop, "cropped to fill"), (.pad, "padded to"), (.stretch, "stretched to")])
    func withNoModeOfThePresetsAspectThePictureIsFittedAsAsked(fit: VideoFit, words: String) throws {
        let fourThree = [CameraMode(fourcc: "YUYV", width: 640, height: 480, frameRate: Rational(30)),
                         CameraMode(fourcc: "YUYV", width: 1280, height: 960, frameRate: Rational(15))]
        let choice = try selector.choose(from: fourThree, width: 640, height: 360, frameRate: Rational(30), format: nil,
                                         fit: fit, camera: "cam")
        #expect(choice.mode == fourThree[0])
        #expect(choice.fit == fit)
        #expect(choice.summary.hasPrefix("camera mode: 640x480 YUYV 30 fps → \(words) 640x360 (the camera has no 16:9 mode"), "\(choice.summary)")
    }

    @Test func cropUsesTheMiddleOfTheCameraPictureAndPadCentresIt() {
        // 4:3 camera into a 16:9 movie.
        let crop = VideoFit.crop.rectangles(sourceWidth: 640, sourceHeight: 480, width: 640, height: 360)
        #expect(crop.source == (0, 60, 640, 360) && crop.destination == (0, 0, 640, 360))
        let pad = VideoFit.pad.rectangles(sourceWidth: 640, sourceHeight: 480, width: 640, height: 360)
        #expect(pad.source == (0, 0, 640, 480) && pad.destination == (80, 0, 480, 360))
        // 16:9 camera into a square movie.
        let square = VideoFit.crop.rectangles(sourceWidth: 640, sourceHeight: 360, width: 360, height: 360)
        #expect(square.source == (140, 0, 360, 360))
        let bars = VideoFit.pad.rectangles(sourceWidth: 640, sourceHeight: 360, width: 360, height: 360)
        #expect(bars.destination == (0, 78, 360, 202))
        let same = VideoFit.crop.rectangles(sourceWidth: 1280, sourceHeight: 720, width: 640, height: 360)
        #expect(same.source == (0, 0, 1280, 720) && same.destination == (0, 0, 640, 360), "same aspect: nothing cut")
    }
}
