import Foundation
import Glibc
import Testing

extension EndToEndTests {
    /// `--upload`: saved files handed to rclone through a durable queue, against a real
    /// S3 API (moto) on 127.0.0.1, with the server killed mid-upload and vidrec killed
    /// with `kill -9`; every upload checked by MD5 against the local file.
    @Suite struct UploadEndToEndTests {
        static let start = ["start", "--camera", "test", "--mic", "test", "--quality", "low"]

        /// The MD5 of a local file, by coreutils (not by rclone, not by vidrec).
        static func md5(_ file: String) throws -> String {
            let out = try Probe.tool("md5sum", [file])
            return String(String(decoding: out, as: UTF8.self).prefix(32))
        }

        /// `vidrec upload --list --json`.
        static func queued(_ home: Home) throws -> [[String: Any]] {
            let list = try VidrecProcess.run(["upload", "--list", "--json"], home: home.path)
            #expect(list.code == 0, "\(list.err)")
            return try #require(try JSONSerialization.jsonObject(with: Data(list.out.utf8)) as? [[String: Any]])
        }

        @Test func eachSegmentIsUploadedAsItIsSavedAndVerifiedByChecksum() throws {
            try #require(S3Server.isInstalled, "moto or rclone is missing: run scripts/install-deps --servers")
            let home = try Home()
            let server = try S3Server(folder: home.path + "/s3")
            // AWS_CA_BUNDLE, set on many machines, stops Debian's rclone from making any S3
            // transfer; vidrec hands it over as rclone's own CA option.
            let environment = ["RCLONE_CONFIG": server.rcloneConfig, "AWS_CA_BUNDLE": "/etc/ssl/certs/ca-certificates.crt"]
            let result = try VidrecProcess.run(Self.start + ["--segment", "2", "--max", "4", "--save", "--name", "%Y/door-%H%M%S",
                                                             "--upload", "s3test:clips/door"],
                                               home: home.path, environment: environment)
            #expect(result.code == 0, "\(result.err)")
            let saved = result.out.split(separator: "\n").map(String.init)
            try #require(saved.count == 2, "\(result.out)\n\(result.err)")
            let objects = server.objects("clips/door")
            #expect(objects.count == 2, "\(objects.keys.sorted())")
            for file in saved {
                // Under the remote by the same name as in the album, folders included.
                let name = String(file.dropFirst(home.album.count + 1))
                #expect(name.hasPrefix("\(Calendar(identifier: .gregorian).component(.year, from: Date()))/door-"))
                let object = try #require(objects[name], "\(name) not uploaded: \(objects.keys.sorted())")
                let size = try #require(try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int)
                #expect(object.size == size)
                let md5 = try Self.md5(file)
                #expect(object.md5 == md5)
                #expect(result.err.contains("vidrec: uploaded \(file) to s3test:clips/door/\(name) (verified: md5 \(md5))"), "\(result.err)")
                // What arrived is the movie: downloaded and read by ffprobe.
                let copy = home.path + "/copy.mp4"
                try #require(server.rclone(["copyto", "s3test:clips/door/" + name, copy]) != nil)
                #expect(try Probe.streams(copy).map(\.codec) == ["h264", "aac"])
                #expect(abs(try Probe.formatDuration(copy) - 2) < 0.1)
                try FileManager.default.removeItem(atPath: copy)
            }
            #expect(try Self.queued(home).isEmpty)
        }

        @Test func anUploadCutOffByTheServerStaysQueuedAndCompletesWhenTheServerIsBack() throws {
            try #require(S3Server.isInstalled, "moto or rclone is missing: run scripts/install-deps --servers")
            let home = try Home()
            let server = try S3Server(folder: home.path + "/s3")
            // Slow enough that the server dies while the file is on its way.
            let child = try VidrecProcess(Self.start + ["--max", "3", "--save", "--as", "door", "--upload", "s3test:clips", "--upload-move"],
                                          home: home.path, environment: ["RCLONE_CONFIG": server.rcloneConfig, "RCLONE_BWLIMIT": "8k"])
            #expect(child.waitForError(containing: "vidrec: uploading "))
            server.kill()
            let result = child.wait()
            // The recording is saved; the upload is not done, and cron hears of it.
            #expect(result.code == 75, "\(result.err)")
            let file = home.album + "/door.mp4"
            #expect(result.out == file + "\n")
            #expect(result.err.contains("vidrec: upload of \(file) failed (attempt 1): "), "\(result.err)")
            #expect(result.err.contains("vidrec: 1 upload is still queued"), "\(result.err)")
            #expect(!result.err.contains("vidrec: uploaded"), "\(result.err)")
            #expect(FileManager.default.fileExists(atPath: file), "--upload-move kept the file: it is not uploaded")
            let queued = try Self.queued(home)
            try #require(queued.count == 1)
            #expect(queued[0]["destination"] as? String == "s3test:clips/door.mp4")
            #expect((queued[0]["attempts"] as? Int ?? 0) >= 1)
            #expect(queued[0]["lastError"] != nil)
            let md5 = try Self.md5(file)

            // The server is back (empty: the bucket is made again); the queue finishes.
            try server.start()
            let upload = try VidrecProcess.run(["upload"], home: home.path, environment: ["RCLONE_CONFIG": server.rcloneConfig])
            #expect(upload.code == 0, "\(upload.err)")
            #expect(upload.err.contains("vidrec: uploaded \(file) to s3test:clips/door.mp4 (verified: md5 \(md5)); the local copy is removed"),
                    "\(upload.err)")
            #expect(server.objects("clips")["door.mp4"]?.md5 == md5)
            // Moved: the local copy, its poster frame and the album's record of it are gone.
            #expect(!FileManager.default.fileExists(atPath: file))
            #expect(!FileManager.default.fileExists(atPath: home.album + "/.thumbnails/door.mp4.jpg"))
            let list = try VidrecProcess.run(["list", "--json"], home: home.path)
            #expect(!list.out.contains("door.mp4"), "\(list.out)")
            #expect(try Self.queued(home).isEmpty)
        }

