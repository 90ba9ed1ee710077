import Foundation

/// What the fuzz tests throw at vidrec's doors: boundary numbers, names that try to
/// leave their folder or reach a terminal, and random text, drawn from a seeded
/// generator. `VIDREC_FUZZ_CASES` sets how many cases each test runs (the default keeps
/// `make test` fast).
enum FuzzInput {
    static var cases: Int { Int(ProcessInfo.processInfo.environment["VIDREC_FUZZ_CASES"] ?? "") ?? 2000 }

    /// Values at the edges of what the options take.
    static let boundaries = [
        "", "0", "-0", "1", "-1", "2.5", "0.000000001", "0.0000000001", "30000/1001", "1/0", "-1/2", "1/-2",
        "9223372036854775807", "-9223372036854775808", "9223372036854775808", "18446744073709551616",
        "9223372036854775807.999999999", "99999999999999999999", "1e3", "1e308", "nan", "inf", "-inf",
        "86400", "86401", "600", "601", "7d", "3650d", "3651d", "9223372036854775807d", "106751991167301d", "10s", "5m", "1h",
        "500K", "50M", "2G", "9999999999T", "0.5K", "-5M", "1.5G", "100000", "99999",
        "motion", "motion=", "motion=0", "motion=256", "motion=nan", "motion=6",
        "a\nb", "a\rb", "\u{1B}[2J", "x\u{1B}]0;title\u{07}", "\u{9B}31m", "\u{7F}", "tab\there", "\0",
        "../escape", "a/../../b", "/", "//", "/etc/passwd", ".", "..", ".hidden", "x/\u{301}y", "a/\u{301}", "%Y/%m/%d/door",
        "%", "\\%", "100\\%", "%%", "'", "\"", "$(id)", "`id`", "; rm -rf ~", "-", "--", "--help", "-q",
        String(repeating: "a", count: 200), String(repeating: "a", count: 201), String(repeating: "é", count: 101),
        "rtmp://user:secret@127.0.0.1/live/key1234567890", "srt://127.0.0.1:9000?passphrase=hunter22hunter22", "rtsp://h:1/p", "http://x/y",
        ":s3,provider=AWS,secret_access_key=SECRET:bucket", ":local:/tmp/x", "remote:path", "-remote:path", ":s3,x=\"a:b\":bk",
        "test", "none", "default", "hw:1,0", "/dev/video0", "/dev/null", "YUYV", "MJPG", "yuyv", "crop", "pad", "on", "off", "auto",
        "brightness=200", "brightness=99999999999999999999", "=", "a=", "=b", "auto_exposure='Manual Mode'",
    ]

    /// A random string: boundary pieces, printable and control characters, and
    /// multi-byte characters, up to a few dozen of them.
    static func text(_ random: inout SeededGenerator) -> String {
        if Int.random(in: 0..<3, using: &random) == 0 { return boundaries.randomElement(using: &random)! }
        var result = ""
        for _ in 0..<Int.random(in: 0...12, using: &random) {
            switch Int.random(in: 0..<5, using: &random) {
            case 0: result += boundaries.randomElement(using: &random)!
            case 1: result.unicodeScalars.append(Unicode.Scalar(UInt8.random(in: 0...0x7F, using: &random)))
            case 2: result += String(Int64.random(in: Int64.min...Int64.max, using: &random))
            case 3: result += ["/", ".", "-", "=", ":", ",", "%", "\\", "'", "\n", "\u{301}", "é", "🎂", "\u{202E}"].randomElement(using: &random)!
            default: result += String(UInt64.random(in: 0...UInt64.max, using: &random), radix: 36)
            }
        }
        return result
    }

    /// Whether every line of `text` is free of control characters: what vidrec prints
    /// never moves a terminal's cursor or changes its colours.
    static func printsSafely(_ text: String) -> Bool {
        text.split(separator: "\n", omittingEmptySubsequences: false).allSatisfy { line in
            !line.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
        }
    }
}
