import CSystemShims
import Foundation
import Glibc
import Testing
import VidrecHTTP
import VidrecSystem

/// Files are served from beneath their folder only, never through a symbolic link, from
/// the descriptor that was checked.
@Suite struct FilesBeneathAFolderTests {
    /// A folder with a file, a file in a subfolder, and what must never be served: links
    /// to a secret (a file, a folder), a FIFO, a folder, names that leave the folder.
    final class Planted: Sendable {
        let root = NSTemporaryDirectory() + "vidrec-beneath-\(UUID().uuidString)"
        var folder: String { root + "/album" }
        let secret = "the token\n"

        init() throws {
            let manager = FileManager.default
            try manager.createDirectory(atPath: folder + "/sub", withIntermediateDirectories: true)
            try manager.createDirectory(atPath: root + "/outside", withIntermediateDirectories: true)
            try manager.createDirectory(atPath: folder + "/dir.mp4", withIntermediateDirectories: true)
            try Data("movie".utf8).write(to: URL(fileURLWithPath: folder + "/a.mp4"))
            try Data("inner".utf8).write(to: URL(fileURLWithPath: folder + "/sub/b.mp4"))
            try Data(secret.utf8).write(to: URL(fileURLWithPath: root + "/secret"))
            try Data(secret.utf8).write(to: URL(fileURLWithPath: root + "/outside/c.mp4"))
            try #require(symlink(root + "/secret", folder + "/link.mp4") == 0)
            try #require(symlink("../secret", folder + "/relative.mp4") == 0)
            try #require(symlink(root + "/outside", folder + "/dirlink") == 0)
            try #require(mkfifo(folder + "/pipe.mp4", 0o600) == 0)
        }

        deinit { try? FileManager.default.removeItem(atPath: root) }
    }

    static let refused = ["link.mp4", "relative.mp4", "dirlink/c.mp4", "pipe.mp4", "dir.mp4", "../secret", "sub/../../secret",
                          "/etc/passwd", "nothing.mp4", ""]

    @Test func onlyRegularFilesBeneathTheFolderAreServed() throws {
        let planted = try Planted()
        let server = try HTTPServer(address: "127.0.0.1", port: 0) { request in
            .file(in: planted.folder, named: request.query["name"] ?? "", type: "video/mp4", rangeHeader: request.header("Range"))
        }
        let base = "http://127.0.0.1:\(server.port)/media?name="
        for (name, content) in [("a.mp4", "movie"), ("sub/b.mp4", "inner")] {
            let reply = try Curl.run(base + name)
            #expect(reply.status == 200 && String(decoding: reply.body, as: UTF8.self) == content, "\(name)")
        }
        for name in Self.refused {
            let reply = try Curl.run(base + (name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? name))
            #expect(reply.status == 404, "\(name): \(reply.status)")
            #expect(!String(decoding: reply.body, as: UTF8.self).contains("token") && !String(decoding: reply.body, as: UTF8.self).contains(planted.root),
                    "\(name)")
        }
    }

    /// The kernel's openat2 and the component-by-component fallback (for kernels and
    /// seccomp filters without it) refuse the same names, with ELOOP for a link.
    @Test(arguments: [false, true])
    func bothWaysOfOpeningBeneathRefuseTheSameNames(stepwise: Bool) throws {
        let planted = try Planted()
        let folder = open(planted.folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        try #require(folder >= 0)
        defer { close(folder) }
        func opened(_ name: String) -> (fd: Int32, errno: Int32) {
            let fd = stepwise ? csystem_open_beneath_stepwise(folder, name, O_RDONLY | O_NONBLOCK)
                              : csystem_open_beneath(folder, name, O_RDONLY | O_NONBLOCK)
            let code = errno
            if fd >= 0 { close(fd) }
            return (fd, code)
        }
        #expect(opened("a.mp4").fd >= 0 && opened("sub/b.mp4").fd >= 0)
        #expect(opened("pipe.mp4").fd >= 0, "a FIFO opens (O_NONBLOCK); the caller's fstat refuses it")
        for name in ["link.mp4", "relative.mp4", "dirlink/c.mp4"] {
            #expect(opened(name) == (-1, ELOOP), "\(name)")
        }
        for name in ["../secret", "/etc/passwd"] {
            #expect(opened(name) == (-1, EXDEV), "\(name)")
        }
        #expect(opened("nothing.mp4") == (-1, ENOENT))
        // The seam names the call and the subject.
        let error = #expect(throws: SystemError.self) {
            try FileDescriptor(rawValue: folder).openBeneath("link.mp4", O_RDONLY, subject: "album/link.mp4")
        }
        #expect(error?.errno == ELOOP && "\(error!)".contains("openat2"), "\(String(describing: error))")
    }
}
