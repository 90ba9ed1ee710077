import Testing
import VidrecCore
import VidrecMedia

/// The mode each shipped preset gets on the mode lists of real cameras (as `v4l2-ctl
/// --list-formats-ext` shows them), with the camera's stream copied where the preset
/// allows (`video.handling` auto, the default).
@Suite struct RealWebcamModeTests {
    /// `fourcc: [(width, height, [fps])]` → modes.
    static func camera(_ formats: [(String, [(Int, Int, [Int])])]) -> [CameraMode] {
        formats.flatMap { fourcc, sizes in
            sizes.flatMap { w, h, rates in rates.map { CameraMode(fourcc: fourcc, width: w, height: h, frameRate: Rational(Int64($0))) } }
        }
    }

    /// Logitech C920 with the current firmware: raw YUYV is slow at HD over USB 2.0,
    /// MJPEG reaches 30 fps at every size.
    static let c920 = camera([
        ("YUYV", [(640, 480, [30, 15]), (640, 360, [30, 15]), (800, 600, [24, 15]), (1280, 720, [10, 5]), (1920, 1080, [5])]),
        ("MJPG", [(640, 480, [30, 15]), (640, 360, [30, 15]), (800, 600, [30]), (1280, 720, [30, 15]), (1920, 1080, [30, 15])]),
    ])
    /// The C920 with its older firmware, which also sends H.264.
    static let c920WithH264 = c920 + camera([
        ("H264", [(640, 480, [30]), (640, 360, [30]), (1280, 720, [30]), (1920, 1080, [30])]),
    ])
    /// Logitech C270: 720p at most, MJPEG for 30 fps at 720p.
    static let c270 = camera([
        ("YUYV", [(640, 480, [30, 15]), (640, 360, [30]), (960, 720, [10]), (1280, 720, [7])]),
        ("MJPG", [(640, 480, [30]), (640, 360, [30]), (960, 720, [30]), (1280, 720, [30])]),
    ])
    /// A no-name 1080p USB camera: MJPEG at HD, raw only at VGA and 1080p at 5 fps.
    static let generic1080 = camera([
        ("MJPG", [(1920, 1080, [30]), (1280, 720, [30]), (640, 480, [30])]),
        ("YUYV", [(640, 480, [30]), (1920, 1080, [5])]),
    ])
    /// The Raspberry Pi's legacy camera driver (bcm2835-v4l2), whose ranges are
    /// sampled at the presets' sizes: raw formats, JPEG and H.264 at every size.
    static let piLegacy = camera(["YU12", "YUYV", "RGB3", "JPEG", "H264", "NV12"].map { fourcc in
        (fourcc, [(640, 360, [30, 15]), (1280, 720, [30]), (1920, 1080, [30])])
    })

    static let presets = [("low", 640, 360, 15), ("medium", 1280, 720, 30), ("high", 1920, 1080, 30)]

    /// For each camera, what each preset (low, medium, high) must get: the mode's size,
    /// format and rate, and whether it is copied.
    static let expected: [(name: String, modes: [CameraMode], picks: [String])] = [
        ("C920", c920, ["640x360 YUYV 15 fps", "1280x720 MJPG 30 fps", "1920x1080 MJPG 30 fps"]),
        ("C920 with H.264", c920WithH264, ["640x360 YUYV 15 fps", "1280x720 H264 30 fps copied", "1920x1080 H264 30 fps copied"]),
        ("C270", c270, ["640x360 YUYV 30 fps", "1280x720 MJPG 30 fps", "1280x720 MJPG 30 fps"]),
        ("generic 1080p", generic1080, ["1280x720 MJPG 30 fps", "1280x720 MJPG 30 fps", "1920x1080 MJPG 30 fps"]),
        ("Pi legacy", piLegacy, ["640x360 H264 15 fps copied", "1280x720 H264 30 fps copied", "1920x1080 H264 30 fps copied"]),
    ]

    @Test(arguments: 0..<5) func eachPresetGetsTheCheapestModeThatMeetsIt(camera: Int) throws {
        let (name, modes, picks) = Self.expected[camera]
        for ((preset, width, height, rate), pick) in zip(Self.presets, picks) {
            let choice = try CameraModeSelector().choose(
                from: modes, width: width, height: height, frameRate: Rational(Int64(rate)), format: nil, camera: name,
                handling: .auto, copyable: .h264)
            let got = choice.mode.description + (choice.copied ? " copied" : "")
            #expect(got == pick, "\(name), preset \(preset)")
            if choice.copied {
                #expect(choice.summary.hasSuffix("→ copied"), "\(choice.summary)")
                #expect(choice.outputFrameRate == Rational(Int64(rate)))
            }
        }
    }

    @Test func encodeNeverCopiesAndPrefersRawThenJPEGThenH264() throws {
        let choice = try CameraModeSelector().choose(from: Self.piLegacy, width: 1280, height: 720, frameRate: Rational(30),
                                                     format: nil, camera: "pi", handling: .encode, copyable: .h264)
        #expect(!choice.copied)
        #expect(choice.mode.pixelFormat?.isCompressed == false, "\(choice.mode)")
        let compressedOnly = Self.piLegacy.filter { $0.pixelFormat?.isCompressed == true }
        let decoded = try CameraModeSelector().choose(from: compressedOnly, width: 1280, height: 720, frameRate: Rational(30),
                                                      format: nil, camera: "pi", handling: .encode, copyable: .h264)
        #expect(decoded.mode.fourcc == "JPEG", "JPEG costs less to decode than H.264")
    }

    @Test func copyTakesTheCamerasOwnSizeAndSaysSo() throws {
        let choice = try CameraModeSelector().choose(from: Self.c920WithH264, width: 3840, height: 2160, frameRate: Rational(30),
                                                     format: nil, camera: "c920", handling: .copy, copyable: .h264)
        #expect(choice.copied)
        #expect(choice.mode == CameraMode(fourcc: "H264", width: 1920, height: 1080, frameRate: Rational(30)))
        #expect(choice.summary.contains("a copied stream is not scaled"), "\(choice.summary)")
    }

    @Test func autoDoesNotCopyAtAnotherRate() throws {
        // The preset's 15 fps would need every other frame of a 30 fps stream: encoded.
        let choice = try CameraModeSelector().choose(from: Self.c920WithH264, width: 1280, height: 720, frameRate: Rational(15),
                                                     format: nil, camera: "c920", handling: .auto, copyable: .h264)
        #expect(!choice.copied)
    }

    @Test func anMJPEGPresetCopiesMotionJPEGAndTheJPEGFourCC() throws {
        for modes in [Self.c270, Self.piLegacy] {
            let choice = try CameraModeSelector().choose(from: modes, width: 1280, height: 720, frameRate: Rational(30),
                                                         format: nil, camera: "cam", handling: .auto, copyable: .mjpeg)
            #expect(choice.copied)
            #expect(choice.mode.pixelFormat?.isJPEG == true, "\(choice.mode)")
        }
    }

    @Test func copyOnACameraWithoutCompressedFormatsSaysWhatItOffers() throws {
        let raw = Self.c920.filter { $0.fourcc == "YUYV" }
        #expect {
            try CameraModeSelector().choose(from: raw, width: 1280, height: 720, frameRate: Rational(30),
                                            format: nil, camera: "/dev/video0", handling: .copy, copyable: .h264)
        } throws: { error in
            "\(error)" == "camera /dev/video0 sends no H.264 to store as it is (it offers YUYV); record with --video encode or --video auto"
        }
    }
}
