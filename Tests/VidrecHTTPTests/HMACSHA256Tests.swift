import Foundation
import Testing
import VidrecHTTP

/// SHA-256 and its HMAC against the published test vectors (FIPS 180-4's examples,
/// RFC 4231) and against coreutils' `sha256sum` on random inputs of every length around
/// the block boundaries.
@Suite struct HMACSHA256Tests {
    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
    static func bytes(_ hex: String) -> [UInt8] {
        let digits = Array(hex.utf8)
        return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16)! }
    }

    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
         "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"),
    ] as [(String, String)])
    func theDigestIsTheStandardsExample(message: String, digest: String) {
        #expect(Self.hex(SHA256.hash(message.utf8)) == digest)
    }

    @Test func aMillionBytesHashAsTheStandardSays() {
        var hasher = SHA256()
        for _ in 0..<1000 { hasher.update([UInt8](repeating: 0x61, count: 1000)) }
        #expect(Self.hex(hasher.finalize()) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test(arguments: [
        // RFC 4231 test cases 1, 2, 3, 4, 6 and 7 (5 truncates its output).
        ("0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b", "4869205468657265",
         "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
        ("4a656665", "7768617420646f2079612077616e7420666f72206e6f7468696e673f",
         "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
        (String(repeating: "aa", count: 20), String(repeating: "dd", count: 50),
         "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
        ("0102030405060708090a0b0c0d0e0f10111213141516171819", String(repeating: "cd", count: 50),
         "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
        (String(repeating: "aa", count: 131),
         "54657374205573696e67204c6172676572205468616e20426c6f636b2d53697a65204b6579202d2048617368204b6579204669727374",
         "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
        (String(repeating: "aa", count: 131),
         "5468697320697320612074657374207573696e672061206c6172676572207468616e20626c6f636b2d73697a65206b657920616e642061206c6172676572207468616e20626c6f636b2d73697a6520646174612e20546865206b6579206e6565647320746f20626520686173686564206265666f7265206265696e6720757365642062792074686520484d414320616c676f726974686d2e",
         "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
    ] as [(String, String, String)])
    func theCodeIsRFC4231s(key: String, message: String, code: String) {
        #expect(Self.hex(HMACSHA256.code(key: Self.bytes(key), message: Self.bytes(message))) == code)
    }

    @Test func randomInputsHashAsSha256sumHashesThem() throws {
        var generator = SystemRandomNumberGenerator()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vidrec-sha-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let lengths = Array(0...130) + [191, 192, 1000, 4097]
        var files: [String] = []
        var expected: [String] = []
        for length in lengths {
            let data = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let file = folder.appendingPathComponent("\(length)").path
            try Data(data).write(to: URL(fileURLWithPath: file))
            files.append(file)
            expected.append(Self.hex(SHA256.hash(data)))
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        process.arguments = files
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(text.split(separator: "\n").map { String($0.prefix(64)) } == expected)
    }
}
