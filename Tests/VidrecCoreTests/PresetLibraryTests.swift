import Testing
import VidrecCore

@Suite struct PresetLibraryTests {
    static let preset = PresetParserTests.valid

    @Test func userPresetsOverrideBuiltInOnesOfTheSameName() throws {
        let user = try TemporaryDirectory(), builtin = try TemporaryDirectory()
        _ = try builtin.write("high.json", Self.preset)
        _ = try user.write("high.json", Self.preset.replacingOccurrences(of: "\"crf\": 23", with: "\"crf\": 18"))
        let library = PresetLibrary(directories: [user.path, builtin.path], parser: PresetParser())
        let high = try library.preset(named: "high")
        #expect(high.settings.video.crf == 18)
        #expect(high.file == user.path + "/high.json")
    }

    @Test func aPathIsReadAsAPresetFile() throws {
        let folder = try TemporaryDirectory()
        let file = try folder.write("mine.json", Self.preset)
        let preset = try PresetLibrary(directories: [], parser: PresetParser()).preset(named: file)
        #expect(preset.name == "mine")
    }

    @Test func anUnknownNameListsWhatExistsAndSuggestsTheClosest() throws {
        let folder = try TemporaryDirectory()
        for name in ["low", "medium", "high"] { _ = try folder.write(name + ".json", Self.preset) }
        let library = PresetLibrary(directories: [folder.path], parser: PresetParser())
        #expect(throws: PresetError.unknown(name: "hihg", available: ["low", "medium", "high"], suggestion: "high")) {
            try library.preset(named: "hihg")
        }
        #expect {
            try library.preset(named: "/nonexistent/x.json")
        } throws: { "\($0)".hasPrefix("cannot read preset '/nonexistent/x.json': No such file or directory") }
    }
}
