/// An rclone destination as `--upload` takes it — `/folder`, `remote:path`,
/// `remote,option=value:path` or an on-the-fly `:backend,option=value:path` — read by
/// rclone's own grammar (`fs/fspath.Parse`), so that its options (keys, passwords) never
/// reach a message or another user.
///
/// Messages, listings and logs show ``redacted``, in which every value vidrec does not
/// know to be harmless is `***`; rclone gets the options through its environment
/// (`RCLONE_CONFIG_<REMOTE>_<OPTION>`, which only the user can read in `/proc`), never in
/// its argv, which `ps` shows every local user.
public struct RcloneRemote: Sendable, Equatable {
    /// The remote's name (`s3`), `nil` for a folder or an on-the-fly remote.
    public var name: String?
    /// The backend of an on-the-fly remote (`s3` of `:s3,…:`).
    public var backend: String?
    /// The options in the connection string, in order.
    public var options: [(key: String, value: String)]
    /// What follows the remote: the bucket and folder.
    public var path: String
    /// Where each option's value is in the text parsed, as UTF-8 offsets, its quotes
    /// included (parallel to ``options``; empty for a bare option).
    public var valueOffsets: [Range<Int>]
    /// Where each option's name starts in the text parsed (parallel to ``options``).
    var keyStarts: [Int]

    /// Options whose values are shown in messages: they name no secret. A value with an
    /// `@` (a URL with a user and password) is hidden all the same.
    public static let harmlessOptions: Set<String> = [
        "provider", "env_auth", "region", "location_constraint", "acl", "storage_class", "type", "chunk_size", "upload_cutoff",
        "endpoint",
    ]

    /// The name rclone knows an on-the-fly remote by while vidrec runs it.
    static let onTheFlyName = "vidrecupload"

    /// Why a text is not a destination vidrec hands to rclone.
    public enum Problem: Error, Equatable, CustomStringConvertible {
        /// Not a destination, with what rclone (or vidrec) would say.
        case malformed(String)
        /// An unquoted value with a `:` in it: rclone would end the remote there and take
        /// the rest, keys included, as the path. `option` names it ("the value of
        /// endpoint"); `quoted` is the destination with each such value quoted, its
        /// secrets shown as `***`.
        case splitValue(option: String, quoted: String)

        public var description: String {
            switch self {
            case .malformed(let reason): reason
            case .splitValue(let option, let quoted):
                "\(option) has a ':' in it, where rclone would end the remote and take the rest, keys included, as the path; quote it as rclone quotes values (and the whole destination in double quotes for the shell): \(quoted)"
            }
        }
    }

    /// Parses `text`; `nil` when it is not a destination (``init(checking:)`` says why).
    public init?(parsing text: String) {
        guard let remote = try? RcloneRemote(checking: text) else { return nil }
        self = remote
    }

    /// Parses `text` as rclone does, byte by byte (every delimiter is ASCII, so a `:`
    /// joined to a combining mark is still a `:`, as it is to rclone).
    ///
    /// - Throws: ``Problem``: not a destination, or a value rclone would split.
    public init(checking text: String) throws(Problem) {
        let bytes = Array(text.utf8)
        func string(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }
        let folderAdvice = "give an rclone remote and path, such as s3:bucket/videos (a remote set up with 'rclone config'), :local:/srv/videos or /srv/videos"
        guard bytes.contains(UInt8(ascii: ":")) || bytes.first == UInt8(ascii: "/") else { throw .malformed(folderAdvice) }
        // The remote's name, or a path on this machine.
        let onTheFly = bytes.first == UInt8(ascii: ":")
        var index = onTheFly ? 1 : 0
        while index < bytes.count, ![UInt8(ascii: ":"), UInt8(ascii: ","), UInt8(ascii: "/"), UInt8(ascii: "\\")].contains(bytes[index]) {
            index += 1
        }
        if index == bytes.count || bytes[index] == UInt8(ascii: "/") || bytes[index] == UInt8(ascii: "\\") {
            guard !onTheFly, bytes.first == UInt8(ascii: "/"), bytes.count > 1 else { throw .malformed(folderAdvice) }
            (name, backend, options, valueOffsets, keyStarts, path) = (nil, nil, [], [], [], text)
            return
        }
        let head = (onTheFly ? 1 : 0)..<index
        guard !head.isEmpty, bytes[head].allSatisfy(RcloneRemote.isNameByte), bytes[head.lowerBound] != UInt8(ascii: "-") else {
            throw .malformed("a remote's name is letters, digits, '_', '-' and spaces, not starting with '-' (\(folderAdvice))")
        }
        let (options, offsets, keyStarts, splitCandidate) = try RcloneRemote.readOptions(bytes, at: &index)
        // bytes[index] is the ':' that ends the remote.
        let rest = (index + 1)..<bytes.count
        if splitCandidate == nil, !options.isEmpty, bytes[rest].contains(UInt8(ascii: ":")) {
            throw .malformed("the path after the options holds a ':', so a value was cut short; quote each value that holds a ':' or ',' whole, as rclone quotes values ('…', a quote inside doubled)")
        }
        if let split = splitCandidate, bytes[rest].contains(UInt8(ascii: ":")) {
            throw .splitValue(option: RcloneRemote.label(split.key), quoted: RcloneRemote.requoted(bytes, options: Array(options.dropLast()),
                                                                              splitKey: split.key, splitStart: split.start, head: head,
                                                                              onTheFly: onTheFly))
        }
        name = onTheFly ? nil : string(head)
        backend = onTheFly ? string(head) : nil
        self.options = options
        valueOffsets = offsets
        self.keyStarts = keyStarts
        path = string(rest)
    }

