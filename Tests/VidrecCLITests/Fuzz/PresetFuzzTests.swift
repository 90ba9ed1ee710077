import Foundation
import Testing
import VidrecCore
import VidrecMedia

/// User presets, fuzzed from a valid one: fields removed, added, and set to boundary
/// values of every JSON type. Each parses, or is refused with a message naming the file
/// and the field; what parses gives frame and sample counts for a day without a trap.
@Suite(.timeLimit(.minutes(3))) struct PresetFuzzTests {
    /// Seeds that once failed, tried first every run: 34, 53, 70 and 162 printed a
    /// field name with control characters raw.
    static let regressions: [UInt64] = [34, 53, 70, 162]

    static var valid: [String: Any] { [
        "description": "fuzz", "width": 1280, "height": 720, "frameRate": 30, "container": "mp4",
        "video": ["codec": "libx264", "speed": "veryfast", "crf": 23, "bitRate": "4M", "keyframeInterval": 30, "pixelFormat": "yuv420p"],
        "audio": ["codec": "aac", "sampleRate": 48000, "channels": 2, "bitRate": "128k"],
    ] }

    static func value(_ random: inout SeededGenerator) -> Any {
        switch Int.random(in: 0..<7, using: &random) {
        case 0: return FuzzInput.text(&random)
        case 1: return Int64.random(in: Int64.min...Int64.max, using: &random)
        case 2: return [0, 1, 2, 15, 16, 31, 32, 33, 240, 241, 4320, 7680, 7681, -2, Int(Int32.max), Int.max].randomElement(using: &random)!
        case 3: return [0.5, 29.97, 23.976, 1e308, -1e308, 1e-9, 239.9999].randomElement(using: &random)!
        case 4: return Bool.random(using: &random)
        case 5: return NSNull()
        default: return [["nested": 1], [1, 2]].randomElement(using: &random)!
        }
    }

    static func mutated(_ object: [String: Any], _ random: inout SeededGenerator) -> [String: Any] {
        var copy = object
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            guard let key = copy.keys.sorted().randomElement(using: &random) else { break }
            switch Int.random(in: 0..<5, using: &random) {
            case 0: copy.removeValue(forKey: key)
            case 1: copy[FuzzInput.text(&random)] = value(&random)
            case 2: if let inner = copy[key] as? [String: Any] { copy[key] = mutated(inner, &random) }
            default: copy[key] = value(&random)
            }
        }
        return copy
    }

    @Test func anyUserPresetParsesOrNamesItsFieldAndNothingOverflows() throws {
        let parser = PresetParser()
        var parsed = 0
        for seed in Self.regressions + (1...UInt64(FuzzInput.cases)).map({ $0 }) {
            var random = SeededGenerator(seed: seed)
            let object = Self.mutated(Self.valid, &random)
            guard let data = try? JSONSerialization.data(withJSONObject: object) else { continue }
            do {
                let preset = try parser.parse(data: data, file: "/fuzz.json", name: "fuzz")
                let rate = preset.settings.video.frameRate
                let day = DurationLimit(seconds: Rational(86_400))
                #expect(day.videoFrames(at: rate) > 0, "seed \(seed)")
                if let audio = preset.settings.audio {
                    #expect(day.audioFrames(at: audio.sampleRate, videoFrameRate: rate) > 0, "seed \(seed)")
                }
                parsed += 1
            } catch {
                #expect(error.description.hasPrefix("preset '/fuzz.json'") && FuzzInput.printsSafely(error.description), "seed \(seed): \(error)")
            }
        }
        #expect(parsed > 0, "no mutation left a valid preset")
    }
}
