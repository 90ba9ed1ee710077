import Foundation
import Synchronization
import Testing
import VidrecHTTP

/// The `Host` names the server answers for (against DNS rebinding), and the headers
/// every response carries, on the real server over 127.0.0.1.
@Suite struct HostAllowListTests {
    @Test(arguments: [
        // Loopback, the listen address and the names given, with or without a port.
        ("127.0.0.1", "127.0.0.1:8080", true), ("127.0.0.1", "127.0.0.1", true), ("127.0.0.1", "127.1.2.3:80", true),
        ("127.0.0.1", "localhost:8080", true), ("127.0.0.1", "LOCALHOST.", true), ("127.0.0.1", "cam.localhost:1", true),
        ("127.0.0.1", "[::1]:8080", true), ("127.0.0.1", "[::1]", true), ("127.0.0.1", "pi.home:8080", true),
        ("192.168.1.5", "192.168.1.5:8080", true), ("::1", "[::1]:9", true),
        // Another site's name, an address that is not listened on, malformed headers.
        ("127.0.0.1", "evil.example", false), ("127.0.0.1", "evil.example:8080", false), ("127.0.0.1", "192.168.1.5:8080", false),
        ("127.0.0.1", "localhost.evil.example", false), ("127.0.0.1", "127.0.0.1.evil.example", false), ("127.0.0.1", "", false),
        ("127.0.0.1", "localhost:80:80", false), ("127.0.0.1", "localhost:http", false), ("127.0.0.1", "[::1", false),
        ("127.0.0.1", "[evil.example]:80", false), ("127.0.0.1", "localhost:", false), ("192.168.1.5", "[fe80::1]", false),
        // Listening on every address: every numeric address, still no other name.
        ("0.0.0.0", "192.168.1.5:8080", true), ("0.0.0.0", "10.0.0.7", true), ("::", "[fe80::1]:8080", true),
        ("0.0.0.0", "evil.example:8080", false), ("::", "rebound.evil.example", false),
    ] as [(String, String, Bool)])
    func aHostIsAnsweredOnlyForThisMachinesNames(listen: String, host: String, permitted: Bool) {
        let list = HostAllowList(listenAddress: listen, extraNames: ["PI.home."])
        #expect(list.permits(host) == permitted)
    }

    @Test func noHostHeaderIsNotAnswered() {
        #expect(!HostAllowList(listenAddress: "0.0.0.0").permits(nil))
    }

    @Test(arguments: [("pi.home", true), ("[fe80::1]", true), ("192.168.1.5", true), ("pi.home:8080", false),
                      ("", false), ("a b", false), ("évil", false), ("http://pi", false)])
    func allowedNamesAreHostNamesOrAddresses(name: String, valid: Bool) {
        #expect(HostAllowList.isValidName(name) == valid)
    }

    /// A rebound name is refused with 421 before the handler sees the request or its
    /// body; every answer, refused or not, carries the common headers, and JSON no cache.
    @Test func anotherSitesNameIsRefusedBeforeTheHandlerAndEveryAnswerCarriesTheHeaders() throws {
        let asked = Mutex(0)
        let server = try HTTPServer(address: "127.0.0.1", port: 0, allowedHosts: HostAllowList(listenAddress: "127.0.0.1", extraNames: ["pi.home"])) { _ in
            asked.withLock { $0 += 1 }
            return .json(["ok": true])
        }
        let url = "http://127.0.0.1:\(server.port)/api/state"
        for host in ["evil.example", "evil.example:\(server.port)", "192.168.1.5"] {
            let refused = try Curl.run(url, ["-H", "Host: \(host)", "--data-binary", String(repeating: "x", count: 1000)])
            #expect(refused.status == 421, "\(host): \(refused.status)")
            #expect(String(decoding: refused.body, as: UTF8.self).contains("does not answer for the host"), "\(host)")
            #expect(refused.headers["x-content-type-options"] == "nosniff" && refused.headers["referrer-policy"] == "no-referrer")
        }
        #expect(asked.withLock { $0 } == 0)
        for host in ["127.0.0.1:\(server.port)", "localhost:\(server.port)", "pi.home:\(server.port)"] {
            let answered = try Curl.run(url, ["-H", "Host: \(host)"])
            #expect(answered.status == 200, "\(host): \(answered.status)")
            #expect(answered.headers["x-content-type-options"] == "nosniff" && answered.headers["referrer-policy"] == "no-referrer")
            #expect(answered.headers["cache-control"] == "no-store")
        }
        #expect(asked.withLock { $0 } == 3)
    }
}
