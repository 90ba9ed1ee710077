import CVidrecPage

/// The page `vidrec serve` shows: one HTML document, its style and its script, files
/// of their own in `Sources/CVidrecPage/page/` built into the binary, with no framework
/// and no fetch from anywhere else. The viewfinder is an
/// `<img>` of the MJPEG stream (every browser plays it); the buttons post to `/api/…`
/// with the token from the page's `<meta>`; the state and the pending items come from
/// `/api/state` once a second, the album from `/api/album` when its version there changes.
enum ServePage {
    /// What the page may load: only from this server (the script too; the viewfinder and
    /// the files are its own), and it may not be framed by another site.
    static let contentSecurityPolicy =
        "default-src 'self'; img-src 'self'; media-src 'self'; style-src 'self' 'unsafe-inline'; script-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"

    /// `text` with HTML's special characters escaped.
    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "'", with: "&#39;")
    }

    /// The page, with the key its script sends in `X-Vidrec-Token`
    /// (``ServeCredentials/pageKey``, never the token itself): `page/index.html` of
    /// CVidrecPage, its style (`page/app.css`) inlined.
    static func html(key: String) -> String {
        String(cString: cvidrec_page_html())
            .replacingOccurrences(of: "{{style}}\n", with: String(cString: cvidrec_page_style()))
            .replacingOccurrences(of: "{{key}}", with: escaped(key))
    }

    /// The page's script: `page/app.js` of CVidrecPage.
    static let script = String(cString: cvidrec_page_script())
}
