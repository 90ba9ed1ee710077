import VidrecCore
import VidrecMedia
import VidrecSystem

/// `vidrec manual`: print the `vidrec(1)` manual page (roff), made from the same
/// specs as `--help`; `make install` and the package install it.
struct ManualCommand: VidrecCommand {
    static let spec = CommandSpec(
        name: "manual",
        abstract: "Print the vidrec(1) manual page (roff): 'vidrec manual | man -l -'.",
        discussion: "The page is made from the same descriptions as --help, and lists the built-in presets this vidrec finds.",
        arguments: [])

    init(_ arguments: ParsedArguments) throws(ParserError) {}

    func run(_ context: CommandContext) throws -> ExitCode {
        let presets = context.builtinPresetLibrary.all().compactMap { name, result -> ManualPage.PresetEntry? in
            guard case .success(let preset) = result else { return nil }
            return ManualPage.PresetEntry(name: name, settings: preset.resolvedDescription, summary: preset.summary)
        }
        let page = ManualPage(version: VidrecCLI.version, overview: UsageRenderer.overview,
                              commands: VidrecCLI.allSpecs, presets: presets)
        context.out(page.render())
        return .success
    }
}
