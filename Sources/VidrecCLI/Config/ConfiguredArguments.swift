import VidrecCore

/// A command's arguments from its section of the config file (``ConfigFile``) and from
/// its command line, the command line winning: an option given there replaces the
/// file's value (a repeatable one, all of the file's values), a flag given there is set
/// whatever the file says. Each of the file's values gets the checks it would get on the
/// command line, and a bad one is said with the file's name and line.
struct ConfiguredArguments {
    /// The arguments the command runs with.
    var parsed: ParsedArguments
    /// Where each argument given came from, by name: `FILE line N`, or `command line`.
    var origins: [String: String] = [:]

    /// Whether any of the arguments came from the file.
    var usesFile: Bool { origins.values.contains { $0 != "command line" } }

    /// `commandLine` for `command`, with what `file` sets for it under it.
    static func merge(_ commandLine: ParsedArguments, command: any VidrecCommand.Type,
                      file: ConfigFile?) throws(ConfigProblem) -> ConfiguredArguments {
        let spec = command.spec
        var result = ConfiguredArguments(parsed: ParsedArguments())
        if let file, ConfigFile.commandSections.contains(spec.name) {
            for entry in file.entries(for: spec.name, spec: spec) {
                try result.add(entry, from: file, command: command)
            }
        }
        var merged = result.parsed
        for (name, value) in commandLine.options { merged.options[name] = value }
        for (name, values) in commandLine.repeated where !values.isEmpty { merged.repeated[name] = values }
        merged.flags.formUnion(commandLine.flags)
        (merged.positionals, merged.wantsHelp, merged.rest) = (commandLine.positionals, commandLine.wantsHelp, commandLine.rest)
        for name in Set(commandLine.options.keys).union(commandLine.flags).union(commandLine.repeated.keys) {
            result.origins[name] = "command line"
        }
        result.parsed = merged
        return result
    }

    /// Adds one of the file's lines, checked as the same option on the command line.
    private mutating func add(_ entry: ConfigFile.Entry, from file: ConfigFile, command: any VidrecCommand.Type) throws(ConfigProblem) {
        let spec = command.spec
        func problem(_ reason: String) -> ConfigProblem { ConfigProblem(path: file.path, line: entry.line, reason: reason) }
        let options = spec.arguments.filter { if case .positional = $0.kind { false } else { true } }
        guard let argument = options.first(where: { $0.name == entry.key }) else {
            if entry.key.hasPrefix("mqtt.") { throw problem("unknown key '\(entry.key.dropFirst(5))' in [mqtt]; the keys are url and credentials") }
            let hint = Suggestion.closest(to: entry.key, in: options.map(\.name)).map { " Did you mean '\($0)'?" } ?? ""
            throw problem("'\(entry.key)' is not an option of 'vidrec \(spec.name)'.\(hint) (Keys are long options without their dashes.)")
        }
        var single = ParsedArguments()
        switch argument.kind {
        case .flag:
            guard let on = Self.truth(entry.value) else { throw problem("\(entry.key) takes yes or no, not '\(entry.value)'") }
            if on { single.flags.insert(argument.name) }
        case .option where argument.isRepeatable:
            single.repeated[argument.name] = [entry.value]
        case .option:
            if let earlier = origins[argument.name] { throw problem("\(entry.key) is set twice (\(earlier) too); keep one") }
            single.options[argument.name] = entry.value
        case .positional:
            return
        }
        if entry.value.isEmpty, argument.kind != .flag { throw problem("\(entry.key) has no value; give one, or leave the line out") }
        if entry.value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw problem("\(entry.key)'s value holds a control character")
        }
        // The checks the option gets on the command line, alone: a combination that
        // does not fit is said once everything is merged.
        do throws(ParserError) {
            _ = try command.init(single)
        } catch {
            if case .invalidValue = error { throw problem(error.description) }
        }
        parsed.options.merge(single.options) { $1 }
        parsed.repeated.merge(single.repeated) { $0 + $1 }
        parsed.flags.formUnion(single.flags)
        origins[argument.name] = "\(file.path) line \(entry.line)"
    }

    /// A flag's value: `yes`, `true`, `on`, `1` or `no`, `false`, `off`, `0`.
    static func truth(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "yes", "true", "on", "1": true
        case "no", "false", "off", "0": false
        default: nil
        }
    }
}
