/// An rclone destination as `--upload` takes it — `/folder`, `remote:path`,
/// `remote,option=value:path` or an on-the-fly `:backend,option=value:path` — taken
/// apart so that its options (keys, passwords) never reach a message or another user.
///
/// Messages, listings and logs show ``redacted``; rclone gets the options through its
/// environment (`RCLONE_CONFIG_<REMOTE>_<OPTION>`, which only the user can read in
/// `/proc`), never in its argv, which `ps` shows every local user.
public struct RcloneRemote: Sendable, Equatable {
    /// The remote's name (`s3`), `nil` for a folder or an on-the-fly remote.
    public var name: String?
    /// The backend of an on-the-fly remote (`s3` of `:s3,…:`).
    public var backend: String?
    /// The options in the connection string, in order.
    public var options: [(key: String, value: String)]
    /// What follows the remote: the bucket and folder.
    public var path: String

    /// Options whose values are shown in messages: they name no secret.
    public static let harmlessOptions: Set<String> = [
        "provider", "env_auth", "region", "location_constraint", "acl", "storage_class", "type", "chunk_size", "upload_cutoff",
    ]

    /// The name rclone knows an on-the-fly remote by while vidrec runs it.
    static let onTheFlyName = "vidrecupload"

    /// Parses `text`; `nil` when it is not an rclone destination. The text is read as
    /// rclone reads it, scalar by scalar (a `:` joined to a combining mark is one Swift
    /// `Character`, but still a `:` to rclone).
    public init?(parsing text: String) {
        if text.hasPrefix("/") {
            guard text.utf8.count > 1 else { return nil }
            (name, backend, options, path) = (nil, nil, [], text)
            return
        }
        var rest = Substring(text).unicodeScalars
        let onTheFly = rest.first == ":"
        if onTheFly { rest = rest.dropFirst() }
        let head = rest.prefix { $0 != ":" && $0 != "," }
        guard !head.isEmpty, !head.contains("/"), head.first != "-" else { return nil }
        rest = rest.dropFirst(head.count)
        var options: [(key: String, value: String)] = []
        while rest.first == "," {
            rest = rest.dropFirst()
            let key = rest.prefix { $0 != "=" && $0 != "," && $0 != ":" }
            guard !key.isEmpty else { return nil }
            rest = rest.dropFirst(key.count)
            var value = "true"
            if rest.first == "=" {
                rest = rest.dropFirst()
                guard let (parsed, after) = RcloneRemote.value(rest) else { return nil }
                (value, rest) = (parsed, after)
            }
            options.append((String(String.UnicodeScalarView(key)), value))
        }
        guard rest.first == ":" else { return nil }
        name = onTheFly ? nil : String(String.UnicodeScalarView(head))
        backend = onTheFly ? String(String.UnicodeScalarView(head)) : nil
        self.options = options
        path = String(String.UnicodeScalarView(rest.dropFirst()))
    }

    /// One option's value: up to the next `,` or `:`, or quoted with `"` or `'` (the quote
    /// doubled inside stands for itself), as rclone reads connection strings.
    private static func value(_ text: Substring.UnicodeScalarView) -> (String, Substring.UnicodeScalarView)? {
        guard let quote = text.first, quote == "\"" || quote == "'" else {
            let value = text.prefix { $0 != "," && $0 != ":" }
            return (String(String.UnicodeScalarView(value)), text.dropFirst(value.count))
        }
        var result = String.UnicodeScalarView()
        var rest = text.dropFirst()
        while let scalar = rest.first {
            rest = rest.dropFirst()
            if scalar == quote {
                guard rest.first == quote else { return (String(result), rest) }
                rest = rest.dropFirst()
            }
            result.append(scalar)
        }
        return nil
    }

    public static func == (lhs: RcloneRemote, rhs: RcloneRemote) -> Bool {
        lhs.name == rhs.name && lhs.backend == rhs.backend && lhs.path == rhs.path
            && lhs.options.map(\.key) == rhs.options.map(\.key) && lhs.options.map(\.value) == rhs.options.map(\.value)
    }

    /// Whether this is a folder on this machine (`/srv/videos`, `:local:/srv/videos`).
    public var localFolder: String? {
        if name == nil, backend == nil { return path }
        if backend == "local", options.isEmpty, path.hasPrefix("/") { return path }
        return nil
    }

    /// The destination for messages: every option's value but the harmless ones is `***`.
    public var redacted: String {
        if name == nil, backend == nil { return path }
        let shown = options.map { option in
            option.key + "=" + (RcloneRemote.harmlessOptions.contains(option.key.lowercased()) ? option.value : "***")
        }
        return (backend.map { ":" + $0 } ?? name ?? "") + shown.map { "," + $0 }.joined() + ":" + path
    }

    /// `text` for messages: redacted when it reads as a destination with options, else as
    /// it is.
    public static func redact(_ text: String) -> String {
        if let remote = RcloneRemote(parsing: text) { return remote.redacted }
        // Not a destination (a refused one): every `key=value` still loses its value.
        var result = String.UnicodeScalarView(), key = String.UnicodeScalarView()
        var hiding = false
        for scalar in text.unicodeScalars {
            if hiding {
                guard scalar == "," || scalar == ":" else { continue }
                hiding = false
            }
            result.append(scalar)
            if scalar == "=", !harmlessOptions.contains(String(key).lowercased()) {
                result.append(contentsOf: "***".unicodeScalars)
                hiding = true
            }
            key = scalar == "," || scalar == ":" ? String.UnicodeScalarView() : { var next = key; next.append(scalar); return next }()
        }
        return String(result)
    }

    /// What rclone is given: a destination with no options in it, and the variables that
    /// carry them.
    public var invocation: (target: String, environment: [String: String]) {
        if name == nil, backend == nil { return (path, [:]) }
        let remote = name ?? RcloneRemote.onTheFlyName
        var environment: [String: String] = [:]
        if let backend { environment[RcloneRemote.variable(remote, "type")] = backend }
        for option in options { environment[RcloneRemote.variable(remote, option.key)] = option.value }
        return (remote + ":" + path, environment)
    }

    /// `RCLONE_CONFIG_<REMOTE>_<OPTION>`, upper case, `-` as `_`, as rclone looks it up.
    static func variable(_ remote: String, _ option: String) -> String {
        ("RCLONE_CONFIG_" + remote + "_" + option).uppercased().replacing("-", with: "_")
    }
}