    /// The options after a remote's name, from `bytes[index]` (a `,` starts each) to the
    /// `:` that ends the remote, where it leaves `index`: each option's key and value, its
    /// value's byte range and its key's start, and the last unquoted value that a `:`
    /// ended (it may have been cut short).
    private static func readOptions(_ bytes: [UInt8], at index: inout Int) throws(Problem)
        -> (options: [(key: String, value: String)], offsets: [Range<Int>], keyStarts: [Int], splitCandidate: (key: String, start: Int)?) {
        var options: [(key: String, value: String)] = []
        var offsets: [Range<Int>] = []
        var keyStarts: [Int] = []
        var splitCandidate: (key: String, start: Int)?
        while bytes[index] == UInt8(ascii: ",") {
            index += 1
            let keyStart = index
            while index < bytes.count, isOptionByte(bytes[index]) { index += 1 }
            guard index < bytes.count else { throw .malformed("an option must end with ',' or ':' and then the path") }
            guard [UInt8(ascii: ","), UInt8(ascii: ":"), UInt8(ascii: "=")].contains(bytes[index]) else {
                throw .malformed("option names are letters, digits and '_' (rclone's rule), as in secret_access_key")
            }
            let key = String(decoding: bytes[keyStart..<index], as: UTF8.self)
            guard !key.isEmpty else { throw .malformed("an option's name is empty (two ',' in a row, or ',=')") }
            keyStarts.append(keyStart)
            guard bytes[index] == UInt8(ascii: "=") else {
                options.append((key, "true"))
                offsets.append(index..<index)
                continue
            }
            index += 1
            let valueStart = index
            if index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") {
                options.append((key, try quotedValue(bytes, at: &index, key: key)))
            } else {
                while index < bytes.count, bytes[index] != UInt8(ascii: ","), bytes[index] != UInt8(ascii: ":") { index += 1 }
                guard index < bytes.count else { throw .malformed("\(label(key)) must end with ',' or ':' and then the path") }
                options.append((key, String(decoding: bytes[valueStart..<index], as: UTF8.self)))
                if bytes[index] == UInt8(ascii: ":") { splitCandidate = (key, valueStart) }
            }
            offsets.append(valueStart..<index)
        }
        return (options, offsets, keyStarts, splitCandidate)
    }

    /// A quoted value from `bytes[index]` (its opening quote), a doubled quote standing
    /// for one; leaves `index` past the closing quote, at the `,` or `:` after it.
    private static func quotedValue(_ bytes: [UInt8], at index: inout Int, key: String) throws(Problem) -> String {
        let quote = bytes[index]
        var value: [UInt8] = []
        index += 1
        while true {
            guard index < bytes.count else { throw .malformed("\(label(key)) opens a quote it never closes") }
            if bytes[index] == quote {
                index += 1
                guard index < bytes.count, bytes[index] == quote else { break }
            }
            value.append(bytes[index])
            index += 1
        }
        guard index < bytes.count, bytes[index] == UInt8(ascii: ",") || bytes[index] == UInt8(ascii: ":") else {
            throw .malformed("a quoted value (\(label(key))) must be followed by ',' or ':'")
        }
        return String(decoding: value, as: UTF8.self)
    }

    /// An option for messages: "the value of NAME" for an option vidrec knows, else "a
    /// value" (a name it does not know may be a piece of a secret).
    static func label(_ key: String) -> String {
        harmlessOptions.contains(key.lowercased()) || secretOptions.contains(key.lowercased()) ? "the value of \(key)" : "a value"
    }

    /// rclone's remote names: `[A-Za-z0-9_ -]`.
    private static func isNameByte(_ byte: UInt8) -> Bool {
        isOptionByte(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: " ")
    }

    /// rclone's option names: `[A-Za-z0-9_]`.
    private static func isOptionByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
    }

    /// The destination as its writer meant it, for the message that refuses a split
    /// value: the split value runs to the text's last `:`, broken where a `,name=` starts
    /// the next option; each value with a `:`, `,` or quote in it quoted; secrets `***`.
    private static func requoted(_ bytes: [UInt8], options: [(key: String, value: String)], splitKey: String, splitStart: Int,
                                 head: Range<Int>, onTheFly: Bool) -> String {
        let lastColon = bytes.lastIndex(of: UInt8(ascii: ":"))!
        let tail = Array(bytes[splitStart..<lastColon])
        var pieces: [[UInt8]] = [[]]
        var index = 0
        while index < tail.count {
            if tail[index] == UInt8(ascii: ",") {
                var end = index + 1
                while end < tail.count, isOptionByte(tail[end]) { end += 1 }
                if end > index + 1, end == tail.count || tail[end] == UInt8(ascii: "=") || tail[end] == UInt8(ascii: ",") {
                    pieces.append([])
                    index += 1
                    continue
                }
            }
            pieces[pieces.count - 1].append(tail[index])
            index += 1
        }
        var all = options
        all.append((splitKey, String(decoding: pieces[0], as: UTF8.self)))
        for piece in pieces.dropFirst() {
            let parts = piece.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            all.append((String(decoding: parts[0], as: UTF8.self), parts.count > 1 ? String(decoding: parts[1], as: UTF8.self) : "true"))
        }
        let path = String(decoding: bytes[(lastColon + 1)...], as: UTF8.self)
        return (onTheFly ? ":" : "") + String(decoding: bytes[head], as: UTF8.self)
            + all.map { "," + shown($0.key, $0.value) }.joined() + ":" + scrubbedPath(path)
    }

    /// One option as messages show it: a harmless one whole (its value quoted when it
    /// holds a `:`, `,` or quote, as rclone wants it); one vidrec knows to hold a secret
    /// as `name=***`; any other as `***`, its name too (an unquoted secret with a `,` in
    /// it is read as more options, and their names are pieces of it).
    private static func shown(_ key: String, _ value: String, bare: Bool = false) -> String {
        let name = key.lowercased()
        if harmlessOptions.contains(name), !value.contains("@") {
            if bare { return key }
            guard value.contains(where: { ":,'\"".contains($0) }) else { return key + "=" + value }
            return key + "='" + value.replacing("'", with: "''") + "'"
        }
        guard secretOptions.contains(name) else { return "***" }
        return bare ? key : key + "=***"
    }

    /// Options that hold secrets in rclone's common backends: their names are shown,
    /// their values never.
    public static let secretOptions: Set<String> = [
        "access_key_id", "secret_access_key", "session_token", "sse_customer_key", "sse_customer_key_base64", "sse_kms_key_id",
        "pass", "password", "user", "key", "token", "client_id", "client_secret", "account", "api_key", "application_key",
        "bearer_token", "service_account_credentials", "key_file", "key_pem", "pubkey_file", "known_hosts_file",
    ]

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

    /// The destination for messages: each option as ``shown(_:_:bare:)`` shows it, and
    /// the path from its first `=` on as `***`.
    public var redacted: String {
        if name == nil, backend == nil { return path }
        let shownOptions = zip(options, valueOffsets).map { option, offsets in
            "," + RcloneRemote.shown(option.key, option.value, bare: offsets.isEmpty && option.value == "true")
        }
        return (backend.map { ":" + $0 } ?? name ?? "") + shownOptions.joined() + ":" + RcloneRemote.scrubbedPath(path)
    }

    /// Where the secrets are in the text parsed, as UTF-8 offsets: the values ``redacted``
    /// hides, quotes included. What `--upload` gave is overwritten there in the
    /// process's own argv (``CommandLineSecrets``).
    public var secretOffsets: [Range<Int>] {
        options.indices.compactMap { index in
            let (option, offsets) = (options[index], valueOffsets[index])
            let bare = offsets.isEmpty && option.value == "true"
            let end = bare ? keyStarts[index] + option.key.utf8.count : offsets.upperBound
            switch RcloneRemote.shown(option.key, option.value, bare: bare) {
            case "***": return keyStarts[index]..<end
            case let shown where shown.hasSuffix("=***"): return offsets.isEmpty ? nil : offsets
            default: return nil
            }
        }
    }

    /// `text` for messages: redacted when it reads as a destination; else its first
    /// `,`-separated part as it is, then each harmless option whole, and from the first
    /// other `name=` on, nothing: `name=***` for an option known to hold a secret, `***`
    /// for the rest (a value may hold `,` and `:`, so where it ends is not known).
    public static func redact(_ text: String) -> String {
        if let remote = RcloneRemote(parsing: text) { return remote.redacted }
        let segments = text.split(separator: ",", omittingEmptySubsequences: false)
        var result = [String]()
        for (index, segment) in segments.enumerated() {
            let parts = segment.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if parts.count == 1, index == 0 || harmlessOptions.contains(segment.lowercased()) {
                result.append(String(segment))
                continue
            }
            let key = String(parts[0]), value = parts.count > 1 ? String(parts[1]) : ""
            if parts.count == 2, harmlessOptions.contains(key.lowercased()), !value.contains("@"), !value.contains("'"), !value.contains("\"") {
                result.append(String(segment))
                continue
            }
            result.append(parts.count == 2 && secretOptions.contains(key.lowercased()) ? key + "=***" : "***")
            break
        }
        return result.joined(separator: ",")
    }

    /// A path for messages: from its first `=` on, `***` (a `name=value` there is a
    /// piece of the remote's options that rclone would take as the path).
    static func scrubbedPath(_ path: String) -> String {
        guard let equals = path.firstIndex(of: "=") else { return path }
        return path[...equals] + "***"
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
