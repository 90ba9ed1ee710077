import Foundation
import Testing

/// No function in `Sources/` runs over ``limit`` lines, from its declaration to its
/// closing brace: a longer one does several things, each of which wants a name. The
/// functions still longer are listed in ``waiting`` with their length, which may only
/// shrink; one split below the limit must leave the list, so that it only gets shorter.
@Suite struct FunctionLengthTests {
    static let limit = 60

    /// The functions over the limit that wait to be split, by `file: declaration`, with
    /// their length in lines.
    static let waiting: [String: Int] = [:]

    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources").path

    /// A function's, initializer's or deinitializer's declaration: its kind and name.
    static let declaration = try! NSRegularExpression(
        pattern: #"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|private|fileprivate|internal|static|class|override|mutating|nonisolated|final|convenience|required)\s+)*(func\s+[^\s(<]+|init[?!]?|deinit)"#)

    /// Each function in the Swift source `text` that runs over `limit` lines, by its
    /// declaration (`func name`, `init`), with its length: from the declaration's line
    /// to the line of the brace that closes its body, counting braces outside string
    /// literals and comments.
    static func longFunctions(in text: String, limit: Int) -> [(name: String, lines: Int)] {
        let lines = text.components(separatedBy: "\n")
        let literal = try! NSRegularExpression(pattern: #""(?:\\.|[^"\\])*""#)
        let code = lines.map { line -> String in
            let bare = literal.stringByReplacingMatches(in: line, range: NSRange(line.startIndex..., in: line), withTemplate: "\"\"")
            return bare.components(separatedBy: "//").first ?? bare
        }
        var found: [(String, Int)] = []
        for (start, line) in lines.enumerated() {
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

    @Test func noFunctionRunsOverTheLimitButThoseWaitingAndTheyDoNotGrow() throws {
        let found = try Self.longFunctions(under: Self.sources)
        let new = found.filter { Self.waiting[$0.key] == nil }
        #expect(new.isEmpty, "functions over \(Self.limit) lines; split them: \(new)")
        let grown = found.filter { name, lines in Self.waiting[name].map { lines > $0 } ?? false }
        #expect(grown.isEmpty, "waiting functions that grew: \(grown)")
        let split = Self.waiting.keys.filter { found[$0] == nil }
        #expect(split.isEmpty, "now within the limit; take them off the waiting list: \(split)")
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
    }
}
