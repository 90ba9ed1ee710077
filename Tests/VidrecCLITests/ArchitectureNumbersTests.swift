import Foundation
import Testing
import VidrecCore
@testable import VidrecFFmpeg
import VidrecMedia

/// docs/ARCHITECTURE.md states no number the code does not: each number it quotes for a
/// queue, a limit or a rule is written here from the constant that sets it, and must
/// stand in the document so; and a scan finds no other number with a unit in it.
@Suite struct ArchitectureNumbersTests {
    static let document = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/ARCHITECTURE.md")

    /// `number` as the document spells a small one in prose.
    static func word(_ number: some BinaryInteger) -> String {
        let words = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]
        return number >= 0 && number < words.count ? words[Int(number)] : "\(number)"
    }

    /// The phrases the document must hold, each made from the code's own value.
    static var phrases: [String] {
        let jitter = Timeline.jitterTolerance
        return [
            // The threads-and-queues diagram.
            "(\(Int(PacketPolicy.movieFile.backlogSeconds)) s, then wait)",
            "(\(Int(PacketPolicy.sideOutput.backlogSeconds)) s, then drop",
            "(\(PhotoOutput.queueFrames) frames, then drop)",
            // The prose beneath it.
            "up to \(jitter.numerator)/\(jitter.denominator) of a frame late or early",
            "held back for up to \(word(Timeline.holdDepth)) slots",
            "released \(word(Timeline.holdRelease)) frame periods after the newest arrived",
            "it holds \(CaptureQueue.videoSeconds == 1 ? "a" : word(CaptureQueue.videoSeconds)) second of frames (at most \(CaptureQueue.videoBytes >> 20) MB)",
            "about \(word(OutputPolicy.videoBacklogSeconds)) seconds of frames",
            "at most \(OutputPolicy.videoBacklogBytes >> 20) MB",
            "more than \(word(Int(OutputPolicy(videoCapacity: 1).videoLagSeconds))) seconds of audio wait for the output",
            "holds up to \(word(Int(PacketPolicy.movieFile.backlogSeconds))) seconds of packets",
            "holds \(word(Int(PacketPolicy.sideOutput.backlogSeconds))) seconds, then drops video",
            "the once-a-\(CaptureTiming.syncInterval == .seconds(1) ? "second" : "\(CaptureTiming.syncInterval)") `fsync`",
            "at most \(word(DecoderPool.framesBeyondThreads)) frame more than it has threads",
            "an output \(OutputPolicy.defaultAudioBacklogSeconds == 60 ? "a minute" : "\(OutputPolicy.defaultAudioBacklogSeconds) s") behind has failed",
            "drops video to the next keyframe \(word(Int(PacketPolicy.sideOutput.backlogSeconds))) seconds behind",
            "a queue of \(word(IntervalPhotos.queueFrames)) frames that drops when full",
        ]
    }

    /// The document with every run of white space as one space (prose wraps anywhere).
    static func text() throws -> String {
        let raw = try String(contentsOf: document, encoding: .utf8)
        return raw.replacingOccurrences(of: #"\s+"#, with: " ", options: .regularExpression)
    }

    @Test func everyNumberTheArchitectureQuotesIsTheCodes() throws {
        let text = try Self.text()
        for phrase in Self.phrases {
            let said = text.contains(phrase)
            #expect(said, "docs/ARCHITECTURE.md should say \"\(phrase)\", as the code does")
        }
        // "one for every two processors, at most four": DecoderPool's rule.
        #expect(text.contains("one for every two processors, at most four"))
        #expect([2, 4, 6, 8, 16].map { DecoderPool.threads(processors: $0) } == [1, 2, 3, 4, 4])
    }

    @Test func theArchitectureQuotesNoNumberThatIsNotChecked() throws {
        let text = try Self.text()
        let numbers = #"\d+(?:\.\d+)?|one|two|three|four|five|six|seven|eight|nine|ten"#
        let units = #"s|ms|MB|KiB|GiB|seconds?|minutes?|frames?|slots?|frame periods|packets|processors"#
        let quoted = try NSRegularExpression(pattern: #"\b(?:"# + numbers + #")\s+(?:"# + units + #")\b"#)
        // Besides the phrases: DecoderPool's rule (checked above), the limit in the
        // example's code, which is the source's own (checked here), and prose that
        // counts no quantity the code sets ("between two frames").
        let example = "give an interval from 1 s to 24 h"
        let source = try String(contentsOf: Self.document.deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/VidrecCLI/Start/StartFeatures.swift"), encoding: .utf8)
        #expect(source.contains(example), "the example's code is StartFeatures' own")
        let others = ["one for every two processors, at most four", example, "between two frames"]
        var checked: [NSRange] = []
        for phrase in Self.phrases + others {
            var start = text.startIndex
            while let found = text.range(of: phrase, range: start..<text.endIndex) {
                checked.append(NSRange(found, in: text))
                start = found.upperBound
            }
        }
        let unchecked = quoted.matches(in: text, range: NSRange(text.startIndex..., in: text)).filter { match in
            !checked.contains { NSIntersectionRange($0, match.range).length == match.range.length }
        }.map { (text as NSString).substring(with: $0.range) }
        #expect(unchecked.isEmpty, "numbers in docs/ARCHITECTURE.md no test checks; add them to phrases or leave them out: \(unchecked)")
    }
}
