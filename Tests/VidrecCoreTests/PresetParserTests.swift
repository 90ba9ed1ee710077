import Foundation
import Testing
import VidrecCore
import VidrecMedia

@Suite struct PresetParserTests {
    static let valid = """
    {
      "description": "test",
      "width": 1280, "height": 720, "frameRate": 30, "container": "mp4",
      "video": {"codec": "libx264", "speed": "veryfast", "crf": 23, "keyframeInterval": 30, "pixelFormat": "yuv420p"},
      "audio": {"codec": "aac", "sampleRate": 48000, "channels": 2, "bitRate": "128k"}
    }
    """

    /// Only these encoders "exist", so the check is exercised without FFmpeg.
    let parser = PresetParser(encoderExists: { name, kind in
        (kind == .video && ["libx264", "mpeg4", "libvpx-vp9"].contains(name)) || (kind == .audio && ["aac", "libopus"].contains(name))
    }, pixelFormatExists: { $0 == "yuv420p" })

    func parse(_ json: String) throws(PresetError) -> Preset {
        try parser.parse(data: Data(json.utf8), file: "/presets/x.json", name: "x")
    }

    func replacing(_ old: String, with new: String) -> String {
        precondition(Self.valid.contains(old), "fixture does not contain \(old)")
        return Self.valid.replacingOccurrences(of: old, with: new)
    }

    @Test func aValidPresetResolvesToItsSettings() throws {
        let preset = try parse(Self.valid)
        #expect(preset.settings.video == VideoEncoding(codec: "libx264", width: 1280, height: 720, frameRate: Rational(30),
                                                       pixelFormat: "yuv420p", speed: "veryfast", crf: 23, bitRate: nil,
                                                       keyframeInterval: 30))
        #expect(preset.settings.audio == AudioEncoding(codec: "aac", sampleRate: 48000, channels: 2, bitRate: 128_000))
        #expect(preset.settings.container == .mp4)
    }

    @Test func fractionalFrameRatesAndNullAudioAreAccepted() throws {
        let json = replacing("\"frameRate\": 30", with: "\"frameRate\": \"30000/1001\"")
            .replacingOccurrences(of: #""audio": {"codec": "aac", "sampleRate": 48000, "channels": 2, "bitRate": "128k"}"#, with: "\"audio\": null")
        let preset = try parse(json)
        #expect(preset.settings.video.frameRate == Rational(30000, 1001))
        #expect(preset.settings.audio == nil)
    }

    /// Each broken preset names the field and what is allowed.
    @Test(arguments: [
        ("\"width\": 1280", "\"width\": 1281", "field 'width' must be an even whole number from 32 to 7680, not 1281"),
        ("\"width\": 1280", "\"width\": 0", "field 'width' must be an even whole number from 32 to 7680, not 0"),
        ("\"height\": 720", "\"height\": \"720\"", "field 'height' must be a number, not \"720\""),
        ("\"frameRate\": 30", "\"frameRate\": 0", "field 'frameRate' must be frames per second from 1 to 240"),
        ("\"container\": \"mp4\"", "\"container\": \"avi\"", "field 'container' must be one of mp4, mov, mkv, webm, not \"avi\""),
        ("\"codec\": \"libx264\"", "\"codec\": \"libx266\"", "field 'video.codec' names 'libx266', which is not a video encoder"),
        ("\"codec\": \"aac\"", "\"codec\": \"libx264\"", "field 'audio.codec' names 'libx264', which is not an audio encoder"),
        ("\"crf\": 23", "\"crf\": 80", "field 'video.crf' must be a whole number from 0 to 63, not 80"),
        ("\"crf\": 23", "\"crff\": 23", "field 'video.crff' is not a preset field; did you mean 'video.crf'?"),
        ("\"keyframeInterval\": 30", "\"keyframeInterval\": 60", "field 'video.keyframeInterval' must be a whole number from 1 to 30 (at most one second"),
        ("\"pixelFormat\": \"yuv420p\"", "\"pixelFormat\": \"yuv999\"", "field 'video.pixelFormat' names 'yuv999'"),
        ("\"sampleRate\": 48000", "\"sampleRate\": 12345", "field 'audio.sampleRate' must be one of 8000, 16000"),
        ("\"channels\": 2", "\"channels\": 9", "field 'audio.channels' must be a whole number from 1 to 2, not 9"),
        ("\"bitRate\": \"128k\"", "\"bitRate\": \"12Q\"", "field 'audio.bitRate' must be bits per second"),
        ("\"bitRate\": \"128k\"", "\"bitRate\": true", "field 'audio.bitRate' must be bits per second from 8000 to 1000000 (a number, or a string such as \"8M\" or \"128k\"), not true"),
        ("\"width\": 1280, ", "", "field 'width' is missing"),
        ("\"crf\": 23, ", "", "field 'video.crf' is missing: give 'video.crf' (constant quality) or 'video.bitRate' (or both)"),
    ])
    func brokenFieldsAreNamedWithWhatIsAllowed(old: String, new: String, message: String) {
        let json = replacing(old, with: new)
        #expect {
            _ = try parse(json)
        } throws: { error in
            let text = "\(error)"
            return text.hasPrefix("preset '/presets/x.json': ") && text.contains(message)
        }
    }

    @Test func malformedJSONNamesTheFile() {
        #expect {
            _ = try parse("{ \"width\": 1280, ")
        } throws: { "\($0)".hasPrefix("preset '/presets/x.json' is not valid JSON") }
        #expect {
            _ = try parse("[1, 2]")
        } throws: { "\($0)".contains("the top level must be an object") }
    }

    @Test func webmNeedsWebCodecs() {
        let json = replacing("\"container\": \"mp4\"", with: "\"container\": \"webm\"")
        #expect {
            _ = try parse(json)
        } throws: { "\($0)".contains("field 'video.codec' is 'libx264', which a webm container cannot hold") }
    }

    @Test func everyBuiltInPresetParsesAndMeetsTheFragmentRule() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("presets").path
        let library = PresetLibrary(directories: [folder], parser: PresetParser())
        let names = library.availableNames()
        #expect(names == ["low", "medium", "high", "640x480", "1280x720", "1920x1080", "3840x2160", "mjpeg"])
        for name in names {
            let preset = try library.preset(named: name)
            let video = preset.settings.video
            #expect(Rational(Int64(video.keyframeInterval)) <= video.frameRate, "\(name): a keyframe at least every second")
            if name.contains("x") { #expect("\(video.width)x\(video.height)" == name) }
        }
        #expect(try library.preset(named: "high").settings.video.speed == "veryfast", "high must stay real-time on 2 cores")
    }
}
