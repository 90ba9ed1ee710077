import Foundation
import Testing

/// FFmpeg's own command-line tools (`ffprobe`, `ffmpeg`), with which the tests read the
/// files back.
enum FFmpegTool {
    /// Runs `/usr/bin/<tool>` with `arguments` and returns what it printed; a tool that
    /// fails fails the test, with its messages.
    static func run(_ tool: String, _ arguments: [String]) throws -> (output: Data, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/" + tool)
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "\(tool) \(arguments): \(errors)")
        return (output, errors)
    }

    /// What `tool` printed on standard output, as text.
    static func text(_ tool: String, _ arguments: [String]) throws -> String {
        String(decoding: try run(tool, arguments).output, as: UTF8.self)
    }
}
