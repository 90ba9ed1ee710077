import Foundation
import Testing

/// No function in `Sources/` runs over ``limit`` lines, from its declaration to its
/// closing brace, nor one in `Tests/` or the page's script: a longer one does several
/// things, each of which wants a name.
@Suite struct FunctionLengthTests {
    static let limit = 60

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let sources = repository.appendingPathComponent("Sources").path
    static let tests = repository.appendingPathComponent("Tests").path
    static let pageScript = repository.appendingPathComponent("Sources/CVidrecPage/page/app.js").path

    /// A JavaScript function's declaration: `function name`.
    static let scriptDeclaration = try! NSRegularExpression(pattern: #"^\s*(?:async\s+)?(function\s+[\w$]+)"#)

    /// A string literal in JavaScript: in single, double or back quotes.
    static let scriptLiteral = try! NSRegularExpression(pattern: #""(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'|`(?:\\.|[^`\\])*`"#)

    /// A function's, initializer's or deinitializer's declaration: its kind and name.
    static let declaration = try! NSRegularExpression(
        pattern: #"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|private|fileprivate|internal|static|class|override|mutating|nonisolated|final|convenience|required)\s+)*(func\s+[^\s(<]+|init[?!]?|deinit)"#)

    /// What opens and closes a multi-line string literal.
    static let tripleQuote = String(repeating: "\"", count: 3)

    /// A string literal in Swift on one line: raw (`#"…"#`, which may hold quotes) or
    /// plain.
    static let literal = try! NSRegularExpression(pattern: ##"#+".*?"#+|"(?:\\.|[^"\\])*""##)

    /// Each function in the Swift source `text` that runs over `limit` lines, by its
    /// declaration (`func name`, `init`), with its length: from the declaration's line
    /// to the line of the brace that closes its body, counting braces outside string
    /// literals (multi-line ones too) and comments.
    /// (`declaration` and `literal` say what a declaration and a string literal look
    /// like: Swift's by default.)
    static func longFunctions(in text: String, limit: Int, declaration: NSRegularExpression = declaration,
                              literal: NSRegularExpression = literal) -> [(name: String, lines: Int)] {
        let lines = text.components(separatedBy: "\n")
        // Each line with its string literals emptied and its comment left out; the lines
        // of a multi-line literal (`"""` to `"""`) are empty.
        var inLiteral = false
        let code = lines.map { whole -> String in
            var line = whole
            if inLiteral {
                guard let close = line.range(of: tripleQuote) else { return "" }
                line = String(line[close.upperBound...])
                inLiteral = false
            }
            if let open = line.range(of: tripleQuote), line[open.upperBound...].range(of: tripleQuote) == nil {
                line = String(line[..<open.lowerBound])
                inLiteral = true
            }
            let bare = literal.stringByReplacingMatches(in: line, range: NSRange(line.startIndex..., in: line), withTemplate: "\"\"")
            return bare.components(separatedBy: "//").first ?? bare
        }
        var found: [(String, Int)] = []
        for (start, line) in code.enumerated() {
            guard let match = declaration.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) else { continue }
            var depth = 0, opened = false, end = start
            scan: while end < code.count {
                // A protocol's requirement has no body: a blank line, the next
                // declaration or the protocol's closing brace comes before any brace.
                if !opened && end > start
                    && (code[end].trimmingCharacters(in: .whitespaces).isEmpty
                        || declaration.firstMatch(in: code[end], range: NSRange(code[end].startIndex..., in: code[end])) != nil) { break }
                for character in code[end] {
                    if character == "{" { depth += 1; opened = true }
                    if character == "}" { depth -= 1 }
                    if depth < 0 || opened && depth == 0 { break scan }
                }
                end += 1
            }
            guard opened, depth == 0 else { continue }
            let length = end - start + 1
            if length > limit { found.append(((line as NSString).substring(with: match.range(at: 1)), length)) }
        }
        return found
    }

    /// Every function over the limit in the Swift files under `folder`, by `file: declaration`.
    static func longFunctions(under folder: String) throws -> [String: Int] {
        var found: [String: Int] = [:]
        let files = FileManager.default.enumerator(atPath: folder)?.compactMap { $0 as? String } ?? []
        for file in files where file.hasSuffix(".swift") {
            for (name, lines) in longFunctions(in: try String(contentsOfFile: folder + "/" + file, encoding: .utf8), limit: limit) {
                found["\(file): \(name)"] = max(found["\(file): \(name)"] ?? 0, lines)
            }
        }
        return found
    }

    @Test func noFunctionRunsOverTheLimit() throws {
        let found = try Self.longFunctions(under: Self.sources)
        #expect(found.isEmpty, "functions over \(Self.limit) lines; split them: \(found)")
    }

    @Test func noTestFunctionRunsOverTheLimit() throws {
        let found = try Self.longFunctions(under: Self.tests)
        #expect(found.isEmpty, "test functions over \(Self.limit) lines; split them: \(found)")
    }

    @Test func noFunctionOfThePagesScriptRunsOverTheLimit() throws {
        let script = try String(contentsOfFile: Self.pageScript, encoding: .utf8)
        let found = Self.longFunctions(in: script, limit: Self.limit, declaration: Self.scriptDeclaration, literal: Self.scriptLiteral)
        #expect(found.isEmpty, "the page's script: functions over \(Self.limit) lines; split them: \(found)")
        // The scan finds the script's functions: a limit of 1 line lists every one.
        let every = Self.longFunctions(in: script, limit: 1, declaration: Self.scriptDeclaration, literal: Self.scriptLiteral)
        #expect(every.count >= 10 && every.allSatisfy { $0.name.hasPrefix("function ") }, "\(every)")
    }

    /// The scan measures what it should: it is not a test that cannot fail.
    @Test func theScanMeasuresFromTheDeclarationToItsClosingBrace() {
        let body = Array(repeating: "        total += 1  // }", count: 60).joined(separator: "\n")
        let text = """
            struct Example {
                /// Not counted: a doc comment.
                public static func long(_ x: Int) -> Int {
                    var total = "{"
            \(body)
                    return total
                }
                func short() { print("}") }
                init() {}
            }
            protocol Shape {
                func area() -> Double
                func corners() -> Int
            }
            struct Square: Shape {
                func area() -> Double { 1 }
                func corners() -> Int { 4 }
            }
            """
        let found = Self.longFunctions(in: text, limit: 60)
        #expect(found.map(\.name) == ["func long"] && found.map(\.lines) == [64], "\(found)")
        // Braces in a raw string or a multi-line literal are text, not code, and so is a
        // declaration there: each function below is 5 lines.
        let quotes = Self.tripleQuote
        let literals = """
            func raw() {
                let json = #"{ "name": "x" }"#
                let more = #"{"#
                print(json, more)
            }
            func multiline() {
                let text = \(quotes)
                    func inside() { {
                    \(quotes)
            }
            """
        #expect(Self.longFunctions(in: literals, limit: 1).map { "\($0.name) \($0.lines)" } == ["func raw 5", "func multiline 5"])
    }
}
