import Foundation
import VidrecCore
import VidrecMedia
import VidrecSystem

/// `vidrec presets`: list quality presets with what each resolves to.
struct PresetsCommand: VidrecCommand {
    static let spec = CommandSpec(
        name: "presets",
        abstract: "List quality presets and the settings each resolves to.",
        discussion: "Presets are JSON files; your own go in $XDG_CONFIG_HOME/vidrec/presets (~/.config/vidrec/presets) and override built-in ones of the same name.",
        arguments: [])

    init(_ arguments: ParsedArguments) throws(ParserError) {}

    func run(_ context: CommandContext) throws -> ExitCode {
        let library = context.presetLibrary
        var broken = false
        for (name, result) in library.all() {
            switch result {
            case .success(let preset):
                context.out("\(name.padding(toLength: 10, withPad: " ", startingAt: 0)) \(preset.resolvedDescription)\n")
                if !preset.summary.isEmpty { context.out("           \(preset.summary)\n") }
                context.out("           \(preset.file)\n")
            case .failure(let error):
                broken = true
                context.out("\(name.padding(toLength: 10, withPad: " ", startingAt: 0)) BROKEN: \(error)\n")
            }
        }
        if library.availableNames().isEmpty {
            throw CLIError("no presets found in \(library.directories.joined(separator: ", ")); reinstall vidrec or set VIDREC_PRESETS_DIR", .dataError)
        }
        return broken ? .dataError : .success
    }
}
