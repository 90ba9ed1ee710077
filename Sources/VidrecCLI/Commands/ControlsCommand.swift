import Foundation
import VidrecLibcamera
import VidrecMedia
import VidrecSystem
import VidrecV4L2

/// `vidrec controls`: a camera's V4L2 controls with their type, range, default and value;
/// with `--set` (or a shortcut), sets them at once and leaves them set.
struct ControlsCommand: VidrecCommand {
    /// The arguments, each declared once and read back through its key.
    enum Key {
        static let camera = ArgumentKey.option("camera", value: "camera", help: "A camera: /dev/videoN, an index or part of a name from 'vidrec devices', or libcamera:<id>. (default: the first camera)")
        static let json = ArgumentKey.flag("json", help: "Print JSON for scripts.")
    }

    static let spec = CommandSpec(
        name: "controls",
        abstract: "List a camera's controls (type, range, default and current value), or set them now.",
        discussion: "Set them for a recording with 'vidrec start --set NAME=VALUE' (or --focus, --exposure, --white-balance, --torch); vidrec sets back what it changed at the end of a recording, unless --keep-controls. With --set here, they are set at once, also while the camera records or 'vidrec serve' shows it, and stay set (V4L2 keeps controls after a program ends).",
        arguments: [
            Key.camera.spec,
            Key.json.spec,
        ] + StartOptions.controlArguments.filter { $0.name != "keep-controls" })

    var camera: String
    var json: Bool
    /// The controls to set now (`--set` and the shortcuts).
    var settings: CameraControlRequest

    init(_ arguments: ParsedArguments) throws(ParserError) {
        camera = arguments[Key.camera] ?? "default"
        json = arguments[Key.json]
        if camera == "test" { throw .invalidValue(camera, for: "--camera <camera>", reason: "the test camera has no controls") }
        settings = try StartOptions.controls(arguments).request
        if json, !settings.isEmpty { throw .conflicting("--json", "--set (set the controls, then list them)") }
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        if SystemDevices.isLibcamera(camera) { return try listLibcamera(context) }
        var description = try CameraDiscovery(listing: .readable).resolve(camera)
        if !settings.isEmpty {
            let resolved = try settings.resolve(against: description.controls, camera: "\(description.path) (\(description.name))")
            let done = try CameraControlSetter.set(resolved, on: description)
            context.err("vidrec: camera controls of \(description.path): \(done.joined(separator: ", ")); they stay set\n")
            description = try CameraDiscovery(listing: .readable).resolve(description.path)
        }
        let controls = description.controls
        if json {
            let rows: [[String: Any]] = controls.map { control in
                var row: [String: Any] = ["key": control.key, "name": control.name, "type": control.kind.rawValue,
                                          "min": control.minimum, "max": control.maximum, "step": control.step,
                                          "default": control.defaultValue, "readOnly": control.isReadOnly]
                row["value"] = control.value
                if !control.menu.isEmpty { row["menu"] = control.menu.map { ["value": $0.value, "name": $0.name] } }
                return row
            }
            try context.printJSON(["camera": description.path, "name": description.name, "controls": rows])
            return .success
        }
        Self.table("\(description.path) (\(description.name))", controls.map { control in
            let value = control.value.map { value in
                control.menu.first { $0.value == value }.map { "\($0.name) (\(value))" } ?? String(value)
            } ?? "?"
            let type = control.kind.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)
            return (control.key, "\(type) = \(value)   [\(control.range); default \(control.defaultValue)]\(control.isReadOnly ? " read-only" : "")")
        }, context)
        return .success
    }

    /// `title`, then a line for each control: its key, padded to the longest, and the rest.
    private static func table(_ title: String, _ rows: [(key: String, rest: String)], _ context: CommandContext) {
        context.out(title + "\n")
        if rows.isEmpty { context.out("  no controls\n") }
        let width = rows.map(\.key.count).max() ?? 0
        for row in rows {
            context.out("  \(row.key.padding(toLength: width, withPad: " ", startingAt: 0))  \(row.rest)\n")
        }
    }

    /// A libcamera camera's controls: `--set`'s name, libcamera's, the type, the range
    /// and the default. libcamera sets controls per request, so there is no value to
    /// show, and nothing to set outside a recording.
    private func listLibcamera(_ context: CommandContext) throws -> ExitCode {
        let found = try LibcameraDiscovery().camera(camera)
        if !settings.isEmpty {
            throw CLIError("\(found.selector) is a libcamera camera, whose controls last only while it records: set them with 'vidrec start --camera \(found.selector) --set NAME=VALUE'", .usage)
        }
        let controls = LibcameraDiscovery().controls(of: found.id)
        if json {
            let rows: [[String: Any]] = controls.map { control in
                ["key": control.key, "name": control.name, "type": control.kind.rawValue, "min": control.minimum,
                 "max": control.maximum, "default": control.defaultValue as Any]
            }
            try context.printJSON(["camera": found.selector, "name": found.model, "controls": rows])
            return .success
        }
        Self.table("\(found.selector) (\(found.model)), through libcamera: set with 'vidrec start --set NAME=VALUE'", controls.map { control in
            let type = control.kind.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)
            let fallback = control.defaultValue.map { "; default \(LibcameraControl.text($0))" } ?? ""
            return (control.key, "\(type) [\(control.range)\(fallback)]  (\(control.name))")
        }, context)
        return .success
    }
}
