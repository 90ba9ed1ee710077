/// The command of a hook (`--on-saved`, `--on-event`, `--on-failure`), split into an
/// argv the way systemd splits `ExecStart=`, and run without a shell:
///
/// - words are separated by spaces and tabs;
/// - `"…"` and `'…'` quote, anywhere in a word (`a"b c"` is the one word `ab c`);
/// - a backslash escapes the next character (`\ `, `\"`, `\'`, `\\`, `\$`), and `\n`,
///   `\t` are a newline and a tab, in or out of double quotes (in single quotes
///   everything is literal);
/// - a word that is only `$NAME` or `${NAME}` (quoted or not) is replaced, when the
///   hook runs, by that variable of the hook's environment (``HookRunner`` sets
///   `VIDREC_FILE` and the others), as one argument even when it holds spaces (systemd
///   would split `$NAME`); an unset variable is an empty argument. A `$` anywhere else
///   is kept as it is, for the program to read: `sh -c 'mv "$VIDREC_FILE" /srv'` gets
///   the file name from its environment, never pasted into its script, so no file name
///   can become shell code;
/// - the first word is the program: a path, or a name looked up in `PATH`. systemd's
///   prefixes (`-`, `@`, `+`, `!`) and `%` specifiers mean nothing here.
struct HookCommandLine: Sendable, Equatable {
    /// One piece of a word while it is read: text as it is, or a variable's name and
    /// how it was written.
    private enum Piece {
        case text(String)
        case variable(String, written: String)
    }

    /// One word of the command.
    enum Word: Sendable, Equatable {
        /// Text as it is.
        case text(String)
        /// A variable's value when the hook runs.
        case variable(String)
    }

    /// Why a command cannot be split.
    enum Problem: Error, CustomStringConvertible {
        case empty
        case unclosedQuote(Character)
        case trailingBackslash
        case unknownEscape(Character)

        var description: String {
            switch self {
            case .empty: "it names no program; give one, such as '/usr/local/bin/notify \"$VIDREC_FILE\"'"
            case .unclosedQuote(let quote): "a \(quote) quote is not closed; close it, or escape it with a backslash"
            case .trailingBackslash: "it ends with a backslash; remove it, or escape it as \\\\"
            case .unknownEscape(let character): "'\\\(character)' is not an escape vidrec knows (\\\\, \\\", \\', \\ , \\$, \\n, \\t)"
            }
        }
    }

    /// The words.
    let words: [Word]

    /// Splits `text`.
    ///
    /// - Throws: ``Problem`` for an empty command, an unclosed quote, an unknown escape
    ///   or a trailing backslash.
    init(parsing text: String) throws(Problem) {
        var words: [Word] = []
        var word: [Piece] = []
        var literal = ""
        var inWord = false
        var quote: Character?
        var characters = text[...]
        func flushLiteral() {
            if !literal.isEmpty { word.append(.text(literal)); literal = "" }
        }
        while let character = characters.popFirst() {
            if quote == "'" {
                if character == "'" { quote = nil } else { literal.append(character) }
                continue
            }
            switch character {
            case " ", "\t", "\n":
                if quote != nil {
                    literal.append(character)
                } else if inWord {
                    flushLiteral()
                    words.append(Self.word(word))
                    word = []
                    inWord = false
                }
            case "\"":
                inWord = true
                quote = quote == nil ? "\"" : nil
            case "'" where quote == nil:
                inWord = true
                quote = "'"
            case "\\":
                inWord = true
                literal.append(try Self.escaped(characters.popFirst()))
            case "$":
                inWord = true
                if let variable = Self.variable(after: &characters) {
                    flushLiteral()
                    word.append(variable)
                } else {
                    literal.append("$")
                }
            default:
                inWord = true
                literal.append(character)
            }
        }
        if let quote { throw .unclosedQuote(quote) }
        if inWord {
            flushLiteral()
            words.append(Self.word(word))
        }
        guard !words.isEmpty else { throw .empty }
        self.words = words
    }

    /// What a backslash followed by `next` stands for.
    private static func escaped(_ next: Character?) throws(Problem) -> Character {
        guard let next else { throw .trailingBackslash }
        switch next {
        case "n": return "\n"
        case "t": return "\t"
        case "\\", "\"", "'", " ", "$": return next
        default: throw .unknownEscape(next)
        }
    }

    /// The variable named after a `$` (`NAME` or `{NAME}`), taken from `characters`;
    /// `nil`, and nothing taken, when no name follows.
    private static func variable(after characters: inout Substring) -> Piece? {
        if characters.first == "{", let close = characters.firstIndex(of: "}"),
           case let name = String(characters[characters.index(after: characters.startIndex)..<close]), isName(name) {
            characters = characters[characters.index(after: close)...]
            return .variable(name, written: "${\(name)}")
        }
        let name = String(characters.prefix { $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) })
        guard isName(name) else { return nil }
        characters = characters.dropFirst(name.count)
        return .variable(name, written: "$" + name)
    }

    /// Whether `name` is a variable's name: a letter or `_`, then letters, digits, `_`.
    private static func isName(_ name: String) -> Bool {
        guard let first = name.first, first == "_" || (first.isASCII && first.isLetter) else { return false }
        return name.allSatisfy { $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }
    }

    /// A word from its pieces: a variable when it is one alone, else text with every
    /// `$` as it was written.
    private static func word(_ pieces: [Piece]) -> Word {
        if pieces.count == 1, case let .variable(name, _) = pieces[0] { return .variable(name) }
        return .text(pieces.map { piece in
            switch piece {
            case .text(let text): text
            case .variable(_, let written): written
            }
        }.joined())
    }

    /// The argv, with each variable word replaced by its value in `environment`.
    func arguments(in environment: [String: String]) -> [String] {
        words.map { word in
            switch word {
            case .text(let text): text
            case .variable(let name): environment[name] ?? ""
            }
        }
    }
}