        @Test func theQueueSurvivesKill9AndTheNextRunUploads() throws {
            try #require(S3Server.isInstalled, "moto or rclone is missing: run scripts/install-deps --servers")
            let home = try Home()
            let server = try S3Server(folder: home.path + "/s3")
            server.kill()
            let environment = ["RCLONE_CONFIG": server.rcloneConfig]
            // Recording on while the store is down: the first attempt fails, then vidrec dies.
            let child = try VidrecProcess(Self.start + ["--segment", "1", "--save", "--upload", "s3test:clips"],
                                          home: home.path, environment: environment)
            #expect(child.waitForError(containing: "failed (attempt 1)"))
            child.signal(SIGKILL)
            _ = child.wait()
            let queued = try Self.queued(home)
            try #require(!queued.isEmpty, "the queue lost the upload")
            let files = queued.compactMap { $0["file"] as? String }
            #expect(files.allSatisfy { FileManager.default.fileExists(atPath: $0) })

            // Still down: 'vidrec upload' tries, keeps the jobs and exits 75.
            let early = try VidrecProcess.run(["upload"], home: home.path, environment: environment)
            #expect(early.code == 75, "\(early.err)")
            #expect(try Self.queued(home).count == queued.count)

            try server.start()
            let upload = try VidrecProcess.run(["upload"], home: home.path, environment: environment)
            #expect(upload.code == 0, "\(upload.err)")
            let objects = server.objects("clips")
            for file in files {
                let name = URL(fileURLWithPath: file).lastPathComponent
                #expect(objects[name]?.md5 == (try Self.md5(file)), "\(name): \(objects.keys.sorted())")
            }
            #expect(try Self.queued(home).isEmpty)
        }

        @Test func saveUploadsToAFolderRemoteAndBadRemotesAreRefusedBeforeRecording() throws {
            let home = try Home()
            let made = try VidrecProcess.run(Self.start + ["--max", "1"], home: home.path)
            #expect(made.code == 0, "\(made.err)")
            let target = home.path + "/copies"
            let save = try VidrecProcess.run(["save", "--as", "one", "--upload", ":local:" + target], home: home.path)
            #expect(save.code == 0, "\(save.err)")
            let file = home.album + "/one.mp4"
            #expect(save.out == file + "\n")
            #expect(FileManager.default.contentsEqual(atPath: file, andPath: target + "/one.mp4"))
            #expect(save.err.contains("(verified: md5 \(try Self.md5(file)))"), "\(save.err)")
            // A photo too, moved: the copy is the JPEG, the local one gone.
            let snap = try VidrecProcess.run(["snap", "--camera", "test", "--save", "--as", "still", "--upload", ":local:" + target + "/photos", "--upload-move"],
                                             home: home.path)
            #expect(snap.code == 0, "\(snap.err)")
            #expect(snap.out == home.photos + "/still.jpg\n")
            #expect(!FileManager.default.fileExists(atPath: home.photos + "/still.jpg"))
            #expect(try Probe.streams(target + "/photos/still.jpg").first?.codec == "mjpeg")

            for (arguments, code, message) in [
                (["--save", "--upload", "nocolon"], 64, "The value 'nocolon' is invalid for '--upload <remote:path>'"),
                (["--upload", "s3test:x"], 64, "'--upload <remote:path>' cannot be used with 'a recording that is not saved; add --save'"),
                (["--save", "--upload-move"], 64, "'--upload-move' cannot be used with 'no --upload; add --upload REMOTE:PATH'"),
                (["--save", "--upload", "nosuch:bucket"], 64, "rclone has no remote named 'nosuch' (it has: none); set one up with 'rclone config'"),
            ] as [([String], Int32, String)] {
                let result = try VidrecProcess.run(Self.start + ["--max", "1"] + arguments, home: home.path)
                #expect(result.code == code, "\(arguments): \(result.err)")
                #expect(result.err.contains(message), "\(arguments): \(result.err)")
            }
            let noRclone = try VidrecProcess.run(Self.start + ["--max", "1", "--save", "--upload", "s3test:x"], home: home.path,
                                                 environment: ["PATH": "/nonexistent"])
            #expect(noRclone.code == 69, "\(noRclone.err)")
            #expect(noRclone.err.contains("rclone is not installed, and --upload needs it: install it with 'apt-get install rclone'"), "\(noRclone.err)")
            // Nothing was recorded for any of them.
            #expect(try home.pendingRows().isEmpty)
        }
    }
}
