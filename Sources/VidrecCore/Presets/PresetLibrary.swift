import Foundation

/// Finds presets by name in the user's folder and the built-in folders, or by path.
///
/// A user preset (`$XDG_CONFIG_HOME/vidrec/presets/NAME.json`) overrides a built-in
/// one of the same name.
public struct PresetLibrary: Sendable {
    /// Folders searched for `NAME.json`, in order.
    public let directories: [String]
    private let parser: PresetParser

    /// Creates a library over `directories` (user folder first).
    public init(directories: [String], parser: PresetParser) {
        self.directories = directories
        self.parser = parser
    }

    /// Resolves `--quality`: a path (it contains `/` or ends in `.json`) or a name.
    public func preset(named nameOrPath: String) throws(PresetError) -> Preset {
        if nameOrPath.contains("/") || nameOrPath.hasSuffix(".json") {
            let name = URL(fileURLWithPath: nameOrPath).deletingPathExtension().lastPathComponent
            return try parser.parse(file: nameOrPath, name: name)
        }
        for directory in directories {
            let file = directory + "/" + nameOrPath + ".json"
            if FileManager.default.fileExists(atPath: file) {
                return try parser.parse(file: file, name: nameOrPath)
            }
        }
        let names = availableNames()
        throw .unknown(name: nameOrPath, available: names, suggestion: Suggestion.closest(to: nameOrPath, in: names))
    }

    /// Every preset name, the built-in quality names first, then sizes, then the rest.
    public func availableNames() -> [String] {
        var names: Set<String> = []
        for directory in directories {
            let files = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            for file in files where file.hasSuffix(".json") && !file.hasPrefix(".") {
                names.insert(String(file.dropLast(5)))
            }
        }
        let order = ["low", "medium", "high"]
        return names.sorted { a, b in
            let ia = order.firstIndex(of: a) ?? order.count, ib = order.firstIndex(of: b) ?? order.count
            if ia != ib { return ia < ib }
            let wa = Int(a.split(separator: "x").first ?? "") ?? Int.max
            let wb = Int(b.split(separator: "x").first ?? "") ?? Int.max
            return wa != wb ? wa < wb : a < b
        }
    }

    /// Every preset, each resolved (or the error that stops it from resolving).
    public func all() -> [(name: String, result: Result<Preset, PresetError>)] {
        availableNames().map { name in
            (name, Result { () throws(PresetError) -> Preset in try preset(named: name) })
        }
    }
}
