import Foundation
import Glibc
import VidrecMedia
import VidrecSystem

/// Where vidrec keeps things, resolved from the environment the XDG way.
///
/// Everything takes an explicit environment so that tests, cron (`env -i HOME=…`)
/// and interactive shells resolve the same way.
public struct VidrecPaths: Sendable {
    /// The environment the paths were resolved from.
    public let environment: [String: String]

    /// Resolves against `environment` (by default the process's).
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.environment = environment
    }

    /// `$HOME`, else the password database's home directory.
    public var home: String {
        if let home = environment["HOME"], !home.isEmpty { return home }
        return NSHomeDirectory()
    }

    private func xdg(_ variable: String, default relative: String) -> String {
        if let value = environment[variable], value.hasPrefix("/") { return value }
        return home + "/" + relative
    }

    /// `$XDG_STATE_HOME/vidrec` (default `~/.local/state/vidrec`): pending recordings.
    public var stateDirectory: String { xdg("XDG_STATE_HOME", default: ".local/state") + "/vidrec" }

    /// Where running recordings' control sockets live: `$XDG_RUNTIME_DIR/vidrec`, the
    /// user's own 0700 folder on a local file system (a socket cannot live on a 9p, NFS
    /// or CIFS home); without the variable (cron), the same folder where systemd made it
    /// (`/run/user/UID`), else `$TMPDIR/vidrec-UID` or `/tmp/vidrec-UID`, which vidrec
    /// makes with mode 0700 and refuses when another user made it first
    /// (``PrivateFolder``).
    public var runtimeDirectory: String {
        if let folder = environment["XDG_RUNTIME_DIR"], folder.hasPrefix("/") { return folder + "/vidrec" }
        let session = "/run/user/\(geteuid())"
        if let info = try? FileSystem.linkStatus(session), info.st_mode & S_IFMT == S_IFDIR, info.st_uid == geteuid() {
            return session + "/vidrec"
        }
        let temporary = environment["TMPDIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
        return temporary + "/vidrec-\(geteuid())"
    }

    /// `$XDG_CONFIG_HOME/vidrec` (default `~/.config/vidrec`).
    public var configDirectory: String { xdg("XDG_CONFIG_HOME", default: ".config") + "/vidrec" }

    /// The user's own presets: `$XDG_CONFIG_HOME/vidrec/presets`.
    public var userPresetDirectory: String { configDirectory + "/presets" }

    /// Where the user's systemd units go: `$XDG_CONFIG_HOME/systemd/user` (default
    /// `~/.config/systemd/user`), which the user's service manager reads.
    public var systemdUserUnitDirectory: String { xdg("XDG_CONFIG_HOME", default: ".config") + "/systemd/user" }

    /// The album: `VIDREC_ALBUM`, else `$XDG_VIDEOS_DIR/vidrec` (from the environment or
    /// `~/.config/user-dirs.dirs`), else `~/Videos/vidrec`.
    public var defaultAlbum: String {
        if let album = environment["VIDREC_ALBUM"], !album.isEmpty { return album }
        return videosDirectory + "/vidrec"
    }

    /// The photo album (`vidrec snap`): `VIDREC_PHOTOS`, else `$XDG_PICTURES_DIR/vidrec`
    /// (from the environment or `~/.config/user-dirs.dirs`), else `~/Pictures/vidrec`.
    public var defaultPhotoAlbum: String {
        if let album = environment["VIDREC_PHOTOS"], !album.isEmpty { return album }
        return userDirectory("XDG_PICTURES_DIR", default: "Pictures") + "/vidrec"
    }

    /// `XDG_VIDEOS_DIR` as `xdg-user-dirs` defines it.
    public var videosDirectory: String { userDirectory("XDG_VIDEOS_DIR", default: "Videos") }

    /// One of `xdg-user-dirs`' folders: `variable` from the environment, else from
    /// `~/.config/user-dirs.dirs`, else `~/<fallback>`.
    private func userDirectory(_ variable: String, default fallback: String) -> String {
        if let folder = environment[variable], folder.hasPrefix("/") { return folder }
        let file = xdg("XDG_CONFIG_HOME", default: ".config") + "/user-dirs.dirs"
        if let text = try? String(contentsOfFile: file, encoding: .utf8) {
            for line in text.split(separator: "\n") where line.hasPrefix(variable + "=") {
                var value = String(line.dropFirst(variable.count + 1))
                if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 {
                    value = String(value.dropFirst().dropLast())
                }
                value = value.replacingOccurrences(of: "$HOME", with: home)
                if value.hasPrefix("/") { return value }
            }
        }
        return home + "/" + fallback
    }

    /// Folders holding the built-in presets, most specific first: `VIDREC_PRESETS_DIR`;
    /// `<prefix>/share/vidrec/presets` beside an installed binary; and, for a binary run
    /// from a build folder, the `presets/` folder of the source tree above it.
    public func builtinPresetDirectories(executable: String) -> [String] {
        var directories: [String] = []
        if let dir = environment["VIDREC_PRESETS_DIR"], !dir.isEmpty { directories.append(dir) }
        let binary = URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent()
        directories.append(binary.deletingLastPathComponent().appendingPathComponent("share/vidrec/presets").path)
        var folder = binary
        for _ in 0..<6 {
            let candidate = folder.appendingPathComponent("presets")
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("high.json").path) {
                directories.append(candidate.path)
                break
            }
            folder.deleteLastPathComponent()
        }
        return directories
    }
}
