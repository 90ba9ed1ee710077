import Foundation
import Glibc
import Testing
import VidrecCore

/// vidrec's own folders must be its user's alone: one that others may write in, that
/// belongs to someone else, or that is a link is refused with the fix.
@Suite struct PrivateFolderTests {
    @Test func aMissingFolderIsMadePrivate() throws {
        let base = try TemporaryDirectory()
        try PrivateFolder.prepare(base.path + "/a/b", closed: true)
        var info = stat()
        #expect(lstat(base.path + "/a/b", &info) == 0 && info.st_mode & 0o777 == 0o700)
    }

    @Test func aFolderOthersMayWriteInIsRefusedWithTheFix() throws {
        let base = try TemporaryDirectory()
        chmod(base.path, 0o777)
        #expect {
            try PrivateFolder.check(base.path)
        } throws: { error in
            "\(error)".contains("others may write in it (mode 777); fix it with 'chmod 700 \(base.path)'")
        }
        chmod(base.path, 0o755)
        try PrivateFolder.check(base.path)
        #expect(throws: PrivateFolder.Problem.self) { try PrivateFolder.check(base.path, closed: true) }
    }

    @Test func aLinkInPlaceOfTheFolderIsRefused() throws {
        let base = try TemporaryDirectory()
        symlink("/tmp", base.path + "/link")
        #expect(throws: PrivateFolder.Problem.self) { try PrivateFolder.check(base.path + "/link") }
    }

    @Test(.enabled(if: geteuid() == 0, "changing a folder's owner needs root"))
    func anotherUsersFolderIsRefused() throws {
        let base = try TemporaryDirectory()
        chmod(base.path, 0o700)
        chown(base.path, 65534, 65534)
        #expect {
            try PrivateFolder.check(base.path)
        } throws: { error in
            "\(error)".contains("it belongs to user 65534")
        }
        // And the pending area is not opened there.
        #expect(throws: PrivateFolder.Problem.self) { try RecordingStore(stateDirectory: base.path) }
    }
}
