import Foundation
import Glibc
import Testing
@testable import VidrecCLI
import VidrecCore
import VidrecMedia
import VidrecSystem

/// Every error type says its exit status next to its definition (``ExitCoded``): the
/// sources are read for every type that conforms to `Error`, and each must conform to
/// `ExitCoded` too. A sample of each kind maps to the status the manual gives it.
@Suite struct ExitCodedTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources")

    @Test func everyErrorTypeInTheSourcesSaysItsExitCode() throws {
        var text = ""
        let files = FileManager.default.enumerator(atPath: Self.sources.path)!
        for case let file as String in files where file.hasSuffix(".swift") {
            text += try String(contentsOf: Self.sources.appendingPathComponent(file), encoding: .utf8) + "\n"
        }
        // `struct Name: …Error…` or `enum Name: …Error…`, nested types by their own name.
        let declared = text.matches(of: /(?:struct|enum|class) (\w+)(?:<[^>]*>)?: ([^{\n]*)\{/)
            .filter { $0.output.2.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces) == "Error" } }
            .map { String($0.output.1) }
        #expect(declared.count >= 20, "found only \(declared)")
        for name in declared {
            let coded = text.contains("extension \(name): ExitCoded") || text.contains(".\(name): ExitCoded")
            #expect(coded, "\(name) is an Error with no exit code: add 'extension \(name): ExitCoded' next to it")
        }
    }

    @Test func errorsMapToTheStatusTheManualGivesThem() {
        let cases: [(any Error, ExitCode)] = [
            (SystemError("write", "/x", errno: ENOSPC), .ioError),
            (SystemError("open", "/x", errno: EACCES), .cannotCreate),
            (SystemError("open", "/dev/video9", errno: ENOENT), .unavailable),
            (SystemError("read", "/x", errno: EINVAL), .failure),
            (RecorderError.cameraBusy(path: "/dev/video0", id: "a", pid: 1, since: "now"), .temporaryFailure),
            (RecorderError.lowDiskSpace(directory: "/", free: 1, floor: 2), .ioError),
            (StoreError.nothingPending(command: "save"), .noInput),
            (StoreError.stillRecording("a", pid: 1), .temporaryFailure),
            (PhotoError.noFrame(camera: "/dev/video0", seconds: 10), .unavailable),
            (DeviceError.noCamera, .unavailable),
            (CaptureSessionError.notRunning, .temporaryFailure),
            (OutputError.fellBehind("movie file", seconds: 60), .failure),
            (CLIError("x", .usage), .usage),
        ]
        for (error, code) in cases {
            #expect(RuntimeFailure.classify(error).code == code, "\(error)")
        }
        struct Unknown: Error {}
        #expect(RuntimeFailure.classify(Unknown()).code == .failure, "an error from outside vidrec (Foundation's)")
    }
}
