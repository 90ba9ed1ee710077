import Foundation
import VidrecALSA
import VidrecMedia
import VidrecSystem
import VidrecV4L2

/// `vidrec completions bash|zsh|fish`: print a completion script made from the same specs
/// as `--help`; `--values KIND` lists what the scripts complete at run time.
struct CompletionsCommand: VidrecCommand {
    /// The arguments, each declared once and read back through its key.
    enum Key {
        static let shell = ArgumentKey.positional("shell", optional: true, help: "bash, zsh or fish.")
        static let values = ArgumentKey.option("values", value: "kind", help: "List one kind of value, one a line: presets, cameras, microphones, pending, running or album.")
    }

    static let spec = CommandSpec(
        name: "completions",
        abstract: "Print a shell completion script (bash, zsh or fish).",
        discussion: """
        Load it in your shell: 'source <(vidrec completions bash)', 'vidrec completions zsh > \
        ~/.zfunc/_vidrec' (a folder on $fpath), 'vidrec completions fish > \
        ~/.config/fish/completions/vidrec.fish'. make install and the package install all \
        three. The scripts complete subcommands, options and their values: preset names, \
        cameras, microphones, pending IDs and album names, which they ask of vidrec with \
        --values.
        """,
        arguments: [
            Key.shell.spec,
            Key.values.spec,
        ])

    enum Action {
        case script(CompletionScript.Shell)
        case values(CompletionValues.Kind)
    }

    var action: Action

    init(_ arguments: ParsedArguments) throws(ParserError) {
        switch (arguments[Key.shell], arguments[Key.values]) {
        case (let shell?, nil):
            guard let known = CompletionScript.Shell(rawValue: shell) else {
                throw .invalidValue(shell, for: "<shell>", reason: "say bash, zsh or fish")
            }
            action = .script(known)
        case (nil, let kind?):
            guard let known = CompletionValues.Kind(rawValue: kind) else {
                throw .invalidValue(kind, for: "--values <kind>",
                                    reason: "say \(CompletionValues.Kind.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            action = .values(known)
        case (nil, nil):
            throw .missingArgument("<shell>")
        case (_?, _?):
            throw .conflicting("<shell>", "--values <kind>")
        }
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        switch action {
        case .script(let shell):
            context.out(CompletionScript(commands: VidrecCLI.allSpecs).render(for: shell))
        case .values(let kind):
            // Only names that print as they are: a completion never writes a control
            // character to the terminal.
            for value in values(kind, context) where !value.isEmpty && !TextSafety.hasControlCharacters(value) {
                context.out(value + "\n")
            }
        }
        return .success
    }

    private func values(_ kind: CompletionValues.Kind, _ context: CommandContext) -> [String] {
        switch kind {
        case .presets:
            return context.presetLibrary.availableNames()
        case .cameras:
            return CameraDiscovery().cameras().map(\.path) + ["test", "test:mjpeg", "test:h264"]
        case .microphones:
            return ["default"] + MicrophoneDiscovery().microphones().map(\.name) + ["test", "none"]
        case .pending:
            return ((try? context.store().list()) ?? []).map(\.id)
        case .running:
            return ((try? context.store().list()) ?? []).filter { $0.state == .recording }.map(\.id)
        case .album:
            return ((try? context.albumCatalog(nil).items()) ?? []).map(\.name)
        }
    }
}
