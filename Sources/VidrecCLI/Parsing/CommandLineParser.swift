import VidrecCore
import VidrecMedia

/// Parses a subcommand's arguments strictly, the way swift-argument-parser does:
/// `--opt value` and `--opt=value`, `-x value`, flags, positionals in order, `--` to end
/// options; anything unknown, missing or repeated is a ``ParserError``.
public struct CommandLineParser: Sendable {
    /// The command being parsed.
    public let spec: CommandSpec

    /// Creates a parser for `spec`.
    public init(spec: CommandSpec) { self.spec = spec }

    /// Parses `arguments` (without the program and subcommand names).
    public func parse(_ arguments: [String]) throws(ParserError) -> ParsedArguments {
        var result = ParsedArguments()
        let positionals = spec.arguments.filter { if case .positional = $0.kind { true } else { false } }
        var nextPositional = 0
        var index = 0
        var optionsEnded = false
        for (at, argument) in arguments.enumerated() {
            if spec.passesRest, argument == "--" { break }  // what follows is checked by the command it is for
            try refuseControlCharacters(argument, at: at, in: arguments, positionals: positionals)
        }
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if !optionsEnded, argument == "--" {
                optionsEnded = true
                if spec.passesRest {
                    result.rest = Array(arguments[index...])
                    break
                }
                continue
            }
            if !optionsEnded, argument.hasPrefix("-"), argument.count > 1, !isNegativeNumber(argument) {
                if argument == "--help" || argument == "-h" { result.wantsHelp = true; continue }
                let (option, inlineValue) = try namedOption(in: argument)
                try record(option, argument, inlineValue: inlineValue, from: arguments, at: &index, into: &result)
                continue
            }
            guard nextPositional < positionals.count else { throw .unexpectedArgument(argument) }
            result.positionals[positionals[nextPositional].name] = argument
            nextPositional += 1
        }
        if !result.wantsHelp {
            for positional in positionals[nextPositional...] where positional.kind == .positional(optional: false) {
                throw .missingArgument(positional.synopsis)
            }
        }
        return result
    }

    /// The option `argument` names (`--name`, `--name=value` or `-q`), and its value
    /// when it is given inline.
    private func namedOption(in argument: String) throws(ParserError) -> (spec: ArgumentSpec, inlineValue: String?) {
        var name: String
        var inlineValue: String?
        if argument.hasPrefix("--") {
            name = String(argument.dropFirst(2))
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
        } else {
            let letter = argument.dropFirst().first!
            guard argument.count == 2, let spec = spec.arguments.first(where: { $0.short == letter }) else {
                throw .unknownOption(argument, suggestion: nil)
            }
            name = spec.name
        }
        guard let option = spec.arguments.first(where: { $0.name == name && $0.kind != .positional(optional: true) && $0.kind != .positional(optional: false) }) else {
            let names = spec.arguments.compactMap { if case .positional = $0.kind { nil } else { "--" + $0.name } } + ["--help"]
            let asked = "--" + name
            throw .unknownOption(argument.hasPrefix("--") ? asked : argument,
                                 suggestion: Suggestion.closest(to: asked, in: names))
        }
        return (option, inlineValue)
    }

    /// Records `option` (given as `argument`) in `result`: a flag once, an option's value
    /// inline or from `arguments[index]` (moving `index` past it).
    private func record(_ option: ArgumentSpec, _ argument: String, inlineValue: String?, from arguments: [String], at index: inout Int,
                        into result: inout ParsedArguments) throws(ParserError) {
        let name = option.name
        switch option.kind {
        case .flag:
            if inlineValue != nil { throw .unexpectedArgument(argument) }
            if result.flags.contains(name) { throw .duplicateOption(option.synopsis) }
            result.flags.insert(name)
        case .option:
            if result.options[name] != nil, !option.isRepeatable { throw .duplicateOption(option.synopsis) }
            if let inlineValue {
                guard !inlineValue.isEmpty else { throw .missingValue(option.synopsis) }
                result.options[name] = inlineValue
            } else {
                guard index < arguments.count, !looksLikeOption(arguments[index]) else {
                    throw .missingValue(option.synopsis)
                }
                result.options[name] = arguments[index]
                index += 1
            }
            if option.isRepeatable { result.repeated[name, default: []].append(result.options[name]!) }
        case .positional:
            preconditionFailure("positionals are not matched by name")
        }
    }

    /// No argument may hold a control character (a newline, tab, escape): each becomes a
    /// file name, a crontab line or terminal output somewhere. The error names the option
    /// the value belongs to, or the positional it would be.
    private func refuseControlCharacters(_ argument: String, at index: Int, in arguments: [String],
                                         positionals: [ArgumentSpec]) throws(ParserError) {
        guard TextSafety.hasControlCharacters(argument) else { return }
        // The positional it would be: the words before it that are neither options nor their values.
        var words = 0, skip = false
        for earlier in arguments[..<index] {
            if skip { skip = false; continue }
            if earlier.hasPrefix("-"), earlier.count > 1 {
                let name = earlier.hasPrefix("--") ? String(earlier.dropFirst(2)) : ""
                skip = !earlier.contains("=") && spec.arguments.contains {
                    if case .option = $0.kind { ("--" + $0.name == earlier) || $0.short.map { "-\($0)" } == earlier || $0.name == name } else { false }
                }
                continue
            }
            words += 1
        }
        var owner = words < positionals.count ? positionals[words].synopsis : "an argument"
        if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
            let name = String(argument[argument.index(argument.startIndex, offsetBy: 2)..<equals])
            owner = spec.arguments.first { $0.name == name }?.synopsis ?? owner
        } else if index > 0, arguments[index - 1].hasPrefix("-") {
            let previous = arguments[index - 1]
            owner = spec.arguments.first { "--" + $0.name == previous || $0.short.map { "-\($0)" } == previous }?.synopsis ?? owner
        }
        throw .invalidValue(argument, for: owner, reason: "it holds a control character (a newline, tab or escape); remove it")
    }

    private func looksLikeOption(_ text: String) -> Bool {
        text.hasPrefix("-") && text.count > 1 && !isNegativeNumber(text)
    }

    /// `-1` and `-0.5` are values (so that `--max -1` reports an invalid value, not a
    /// missing one).
    private func isNegativeNumber(_ text: String) -> Bool {
        text.hasPrefix("-") && text.dropFirst().allSatisfy { $0.isNumber || $0 == "." } && text.count > 1
    }
}
