import Foundation
import Glibc
import Synchronization
import Testing
@testable import VidrecCLI
import VidrecMedia
import VidrecSystem

/// The control socket, fed fuzzed request lines, garbage bytes and a client that sends
/// nothing: each gets one JSON reply (or a closed connection), the server goes on
/// answering, and a request never reaches the handler unless it is well formed.
@Suite(.timeLimit(.minutes(3))) struct ControlRequestFuzzTests {
    @Test func anyRequestGetsAReplyAndTheServerGoesOn() throws {
        let folder = try TemporaryHome()
        chmod(folder.path, 0o700)
        let path = folder.path + "/fuzz.sock"
        let handled = Atomic<Int>(0)
        let server = try ControlServer(path: path) { request in
            handled.add(1, ordering: .relaxed)
            return ControlReply(camera: request.command)
        }
        defer { server.close() }
        var info = stat()
        #expect(lstat(path, &info) == 0 && info.st_mode & 0o777 == 0o600, "the socket is 0600")

        func ask(_ bytes: [UInt8]) throws -> String {
            let socket = try FileDescriptor.connectedSocket(to: path)
            return try socket.closeAfter {
                if !bytes.isEmpty { try bytes.withUnsafeBytes { try socket.sendAll($0.baseAddress!, count: $0.count, path) } }
                return (try? socket.readLine(within: 10, "reply")) ?? ""
            }
        }
        for seed in (1...UInt64(max(FuzzInput.cases / 10, 1))).map({ $0 }) {
            var random = SeededGenerator(seed: seed)
            var line: [UInt8]
            switch Int.random(in: 0..<3, using: &random) {
            case 0: line = Array("{\"command\":\"\(FuzzInput.text(&random))\",\"path\":\"\(FuzzInput.text(&random))\"}".utf8)
            case 1: line = (0..<Int.random(in: 0...300, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            default: line = Array(FuzzInput.text(&random).utf8)
            }
            line.removeAll { $0 == UInt8(ascii: "\n") }
            let reply = try ask(line + [UInt8(ascii: "\n")])
            #expect((try? JSONDecoder().decode(ControlReply.self, from: Data(reply.utf8))) != nil, "seed \(seed): \(reply)")
        }
        // A client that sends nothing is cut off; the next one is answered.
        let idle = try FileDescriptor.connectedSocket(to: path)
        defer { idle.close() }
        let before = handled.load(ordering: .relaxed)
        #expect(try ask(Array("{\"command\":\"ping\"}\n".utf8)).contains("\"camera\":\"ping\""))
        #expect(handled.load(ordering: .relaxed) == before + 1)
    }
}
