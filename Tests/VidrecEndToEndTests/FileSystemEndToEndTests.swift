import Foundation
import Glibc
import Testing

extension KernelDriverTests {
    /// Saving where people keep albums: a 9p share (like NFS, CIFS and FUSE, it refuses
    /// `renameat2(RENAME_NOREPLACE)`) and a vfat stick (no hard links either), for the
    /// pending area, the album, or both. In the VM (`vm/device-tests`).
    @Suite struct FileSystemEndToEndTests {
        /// A folder on one kind of file system, removed afterwards.
        final class Place {
            let path: String
            private var image: String?
            init(_ kind: String) throws {
                switch kind {
                case "9p":
                    let share = try #require(ProcessInfo.processInfo.environment["VIDREC_VM_SHARE"])
                    path = share + "/fs-\(UUID().uuidString)"
                    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
                case "vfat":
                    path = NSTemporaryDirectory() + "vfat-\(UUID().uuidString)"
                    let file = path + ".img"
                    image = file
                    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
                    try #require(FileManager.default.createFile(atPath: file, contents: nil))
                    try #require(truncate(file, 512 << 20) == 0)  // sparse; above the default --min-free
                    _ = try Probe.tool("/usr/sbin/mkfs.vfat", ["-F", "32", file])
                    _ = try Probe.tool("/bin/mount", ["-o", "loop", file, path])
                default:
                    path = NSTemporaryDirectory() + "tmpfs-\(UUID().uuidString)"
                    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
                }
            }
            deinit {
                if let image {
                    _ = try? Probe.tool("/bin/umount", [path])
                    unlink(image)
                }
                try? FileManager.default.removeItem(atPath: path)
            }
        }

        @Test(arguments: [("tmpfs", "9p"), ("9p", "9p"), ("tmpfs", "vfat"), ("vfat", "vfat")])
        func savingWorksAndNeverOverwritesOnSharesAndSticks(pendingOn: String, albumOn: String) throws {
            let home = try Home()
            let state = try Place(pendingOn)
            let album = pendingOn == albumOn ? state : try Place(albumOn)
            let environment = ["XDG_STATE_HOME": state.path + "/state", "VIDREC_ALBUM": album.path + "/album"]
            var saved: [String] = []
            for _ in 0..<2 {
                let result = try VidrecProcess.run(["start", "--camera", "test", "--mic", "test", "--quality", "low", "--max", "1",
                                                    "--save", "--as", "clip"], home: home.path, environment: environment)
                #expect(result.code == 0, "\(pendingOn) → \(albumOn): \(result.err)")
                saved.append(result.out.trimmingCharacters(in: .newlines))
            }
            #expect(saved == [album.path + "/album/clip.mp4", album.path + "/album/clip (2).mp4"], "\(saved)")
            for file in saved where FileManager.default.fileExists(atPath: file) {
                #expect(try Probe.decodedFrameCount(file) == 15, "\(file)")
                try Probe.expectStreamsEndTogether(file, frameRate: 15)
            }
            let hidden = ((try? FileManager.default.contentsOfDirectory(atPath: album.path + "/album")) ?? [])
                .filter { $0.hasPrefix(".") && $0 != ".thumbnails" }
            #expect(hidden.isEmpty, "no temporary or claim file left: \(hidden)")
            // The poster frames, here too, and no temporary file beside them.
            let thumbnails = ((try? FileManager.default.contentsOfDirectory(atPath: album.path + "/album/.thumbnails")) ?? []).sorted()
            #expect(thumbnails == ["clip (2).mp4.jpg", "clip.mp4.jpg"], "\(pendingOn) → \(albumOn): \(thumbnails)")
            #expect(home.files(in: state.path + "/state/vidrec/pending", ending: ".mp4").isEmpty, "nothing left pending")
        }

        /// A share cannot hold a socket (`bind`: ENXIO on 9p, likewise NFS and CIFS): the
        /// control socket lives in the runtime folder, so a recording whose pending area is
        /// on the share is still reached by `vidrec snap`.
        @Test func aRecordingWhosePendingAreaIsOnAShareIsStillReachedBySnap() throws {
            let home = try Home()
            let state = try Place("9p")
            let environment = ["XDG_STATE_HOME": state.path + "/state"]
            let recording = try VidrecProcess(["start", "--camera", "test", "--mic", "test", "--quality", "low"], home: home.path,
                                              environment: environment)
            #expect(recording.waitForError(containing: "vidrec: recording "))
            // Frames are flowing (the first can take seconds in the VM beside busy loops).
            try recording.waitUntilRecorded(1, environment: environment)
            let snap = try VidrecProcess.run(["snap", "--camera", "test"], home: home.path, environment: environment)
            #expect(snap.code == 0 && snap.err.contains("taken from recording"), "\(snap.err)")
            recording.signal(SIGINT)
            let ended = recording.wait()
            #expect(ended.code == 0 && !ended.err.contains("no control socket"), "\(ended.err)")
        }

        @Test func aSaveKilledAtAnyMomentOnAShareLeavesTheRecordingWholeInOnePlace() throws {
            let home = try Home()
            let album = try Place("9p")
            let recorded = try VidrecProcess.run(["start", "--camera", "test", "--mic", "test", "--quality", "low", "--max", "2"],
                                                 home: home.path)
            #expect(recorded.code == 0, "\(recorded.err)")
            try KilledSave.expectWholeInOnePlace(home: home, album: album.path, delays: [0.0, 0.005, 0.02, 0.05, 0.1, 0.2, 2.0])
        }
    }
}
