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

    /// Prints the units, each after a comment naming where it goes; with `install`,
    /// writes them there instead and prints their paths.
    func run(install: Bool, _ context: CommandContext) throws -> ExitCode {
        let folder = context.paths.systemdUserUnitDirectory
        guard install else {
            context.out(units.map { "# \(folder)/\($0.fileName)\n\($0.text)" }.joined(separator: "\n"))
            return .success
        }
        var toWrite: [SystemdUnit] = []
        for unit in units {
            let path = folder + "/" + unit.fileName
            guard FileManager.default.fileExists(atPath: path) else { toWrite.append(unit); continue }
            guard let existing = FileManager.default.contents(atPath: path) else {
                throw CLIError("cannot read \(path), which is in the way; nothing was written: check its permissions, or choose another --name", .cannotCreate)
            }
            if existing != Data(unit.text.utf8) {
                throw CLIError("\(path) exists and says something else; nothing was written: choose another --name, or remove it first (systemctl --user disable --now \(entryPoint); rm \(path))", .cannotCreate)
            }
        }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for unit in toWrite {
                try AtomicFile.write(Data(unit.text.utf8), to: folder + "/" + unit.fileName, durable: true)
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
        for unit in units { context.out(folder + "/" + unit.fileName + "\n") }
        return .success
    }
}
