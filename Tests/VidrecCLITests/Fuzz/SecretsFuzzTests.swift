import Foundation
import Testing
@testable import VidrecCLI
import VidrecCore
import VidrecFFmpeg

/// `--upload` remotes and `--live` URLs built from random parts, each secret a marker
/// that must never be seen again: not in a message (``RcloneRemote/redact(_:)``, a
/// refusal's reason, ``LiveDestination/redacted(_:)``), and not in argv once
/// ``CommandLineSecrets`` has overwritten its offsets. Written as rclone quotes values,
/// a remote parses back to exactly its parts.
@Suite(.timeLimit(.minutes(3))) struct SecretsFuzzTests {
    static let nameBytes = Array("abcXYZ019_- ")
    static let optionBytes = Array("abcdefXYZ019_")
    static let valueBytes = Array("aZ9:,'\"=@/ .%é-_\\$`")

    static func word(_ alphabet: [Character], _ count: ClosedRange<Int>, _ random: inout SeededGenerator) -> String {
        String((0..<Int.random(in: count, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
    }

    /// A marker no other part can contain by chance.
    static func marker(_ random: inout SeededGenerator) -> String {
        "SECRET" + String(UInt64.random(in: 0...UInt64.max, using: &random), radix: 36).uppercased()
    }

    /// `value` as rclone wants it: quoted (its quote doubled) when it holds a delimiter
    /// or starts with a quote, or when `always`.
    static func quoted(_ value: String, always: Bool, _ random: inout SeededGenerator) -> String {
        let needs = value.contains(where: { ":,".contains($0) }) || value.first == "'" || value.first == "\""
        guard needs || always else { return value }
        let quote: Character = Bool.random(using: &random) ? "'" : "\""
        return String(quote) + value.replacing(String(quote), with: String(quote) + String(quote)) + String(quote)
    }

    @Test func aRemotesSecretsNeverShowAndItsPartsComeBackWhole() throws {
        var parsed = 0, refused = 0
        for seed in 1...UInt64(max(FuzzInput.cases, 1)) {
            var random = SeededGenerator(seed: seed)
            let onTheFly = Bool.random(using: &random)
            var head = Self.word(Self.nameBytes, 1...8, &random)
            if head.first == "-" || head.first == " " { head = "r" + head }
            var parts: [(key: String, value: String, secret: Bool, bare: Bool)] = []
            var markers: [String] = []
            for _ in 0..<Int.random(in: 0...4, using: &random) {
                switch Int.random(in: 0..<4, using: &random) {
                case 0:
                    parts.append((["provider", "region", "endpoint", "env_auth"].randomElement(using: &random)!,
                                  Self.word(Array("awsEU-1:/."), 0...10, &random), false, false))
                case 1:
                    parts.append((Self.word(Self.optionBytes, 1...10, &random), "true", false, true))
                default:
                    let secret = Self.marker(&random)
                    markers.append(secret)
                    let around = (Self.word(Self.valueBytes, 0...3, &random), Self.word(Self.valueBytes, 0...3, &random))
                    let key = ["secret_access_key", "pass", "key", "sse_kms_key_id", Self.word(Self.optionBytes, 1...8, &random)].randomElement(using: &random)!
                    parts.append((key, around.0 + secret + around.1, true, false))
                }
            }
            let path = Self.word(Array("bucket/vé:=,x"), 0...12, &random)
            let headText = (onTheFly ? ":" : "") + head
            // As rclone wants it, or as a careless writer types it.
            let careful = Bool.random(using: &random)
            let text = headText + parts.map { part in
                part.bare ? "," + part.key : "," + part.key + "=" + (careful ? Self.quoted(part.value, always: Bool.random(using: &random), &random) : part.value)
            }.joined() + ":" + path
            var shown = [RcloneRemote.redact(text)]
            do {
                let remote = try RcloneRemote(checking: text)
                parsed += 1
                shown.append(remote.redacted)
                if careful {
                    #expect(remote.name == (onTheFly ? nil : head) && remote.backend == (onTheFly ? head : nil), "seed \(seed): \(text)")
                    #expect(remote.options.map(\.key) == parts.map(\.key) && remote.options.map(\.value) == parts.map(\.value), "seed \(seed): \(text)")
                    #expect(remote.path == path, "seed \(seed): \(text)")
                }
                // What argv keeps once the secrets' bytes are overwritten.
                var bytes = Array(text.utf8)
                for range in remote.secretOffsets { for index in range { bytes[index] = UInt8(ascii: "*") } }
                shown.append(String(decoding: bytes, as: UTF8.self))
            } catch {
                refused += 1
                shown.append(error.description)
            }
            for text in shown {
                for marker in markers {
                    #expect(!text.contains(marker), "seed \(seed): \(marker) shows in \(text)")
                }
            }
        }
        #expect(parsed > 0 && refused > 0, "\(parsed) parsed, \(refused) refused")
    }

    @Test func aLiveURLsSecretsNeverShow() {
        for seed in 1...UInt64(max(FuzzInput.cases, 1)) {
            var random = SeededGenerator(seed: seed)
            var markers: [String] = []
            func secret() -> String {
                let marker = Self.marker(&random)
                markers.append(marker)
                return marker
            }
            let scheme = ["rtmp", "rtmps", "srt", "rtsp", "RTMP", "http"].randomElement(using: &random)!
            var url = scheme + "://"
            if Bool.random(using: &random) { url += Self.word(Array("user"), 1...4, &random) + ":" + secret() + "@" }
            url += ["127.0.0.1", "host:1935", "[::1]:9000", "a@b"].randomElement(using: &random)!
            // A stream key is the secret of an RTMP path; others name a path.
            if scheme.lowercased().hasPrefix("rtmp") {
                url += "/live/" + (Bool.random(using: &random) ? secret() : "door")
            } else if Bool.random(using: &random) {
                url += "/door"
            }
            if Bool.random(using: &random) {
                url += "?" + (0..<Int.random(in: 1...3, using: &random)).map { _ in
                    Self.word(Array("streamidpass"), 1...8, &random) + "=" + secret() + Self.word(Array(":/@"), 0...2, &random)
                }.joined(separator: "&")
            }
            var bytes = Array(url.utf8)
            for range in LiveDestination.secretOffsets(in: url) { for index in range { bytes[index] = UInt8(ascii: "*") } }
            for text in [LiveDestination.redacted(url), String(decoding: bytes, as: UTF8.self)] {
                // A stream key's first four characters are shown (SECR), never more.
                for marker in markers {
                    #expect(!text.contains(String(marker.dropFirst(4))), "seed \(seed): \(marker) shows in \(text)")
                }
            }
        }
    }

    /// Every way an option can carry a secret on the command line, found where argv has
    /// it: `--upload VALUE`, `--upload=VALUE`, after `--` too.
    @Test func theArgumentsHoldingSecretsAreFoundWithTheirOffsets() {
        let arguments = ["service", "porch", "--", "--upload", ":s3,pass=P1:b", "--live=rtmp://h/live/KEY123456789",
                         "--upload=s3,secret_access_key='K:2':b", "--name", "--upload"]
        let found = CommandLineSecrets.secrets(in: arguments)
        let hidden = found.map { index, offsets in offsets.map { String(decoding: Array(arguments[index].utf8)[$0], as: UTF8.self) } }
        #expect(found.map(\.index) == [4, 5, 6])
        #expect(hidden == [["P1"], ["23456789"], ["'K:2'"]])
    }
}
