/// The secrets among a unit's start options (an `--upload` remote's keys, a `--live`
/// URL's password or stream key), kept out of the unit: unit files are read by
/// `systemctl show` and `systemctl cat`, and an `ExecStart=` line is no place for a key.
/// They go into an environment file only the user can read (0600), named by the unit's
/// `EnvironmentFile=`, and `ExecStart=` names them as `${VIDREC_UPLOAD}`, which systemd
/// fills in when it runs vidrec (which then hides them from its own argv).
public struct SystemdSecrets: Sendable, Equatable {
    /// Where the environment file goes.
    public let path: String
    /// The start options, each value with a secret replaced by its variable's name (in
    /// ``variables``); `--upload=VALUE` is split into `--upload` and the value.
    public let arguments: [String]
    /// Which of ``arguments`` are written `${NAME}`, by index.
    public let variables: [Int: String]
    /// The environment file: one `NAME="VALUE"` line per secret.
    public let text: String
    /// The environment file as messages show it: every value redacted.
    public let shownText: String

    /// The secrets at `indices` of `startArguments` (each a value after its option, or an
    /// `--option=VALUE`); `nil` when there are none. `redact` gives a value as messages
    /// show it, by option name.
    public init?(path: String, startArguments: [String], indices: Set<Int>, redact: (_ option: String, _ value: String) -> String) {
        guard !indices.isEmpty else { return nil }
        var arguments: [String] = []
        var variables: [Int: String] = [:]
        var lines: [String] = [], shownLines: [String] = []
        for (index, argument) in startArguments.enumerated() {
            guard indices.contains(index) else { arguments.append(argument); continue }
            var option = index > 0 ? String(startArguments[index - 1].dropFirst(2)) : "secret"
            var value = argument
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                option = String(argument[argument.index(argument.startIndex, offsetBy: 2)..<equals])
                value = String(argument[argument.index(after: equals)...])
                arguments.append("--" + option)
            }
            var name = "VIDREC_" + option.uppercased().replacing("-", with: "_")
            if variables.values.contains(name) { name += "_\(index)" }
            variables[arguments.count] = name
            arguments.append(name)
            lines.append(name + "=" + SystemdSecrets.quoted(value))
            shownLines.append(name + "=" + SystemdSecrets.quoted(redact(option, value)))
        }
        let header = "# The secrets of vidrec's start options, for systemd's EnvironmentFile= (keep it mode 0600).\n"
        self.path = path
        self.arguments = arguments
        self.variables = variables
        text = header + lines.map { $0 + "\n" }.joined()
        shownText = header + shownLines.map { $0 + "\n" }.joined()
    }

    /// `value` in double quotes as systemd's environment files (and the shell) read them:
    /// `\`, `"`, `$` and `` ` `` escaped with `\`.
    static func quoted(_ value: String) -> String {
        var result = "\""
        for character in value {
            if "\\\"$`".contains(character) { result.append("\\") }
            result.append(character)
        }
        return result + "\""
    }
}
