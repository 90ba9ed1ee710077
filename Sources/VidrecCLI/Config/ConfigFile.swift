import Foundation
import Glibc
import VidrecSystem

/// `$XDG_CONFIG_HOME/vidrec/config`: settings that would otherwise go on every command
/// line, one section per command, each key a long option without its dashes:
///
///     # the camera on the shelf
///     [start]
///     camera = /dev/v4l/by-id/usb-046d_C920-video-index0
///     quality = medium
///     segment = 10m
///     save = yes
///
///     [mqtt]
///     url = mqtt://broker.local/vidrec/shelf
///     credentials = /home/pi/.config/vidrec/mqtt
///
/// A value runs from after `=` to the end of its line, without the spaces around it;
/// `#` and `;` start a comment line; a flag takes `yes`/`no` (`true`/`false`, `on`/`off`);
/// a repeatable option may be given on several lines. `[mqtt]`'s `url` and
/// `credentials` are `--mqtt` and `--mqtt-credentials` of `start` and `serve`.
struct ConfigFile: Sendable {
    /// One `key = value` line.
    struct Entry: Sendable, Equatable {
        var key: String
        var value: String
        /// Its line number, from 1.
        var line: Int
    }

    /// The file's path, for messages.
    let path: String
    /// The entries of each section, in order.
    let sections: [String: [Entry]]

    /// The commands whose options a file sets, each in a section of its name.
    static let commandSections = ["start", "serve", "upload"]
    /// The sections a file may have: the commands', and `mqtt`.
    static let sectionNames = commandSections + ["mqtt"]

    /// Keys whose values may hold secrets (a stream key, a remote with its keys): a file
    /// with one of them must be its owner's alone to read (0600).
    static let secretKeys: Set<String> = ["live", "upload"]

    /// The file at `path`; `nil` when there is none.
    ///
    /// - Throws: ``ConfigProblem`` for a file that cannot be read, that others can
    ///   write, that others can read while it holds a secret, or that does not parse.
    static func load(_ path: String) throws(ConfigProblem) -> ConfigFile? {
        var status = stat()
        do {
            try systemCall(.stat, path) { stat(path, &status) }
        } catch where error.errno == ENOENT {
            return nil
        } catch {
            throw ConfigProblem(path: path, line: nil, reason: "cannot read it: \(error.reason)")
        }
        guard status.st_mode & S_IFMT == S_IFREG else { throw ConfigProblem(path: path, line: nil, reason: "it is not a regular file") }
        let mode = Int(status.st_mode & 0o777)
        if mode & 0o022 != 0 || (status.st_uid != getuid() && status.st_uid != 0) {
            throw ConfigProblem(path: path, line: nil, reason: String(format: "others can change it (mode %03o, owner %d): make it yours and chmod go-w %@", mode,
                                                                      Int(status.st_uid), path))
        }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw ConfigProblem(path: path, line: nil, reason: "it is not UTF-8 text")
        }
        let file = try parse(text, path: path)
        if mode & 0o044 != 0, let secret = file.sections.values.joined().first(where: { secretKeys.contains($0.key) }) {
            throw ConfigProblem(path: path, line: secret.line, reason: String(format: "'%@' may hold a secret, and others can read the file (mode %03o): chmod 600 %@",
                                                                             secret.key, mode, path))
        }
        return file
    }

    /// Reads the lines of a config file; `path` names it in messages.
    static func parse(_ text: String, path: String) throws(ConfigProblem) -> ConfigFile {
        var sections: [String: [Entry]] = [:]
        var current: String?
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces.union(CharacterSet(charactersIn: "\r")))
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") {
                let name = line.dropFirst().prefix { $0 != "]" }.trimmingCharacters(in: .whitespaces)
                guard line.hasSuffix("]"), sectionNames.contains(name) else {
                    throw ConfigProblem(path: path, line: index + 1,
                                        reason: "'\(line)' is not a section; the sections are " + sectionNames.map { "[\($0)]" }.joined(separator: ", "))
                }
                current = name
                continue
            }
            guard let equals = line.firstIndex(of: "=") else {
                throw ConfigProblem(path: path, line: index + 1, reason: "give key = value, a [section], or a # comment")
            }
            guard let section = current else {
                throw ConfigProblem(path: path, line: index + 1, reason: "a setting before any [section]; put it under [start], [serve], [upload] or [mqtt]")
            }
            var key = line[..<equals].trimmingCharacters(in: .whitespaces)
            if key.hasPrefix("--") { key.removeFirst(2) }
            let value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            sections[section, default: []].append(Entry(key: key, value: value, line: index + 1))
        }
        return ConfigFile(path: path, sections: sections)
    }

    /// The entries that set options of the command `name`, with `[mqtt]`'s under their
    /// option names for the commands that take `--mqtt`.
    func entries(for name: String, spec: CommandSpec) -> [Entry] {
        var entries = sections[name] ?? []
        if spec.arguments.contains(where: { $0.name == "mqtt" }) {
            let names = ["url": "mqtt", "credentials": "mqtt-credentials"]
            entries += (sections["mqtt"] ?? []).map { Entry(key: names[$0.key] ?? "mqtt.\($0.key)", value: $0.value, line: $0.line) }
        }
        return entries
    }
}
