import Glibc
import VidrecCore
import VidrecFFmpeg

/// Keeps what `--upload` and `--live` carry (keys, passwords, stream keys) out of this
/// process's `/proc/PID/cmdline`, which every local user can read: at start-up, the
/// bytes of each secret in the process's own argv are overwritten with `*`, so that `ps`
/// shows `--upload :s3,provider=AWS,secret_access_key=****:bucket`. The values vidrec
/// works with were copied before. Between `exec` and this the secret is readable for a
/// moment; for none at all, keep it in rclone's configuration or the environment.
public enum CommandLineSecrets {
    /// The options whose values may hold secrets, and where in a value they are.
    static let options: [String: @Sendable (String) -> [Range<Int>]] = [
        "upload": { RcloneRemote(parsing: $0)?.secretOffsets ?? [] },
        "live": { LiveDestination.secretOffsets(in: $0) },
    ]

    /// Where secrets are in `arguments` (the command line without the program's name):
    /// the index of each argument holding some, and their offsets in it. Both
    /// `--upload VALUE` and `--upload=VALUE` count, also after `--` (the start options of
    /// `schedule` and `service`).
    static func secrets(in arguments: [String]) -> [(index: Int, offsets: [Range<Int>])] {
        var found: [(index: Int, offsets: [Range<Int>])] = []
        for (index, argument) in arguments.enumerated() where argument.hasPrefix("--") {
            for (option, locate) in options {
                if argument == "--" + option, index + 1 < arguments.count {
                    let offsets = locate(arguments[index + 1])
                    if !offsets.isEmpty { found.append((index + 1, offsets)) }
                } else if argument.hasPrefix("--" + option + "=") {
                    let prefix = option.utf8.count + 3
                    let offsets = locate(String(argument.dropFirst(option.count + 3)))
                    if !offsets.isEmpty { found.append((index, offsets.map { ($0.lowerBound + prefix)..<($0.upperBound + prefix) })) }
                }
            }
        }
        return found
    }

    /// The secrets of a unit's start options, for its environment file at `path`
    /// (``SystemdSecrets``); `nil` when they hold none.
    static func systemdSecrets(_ startArguments: [String], path: String) -> SystemdSecrets? {
        SystemdSecrets(path: path, startArguments: startArguments, indices: Set(secrets(in: startArguments).map(\.index))) { option, value in
            option == "live" ? LiveDestination.redacted(value) : RcloneRemote.redact(value)
        }
    }

    /// Overwrites the secrets of `arguments` in this process's argv, where argv holds
    /// exactly these arguments after the program's name (so never in a test run that
    /// passes arguments of its own).
    public static func hide(in arguments: [String]) {
        let argv = CommandLine.unsafeArgv
        guard Int(CommandLine.argc) == arguments.count + 1 else { return }
        for (index, offsets) in secrets(in: arguments) {
            guard let pointer = argv[index + 1], strcmp(pointer, arguments[index]) == 0 else { continue }
            let length = strlen(pointer)
            for range in offsets where range.upperBound <= length {
                for offset in range { pointer[offset] = CChar(UInt8(ascii: "*")) }
            }
        }
    }
}
