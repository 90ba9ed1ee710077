import Foundation
import Glibc
import Testing
import VidrecCore
import VidrecMedia

/// vidrec's own state files, damaged every way a crash, a full disk or a careless hand
/// can: sidecars, the album manifest and upload jobs mutated, truncated, swapped for a
/// FIFO, a folder or a link. Reading them never traps or hangs, never hides a recording
/// and never removes a file that is not vidrec's.
@Suite(.timeLimit(.minutes(3))) struct StateFileFuzzTests {
    /// Seeds that once failed, tried first every run.
    static let regressions: [UInt64] = []

    static var seeds: [UInt64] { regressions + (1...UInt64(max(FuzzInput.cases / 10, 1))).map { $0 } }

    /// `text` damaged: bytes flipped, cut short, a field's value replaced, or left alone.
    static func damaged(_ text: String, _ random: inout SeededGenerator) -> Data {
        var bytes = Array(text.utf8)
        switch Int.random(in: 0..<5, using: &random) {
        case 0:
            for _ in 0..<Int.random(in: 1...4, using: &random) where !bytes.isEmpty {
                bytes[Int.random(in: 0..<bytes.count, using: &random)] ^= UInt8(1 << Int.random(in: 0..<8, using: &random))
            }
        case 1:
            bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &random)))
        case 2, 3:
            // A value swapped for a boundary one: `"key" : value` → `"key" : <fuzz>`.
            let text = String(decoding: bytes, as: UTF8.self)
            let pattern = try! NSRegularExpression(pattern: #"("[A-Za-z]+"\s*:\s*)("[^"]*"|[-0-9.e]+|true|false|null)"#)
            let matches = pattern.matches(in: text, range: NSRange(text.startIndex..., in: text))
            guard let match = matches.randomElement(using: &random), let range = Range(match.range(at: 2), in: text) else { break }
            let value = FuzzInput.text(&random)
            let replacement = Bool.random(using: &random) ? "\"\(value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\""))\""
                : (Double(value) != nil ? value : "\(Int64.random(in: Int64.min...Int64.max, using: &random))")
            bytes = Array(text.replacingCharacters(in: range, with: replacement).utf8)
        default:
            break
        }
        return Data(bytes)
    }

    /// Replaces `path` by something that is not a regular file, sometimes.
    static func maybeNotAFile(_ path: String, _ random: inout SeededGenerator) {
        switch Int.random(in: 0..<12, using: &random) {
        case 0: unlink(path); mkfifo(path, 0o600)
        case 1: unlink(path); mkdir(path, 0o700)
        case 2: unlink(path); symlink("/etc/passwd", path)
        default: break
        }
    }

    @Test func damagedSidecarsNeverHideOrLoseARecording() throws {
        for seed in Self.seeds {
            var random = SeededGenerator(seed: seed)
            let state = try TemporaryHome()
            let store = try RecordingStore(stateDirectory: state.path)
            var media: [String: String] = [:]
            for index in 0..<Int.random(in: 1...4, using: &random) {
                let id = "20261201-12000\(index)"
                let container = [Container.mp4, .mkv, .jpeg].randomElement(using: &random)!
                let partial = container != .jpeg && Bool.random(using: &random)
                let file = store.directory + "/" + id + (partial ? ".partial." : ".") + container.fileExtension
                try Data("movie \(index)".utf8).write(to: URL(fileURLWithPath: file))
                media[id] = file
                var sidecar = RecordingSidecar(id: id, preset: "low", presetFile: "/p/low.json", camera: "test", microphone: "test",
                                               container: container, startTime: Date(), pid: 1, maxDuration: 2)
                sidecar.state = [.recording, .finished, .interrupted, .failed].randomElement(using: &random)!
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                let text = String(decoding: try encoder.encode(sidecar), as: UTF8.self)
                let sidecarPath = store.directory + "/" + id + ".json"
                if Int.random(in: 0..<6, using: &random) > 0 {  // else: the sidecar is gone
                    try Self.damaged(text, &random).write(to: URL(fileURLWithPath: sidecarPath))
                    Self.maybeNotAFile(sidecarPath, &random)
                }
            }
            // Stray names that are not vidrec's.
            for name in ["..json", "x.json", "../escape.json", "20261201-120009.json"] where Bool.random(using: &random) {
                FileManager.default.createFile(atPath: store.directory + "/" + name, contents: Self.damaged("{\"id\": \"../x\"}", &random))
            }
            let listed = store.list()
            for (id, file) in media.sorted(by: { $0.key < $1.key }) {
                #expect(FileManager.default.fileExists(atPath: file), "seed \(seed): \(file) was removed")
                #expect(listed.contains { $0.id == id }, "seed \(seed): recording \(id) is hidden; listed \(listed.map(\.id))")
            }
            #expect(listed.allSatisfy { RecordingStore.isValidID($0.id) && $0.mediaPath.hasPrefix(store.directory + "/") }, "seed \(seed)")
            // Listing again finds the same, from the sidecars it rebuilt.
            #expect(store.list().map(\.id) == listed.map(\.id), "seed \(seed)")
        }
    }

    @Test func aDamagedManifestNeverRemovesAFileThatIsNotVidrecs() throws {
        for seed in Self.seeds {
            var random = SeededGenerator(seed: seed)
            let root = try TemporaryHome()
            let album = root.path + "/album", outside = root.path + "/outside"
            try FileManager.default.createDirectory(atPath: album + "/2026", withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
            let manifest = AlbumManifest(stateDirectory: root.path)
            var theirs: [String] = []
            for index in 0..<4 {
                let file = outside + "/keep\(index).mp4"
                try Data(repeating: 1, count: 100).write(to: URL(fileURLWithPath: file))
                theirs.append(file)
            }
            for index in 0..<Int.random(in: 1...5, using: &random) {
                let file = album + (Bool.random(using: &random) ? "/2026/" : "/") + "clip\(index).mp4"
                try Data(repeating: 2, count: 100 + index).write(to: URL(fileURLWithPath: file))
                try manifest.recordSave(file, album: album)
                if Int.random(in: 0..<3, using: &random) == 0 {
                    // The user put another file under that name since: it is theirs.
                    unlink(file)
                    try Data(repeating: 3, count: 100 + index).write(to: URL(fileURLWithPath: file))
                    theirs.append(file)
                }
            }
            // The manifest, damaged, with names that try to leave the album.
            let folder = URL(fileURLWithPath: album).standardizedFileURL.path
            var text = try String(contentsOfFile: manifest.path, encoding: .utf8)
            for name in ["../outside/keep0.mp4", "/\(outside)/keep1.mp4", "2026/../../outside/keep2.mp4", "..", "", FuzzInput.text(&random)]
            where Bool.random(using: &random) {
                let escaped = name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                    .replacingOccurrences(of: "\n", with: "\\n")
                text = text.replacingOccurrences(of: "\"\(folder)\":[", with: "\"\(folder)\":[{\"name\":\"\(escaped)\",\"saved\":0},")
            }
            try Self.damaged(text, &random).write(to: URL(fileURLWithPath: manifest.path))
            Self.maybeNotAFile(manifest.path, &random)
            for _ in 0..<3 {
                _ = try? manifest.prune(album: album, keep: [nil, 1, 2].randomElement(using: &random)!,
                                        maxBytes: [nil, 1, 150].randomElement(using: &random)!,
                                        maxAge: [nil, 0, 1e9].randomElement(using: &random)!)
                _ = try? manifest.removeOldest(album: album)
            }
            for file in theirs {
                #expect(FileManager.default.fileExists(atPath: file), "seed \(seed): \(file) is not vidrec's, and was removed")
            }
        }
    }

    @Test func damagedUploadJobsAreSetAsideAndTheQueueEnds() throws {
        final class Refusing: Uploading {
            func copy(_ file: String, to destination: String) throws { throw UploadError("copy", destination, "refused") }
            func verify(_ file: String, against destination: String) throws -> String { "" }
        }
        for seed in Self.seeds {
            var random = SeededGenerator(seed: seed)
            let state = try TemporaryHome()
            let queue = UploadQueue(stateDirectory: state.path)
            let file = state.path + "/clip.mp4"
            try Data("movie".utf8).write(to: URL(fileURLWithPath: file))
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let job = try queue.enqueue(file: file, remote: ":local:" + state.path + "/copies", album: nil, move: Bool.random(using: &random))
                let path = queue.directory + "/" + job.id + ".json"
                let text = try String(contentsOfFile: path, encoding: .utf8)
                try Self.damaged(text, &random).write(to: URL(fileURLWithPath: path))
                Self.maybeNotAFile(path, &random)
            }
            let jobs = queue.jobs()
            #expect(jobs.allSatisfy { FileManager.default.fileExists(atPath: queue.directory + "/" + $0.id + ".json") }, "seed \(seed)")
            let worker = UploadWorker(queue: queue, transfer: Refusing(), manifest: nil) { _ in }
            _ = worker.finish(attempts: 1)
            #expect(FileManager.default.fileExists(atPath: file), "seed \(seed): the file to upload is kept")
        }
    }
}
