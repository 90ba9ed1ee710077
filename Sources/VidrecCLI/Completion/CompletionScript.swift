/// A shell's completion script for vidrec, made from the same ``CommandSpec``s as
/// `--help`: subcommands, options, fixed values, files and folders, and values vidrec
/// lists when asked (`vidrec completions --values presets|cameras|…`).
///
/// Listed values are never evaluated by the shell (a name in the album may hold `$(…)`):
/// bash reads them line by line, zsh splits them on newlines, fish takes the lines.
struct CompletionScript {
    /// The shells there is a script for.
    enum Shell: String, CaseIterable {
        case bash, zsh, fish
    }

    var commands: [CommandSpec]

    /// The script for `shell`.
    func render(for shell: Shell) -> String {
        switch shell {
        case .bash: bash()
        case .zsh: zsh()
        case .fish: fish()
        }
    }

    private var subcommandNames: [String] { commands.flatMap(\.names) }

    private func values(_ argument: ArgumentSpec, _ command: CommandSpec) -> CompletionValues {
        CompletionValues.of(argument, in: command.name, subcommands: subcommandNames)
    }

    /// The first sentence of a help text, for a shell's one-line description.
    static func summary(_ help: String) -> String {
        var text = help
        if let end = text.range(of: ". ") { text = String(text[..<end.lowerBound]) }
        if text.hasSuffix(".") { text.removeLast() }
        return text.count > 80 ? String(text.prefix(79)) + "…" : text
    }

