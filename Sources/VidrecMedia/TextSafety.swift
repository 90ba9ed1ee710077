/// The rules for text that comes from outside (command lines, file names, state files)
/// and goes back out to a terminal, a file name or a crontab line.
public enum TextSafety {
    /// Whether `text` holds a control character: C0 (newline, tab, ESC …), DEL or C1
    /// (U+0080–U+009F, which some terminals read as escape sequences).
    public static func hasControlCharacters(_ text: String) -> Bool {
        text.unicodeScalars.contains(where: isControl)
    }

    /// `text` with every control character shown as an escape (`\n`, `\t`, `\u{1B}`),
    /// for printing names vidrec did not choose (files a user put in the album, values
    /// from a command line) without letting them move the cursor or change colours.
    public static func printable(_ text: String) -> String {
        guard hasControlCharacters(text) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            case _ where isControl(scalar): result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Whether `text` is a plain word that needs no quoting for a shell or a systemd
    /// command line: not empty, and only ASCII letters, digits and `-_./:=@,+` (read as
    /// Unicode scalars, as a shell reads bytes).
    public static func isPlainWord(_ text: String) -> Bool {
        !text.isEmpty && text.unicodeScalars.allSatisfy { plainScalars.contains($0) }
    }

    private static let plainScalars = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=@,+".unicodeScalars)

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
