import Synchronization
import VidrecHTTP

/// What a browser holds for one `vidrec serve`: values derived from the token and the
/// port the server listens on (HMAC-SHA256), never the token itself.
///
/// A browser sends a host's cookies to every port of that host (RFC 6265 §8.5), to
/// other users' servers too. The cookie is therefore named for the port
/// (`vidrec-token-8080`) and holds `HMAC(token, "cookie PORT")`: a server on another port
/// that sees it learns neither the token nor a value any other port accepts, and a cookie
/// set from another port, whatever its name, can neither log in here nor hide this
/// server's own (every cookie of this name is tried). The page's script gets
/// `HMAC(token, "page PORT")` for its `X-Vidrec-Token` header, so that the page, too,
/// holds nothing another port accepts. The token itself (from the file, or the printed
/// address) is taken everywhere.
final class ServeCredentials: Sendable {
    /// The token in the token file.
    let token: ServeToken
    /// What is derived for the port, worked out once when it is bound.
    private let bound = Mutex<(cookie: (name: String, value: String), pageKey: String)?>(nil)

    init(token: ServeToken) {
        self.token = token
    }

    /// Binds the values to `port`, once the server listens there. Before, only the token
    /// itself is taken.
    func bind(port: UInt16) {
        let cookie = (ServeCredentials.cookieName(port: port), HMACSHA256.hex(key: token.value, message: "cookie \(port)"))
        let pageKey = HMACSHA256.hex(key: token.value, message: "page \(port)")
        bound.withLock { $0 = (cookie, pageKey) }
    }

    /// The cookie's name for `port`.
    static func cookieName(port: UInt16) -> String { "vidrec-token-\(port)" }

    /// The cookie's name and value, once bound.
    var cookie: (name: String, value: String)? { bound.withLock { $0?.cookie } }

    /// The value the page's script sends in `X-Vidrec-Token`, once bound.
    var pageKey: String? { bound.withLock { $0?.pageKey } }

    /// The `Set-Cookie` header of the entry address: a session cookie for this server's
    /// paths, which scripts cannot read and other sites' requests do not carry.
    func setCookie(secure: Bool) -> String? {
        cookie.map { "\($0.name)=\($0.value); Path=/; HttpOnly; SameSite=Strict" + (secure ? "; Secure" : "") }
    }

    /// Whether the `Cookie` header holds this server's cookie with its value (any of the
    /// cookies of its name: one set from another port cannot hide it).
    func admitsCookies(_ header: String?) -> Bool {
        guard let header, let cookie else { return false }
        var found = false
        for pair in header.split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2, parts[0] == cookie.name, ServeToken.equal(parts[1], cookie.value) { found = true }
        }
        return found
    }

    /// Whether an `X-Vidrec-Token` header holds the token or the page's key.
    func admitsHeader(_ given: String?) -> Bool {
        guard let given else { return false }
        return token.matches(given) || pageKey.map { ServeToken.equal(given, $0) } == true
    }
}