    /// `text` inside single quotes for sh, bash, zsh and fish alike.
    static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }

    /// `text` inside single quotes for bash and zsh, where a backslash is literal.
    static func shQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    // MARK: bash

    private func bash() -> String {
        var lines = [
            "# bash completion for vidrec; made by `vidrec completions bash`.",
            "_vidrec_listed() {",
            "    local line",
            "    while IFS= read -r line; do",
            "        [[ $line == \"$cur\"* ]] && COMPREPLY+=(\"$(printf '%q' \"$line\")\")",
            "    done < <(\"${COMP_WORDS[0]}\" completions --values \"$1\" 2>/dev/null)",
            "}",
            "_vidrec() {",
            "    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}",
            "    COMPREPLY=()",
            "    # --name=value: bash splits at '='.",
            "    if [[ $cur == = ]]; then cur=\"\"",
            "    elif [[ $prev == = ]]; then prev=${COMP_WORDS[COMP_CWORD-2]}; fi",
            "    if (( COMP_CWORD == 1 )); then",
            "        COMPREPLY=($(compgen -W \(Self.shQuoted((subcommandNames + ["--help", "--version"]).joined(separator: " "))) -- \"$cur\"))",
            "        return",
            "    fi",
            "    case ${COMP_WORDS[1]} in",
        ]
        for command in commands {
            lines.append("    \(command.names.joined(separator: "|")))")
            var valueCases: [String] = []
            var names: [String] = []
            var positional: CompletionValues = .none
            for argument in command.arguments {
                let spelled = ["--\(argument.name)"] + (argument.short.map { ["-\($0)"] } ?? [])
                switch argument.kind {
                case .positional:
                    if positional == .none { positional = values(argument, command) }
                case .flag:
                    names += spelled
                case .option:
                    names += spelled
                    valueCases.append("        \(spelled.joined(separator: "|"))) \(bashValues(values(argument, command))); return ;;")
                }
            }
            names.append("--help")
            if !valueCases.isEmpty {
                lines.append("        case $prev in")
                lines += valueCases
                lines.append("        esac")
            }
            lines.append("        if [[ $cur == -* ]]; then")
            lines.append("            COMPREPLY=($(compgen -W \(Self.shQuoted(names.joined(separator: " "))) -- \"$cur\"))")
            lines.append("        else")
            lines.append("            \(positional == .none ? ":" : bashValues(positional))")
            lines.append("        fi")
            lines.append("        ;;")
        }
        lines += ["    esac", "}", "complete -F _vidrec vidrec", ""]
        return lines.joined(separator: "\n")
    }

    private func bashValues(_ values: CompletionValues) -> String {
        switch values {
        case .none: ":"
        case .words(let words): "COMPREPLY=($(compgen -W \(Self.shQuoted(words.joined(separator: " "))) -- \"$cur\"))"
        case .files: "COMPREPLY=($(compgen -f -- \"$cur\")); compopt -o filenames"
        case .directories: "COMPREPLY=($(compgen -d -- \"$cur\")); compopt -o filenames"
        case .listed(let kind): "_vidrec_listed \(kind.rawValue)"
        }
    }

    // MARK: zsh

    private func zsh() -> String {
        var lines = [
            "#compdef vidrec",
            "# zsh completion for vidrec; made by `vidrec completions zsh`.",
            "# _vidrec_listed [compadd options] KIND: what `vidrec completions --values KIND` lists.",
            "_vidrec_listed() {",
            "    local -a listed",
            "    listed=(${(f)\"$(${_vidrec_program:-vidrec} completions --values ${@[-1]} 2>/dev/null)\"})",
            "    compadd \"${@[1,-2]}\" -a listed",
            "}",
            "_vidrec() {",
            "    local -a subcommands",
            "    subcommands=(",
        ]
        for command in commands {
            for name in command.names {
                lines.append("        \(Self.shQuoted(name + ":" + Self.zshEscaped(Self.summary(command.abstract))))")
            }
        }
        lines += [
            "    )",
            "    if (( CURRENT == 2 )); then",
            "        if [[ $PREFIX == -* ]]; then compadd -- --help --version; else _describe -t subcommands subcommand subcommands; fi",
            "        return",
            "    fi",
            "    local command=$words[2] _vidrec_program=$words[1]",
            "    # The subcommand's own line: its name first, as _arguments expects.",
            "    (( CURRENT-- )); shift words",
            "    case $command in",
        ]
        for command in commands {
            lines.append("    \(command.names.joined(separator: "|")))")
            let specs = command.arguments.map { zshSpec($0, of: command) } + ["'(-h --help)'{-h,--help}'[Show help information.]'"]
            lines.append("        _arguments -s " + specs.joined(separator: " \\\n            ") + " ;;")
        }
        lines += [
            "    esac",
            "}",
            "# Autoloaded from $fpath: complete now; sourced: register.",
            "if [[ $funcstack[1] == _vidrec ]]; then",
            "    _vidrec \"$@\"",
            "else",
            "    compdef _vidrec vidrec",
            "fi",
            "",
        ]
        return lines.joined(separator: "\n")
    }

    /// `argument`'s spec for zsh's `_arguments`: its name, its help's first sentence,
    /// and how its value completes.
    private func zshSpec(_ argument: ArgumentSpec, of command: CommandSpec) -> String {
        let description = "[" + Self.zshEscaped(Self.summary(argument.help)) + "]"
        switch argument.kind {
        case .flag:
            return Self.shQuoted("--\(argument.name)\(description)")
        case .option(let value):
            let action = zshAction(values(argument, command))
            let repeatable = argument.isRepeatable ? "*" : ""
            let spec = "\(description):\(Self.zshEscaped(value)):\(action)"
            if let short = argument.short {
                return Self.shQuoted("(-\(short) --\(argument.name))") + "{-\(short),--\(argument.name)=}" + Self.shQuoted(spec)
            }
            return Self.shQuoted("\(repeatable)--\(argument.name)=\(spec)")
        case .positional(let optional):
            let action = zshAction(values(argument, command))
            return Self.shQuoted("\(optional ? ":" : ""):\(Self.zshEscaped(argument.name)):\(action)")
        }
    }

    /// `:`, `[`, `]` and `\` escaped inside an `_arguments` spec.
    private static func zshEscaped(_ text: String) -> String {
        var out = ""
        for character in text {
            if "[]:\\".contains(character) { out.append("\\") }
            out.append(character)
        }
        return out
    }

    private func zshAction(_ values: CompletionValues) -> String {
        switch values {
        case .none: " "
        case .words(let words): "(\(words.joined(separator: " ")))"
        case .files: "_files"
        case .directories: "_files -/"
        case .listed(let kind): "_vidrec_listed \(kind.rawValue)"
        }
    }

    // MARK: fish

    private func fish() -> String {
        var lines = [
            "# fish completion for vidrec; made by `vidrec completions fish`.",
            "complete -c vidrec -f",
            "complete -c vidrec -n __fish_use_subcommand -l help -s h -d 'Show help information'",
            "complete -c vidrec -n __fish_use_subcommand -l version -d 'Show the version'",
        ]
        for command in commands {
            for name in command.names {
                lines.append("complete -c vidrec -n __fish_use_subcommand -a \(name) -d \(Self.quoted(Self.summary(command.abstract)))")
            }
            let condition = "-n " + Self.quoted("__fish_seen_subcommand_from " + command.names.joined(separator: " "))
            for argument in command.arguments {
                let description = "-d " + Self.quoted(Self.summary(argument.help))
                let short = argument.short.map { " -s \($0)" } ?? ""
                switch argument.kind {
                case .flag:
                    lines.append("complete -c vidrec \(condition) -l \(argument.name)\(short) \(description)")
                case .option:
                    lines.append("complete -c vidrec \(condition) -l \(argument.name)\(short) -r \(fishValues(values(argument, command))) \(description)")
                case .positional:
                    let listed = fishValues(values(argument, command))
                    if !listed.isEmpty && listed != "-f" { lines.append("complete -c vidrec \(condition) \(listed) \(description)") }
                }
            }
            lines.append("complete -c vidrec \(condition) -l help -s h -d 'Show help information'")
        }
        lines.append("")
        return lines.joined(separator: "\n")
    }

    private func fishValues(_ values: CompletionValues) -> String {
        switch values {
        case .none: "-f"
        case .words(let words): "-f -a " + Self.quoted(words.joined(separator: " "))
        case .files: "-F"
        case .directories: "-f -a '(__fish_complete_directories)'"
        case .listed(let kind): "-f -a " + Self.quoted("(vidrec completions --values \(kind.rawValue) 2>/dev/null)")
        }
    }
}
