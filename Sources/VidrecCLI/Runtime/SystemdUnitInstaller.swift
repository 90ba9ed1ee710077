import Foundation
import VidrecCore
import VidrecMedia
import VidrecSystem

/// Prints systemd user units (`schedule --systemd`, `service`), or writes them into the
/// user's unit folder and says how to enable them. Writing never replaces a unit that
/// says something else: units of the same name are left as they are, and nothing is
/// written.
struct SystemdUnitInstaller {
    /// The units, the timer (if any) last.
    var units: [SystemdUnit]
    /// The unit `systemctl --user enable --now` starts: the timer, or the service.
    var entryPoint: String
    /// The start options' secrets, for an environment file beside the units (0600).
    var secrets: SystemdSecrets? = nil

    /// Prints the units, each after a comment naming where it goes (and the secrets'
    /// environment file with its values redacted); with `install`, writes them there
    /// instead and prints their paths.
    func run(install: Bool, _ context: CommandContext) throws -> ExitCode {
        let folder = context.paths.systemdUserUnitDirectory
        guard install else {
            var printed = units.map { "# \(folder)/\($0.fileName)\n\($0.text)" }
            if let secrets {
                printed.append("# \(secrets.path) (mode 0600; --install writes it with the values)\n\(secrets.shownText)")
            }
            context.out(printed.joined(separator: "\n"))
            return .success
        }
        var files = units.map { (path: folder + "/" + $0.fileName, text: $0.text) }
        if let secrets { files.append((secrets.path, secrets.text)) }
        var toWrite: [(path: String, text: String)] = []
        for file in files {
            guard FileManager.default.fileExists(atPath: file.path) else { toWrite.append(file); continue }
            guard let existing = FileManager.default.contents(atPath: file.path) else {
                throw CLIError("cannot read \(file.path), which is in the way; nothing was written: check its permissions, or choose another --name", .cannotCreate)
            }
            if existing != Data(file.text.utf8) {
                throw CLIError("\(file.path) exists and says something else; nothing was written: choose another --name, or remove it first (systemctl --user disable --now \(entryPoint); rm \(file.path))", .cannotCreate)
            }
        }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            if let secrets { try PrivateFolder.prepare((secrets.path as NSString).deletingLastPathComponent) }
            for file in toWrite {
                // Written 0600, as every atomic file: the environment file holds keys.
                try AtomicFile.write(Data(file.text.utf8), to: file.path, durable: true)
            }
        } catch {
            throw CLIError("cannot write the unit into \(folder): \(error); fix the folder's permissions", .cannotCreate)
        }
        if toWrite.isEmpty {
            context.err("vidrec: the units are already installed\n")
        } else {
            context.err("""
                vidrec: installed; start it with: systemctl --user daemon-reload && systemctl --user enable --now \(entryPoint)
                vidrec: to run it when no one is logged in: loginctl enable-linger $USER

                """)
        }
        for file in files { context.out(file.path + "\n") }
        return .success
    }
}
