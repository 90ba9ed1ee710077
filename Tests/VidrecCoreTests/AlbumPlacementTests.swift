import Foundation
import Glibc
import Testing
import VidrecCore
import VidrecMedia
import VidrecSystem

/// Saving on file systems that refuse `renameat2(RENAME_NOREPLACE)` (9p, NFS, CIFS,
/// FUSE) or hard links too (vfat), simulated by failing those calls in the syscall
/// seam; the VM tests do the same on a real 9p share and a real vfat image.
@Suite struct AlbumPlacementTests {
    let bytes = Data((0..<50_000).map { UInt8($0 % 253) })

    func source(in folder: TemporaryDirectory, _ name: String = "rec.mp4") throws -> String {
        let file = folder.path + "/" + name
        try bytes.write(to: URL(fileURLWithPath: file))
        return file
    }

    @Test(arguments: [
        [Syscall.renameat2: EINVAL],                    // 9p, NFS, CIFS
        [.renameat2: ENOSYS],                           // an old kernel
        [.renameat2: EINVAL, .linkat: EPERM],           // vfat-like: no hard links either
        [.renameat2: ENOTSUP, .linkat: ENOTSUP],
    ])
    func savingFallsBackWithTheSameGuaranteesWhereRenameNoReplaceIsRefused(faults: [Syscall: Int32]) throws {
        let pending = try TemporaryDirectory()
        let album = try TemporaryDirectory()
        let taken = try album.write("clip.mp4", "an older clip")
        let first = try source(in: pending, "a.mp4"), second = try source(in: pending, "b.mp4")
        let saved = try SyscallFaults.injecting(faults) {
            [try Album(path: album.path).add(first, name: "clip", extension: "mp4"),
             try Album(path: album.path).add(second, name: "clip", extension: "mp4")]
        }
        #expect(saved == [album.path + "/clip (2).mp4", album.path + "/clip (3).mp4"])
        #expect(try String(contentsOfFile: taken, encoding: .utf8) == "an older clip", "a taken name is never overwritten")
        for file in saved { #expect(FileManager.default.contents(atPath: file) == bytes) }
        #expect(!FileManager.default.fileExists(atPath: first) && !FileManager.default.fileExists(atPath: second))
        let hidden = try FileManager.default.contentsOfDirectory(atPath: album.path).filter { $0.hasPrefix(".") }
        #expect(hidden.isEmpty, "no claim or temporary file is left: \(hidden)")
    }

    @Test func aSaveKilledBetweenClaimingAPlaceholderAndFillingItIsCleanedUpByTheNextSave() throws {
        let pending = try TemporaryDirectory()
        let album = try TemporaryDirectory()
        // What a save killed between its two steps leaves: an empty placeholder, and the
        // claim naming it, from a process that is gone.
        let gone = Process()
        gone.executableURL = URL(fileURLWithPath: "/bin/true")
        try gone.run()
        gone.waitUntilExit()
        let placeholder = try album.write("clip.mp4", "")
        _ = try album.write(".vidrec-claim-\(gone.processIdentifier)", "clip.mp4")
        let mine = try album.write("mine.mp4", "")  // an empty file of the user's, unclaimed
        let saved = try SyscallFaults.injecting([.renameat2: EINVAL, .linkat: EPERM]) {
            try Album(path: album.path).add(try source(in: pending), name: "clip", extension: "mp4")
        }
        #expect(saved == placeholder, "the abandoned placeholder was removed, so its name is free again")
        #expect(FileManager.default.contents(atPath: saved) == bytes)
        #expect(FileManager.default.fileExists(atPath: mine), "an empty file nobody claimed is left alone")
    }

    @Test func aFailureOtherThanAnUnsupportedCallLeavesTheRecordingWhereItWas() throws {
        let pending = try TemporaryDirectory()
        let album = try TemporaryDirectory()
        let file = try source(in: pending)
        #expect(throws: SystemError.self) {
            try SyscallFaults.injecting([.renameat2: EIO]) {
                try Album(path: album.path).add(file, name: "clip", extension: "mp4")
            }
        }
        #expect(FileManager.default.contents(atPath: file) == bytes)
        #expect(try FileManager.default.contentsOfDirectory(atPath: album.path).isEmpty)
    }
}
