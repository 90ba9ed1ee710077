/// What `--set NAME=VALUE`, `--focus`, `--exposure`, `--white-balance` and `--torch`
/// ask of a camera's controls, checked against the controls the camera has
/// (``resolve(against:camera:)``) once it is known.
public struct CameraControlRequest: Sendable, Equatable {
    /// One thing asked.
    public enum Entry: Sendable, Equatable {
        /// `--set NAME=VALUE`: a control by its key (or its driver name), a number, on/off
        /// or a menu item's name.
        case set(name: String, value: String)
        /// `--focus auto|N`.
        case focus(Int?)
        /// `--exposure auto|N`.
        case exposure(Int?)
        /// `--white-balance auto|K`.
        case whiteBalance(Int?)
        /// `--torch on|off`.
        case torch(Bool)

        /// What it sets, in words: the control's name for `--set`, else `focus`,
        /// `exposure`, `white balance` or `torch`.
        public var name: String {
            switch self {
            case .set(let name, _): name
            case .focus: "focus"
            case .exposure: "exposure"
            case .whiteBalance: "white balance"
            case .torch: "torch"
            }
        }
    }

    /// In the order given; shortcuts after `--set`.
    public var entries: [Entry]

    /// Creates a request.
    public init(entries: [Entry] = []) { self.entries = entries }

    /// Nothing asked.
    public var isEmpty: Bool { entries.isEmpty }

    /// Parses `--set`'s `NAME=VALUE`.
    ///
    /// - Returns: `nil` when the text is not of that form.
    public static func parseSet(_ text: String) -> Entry? {
        guard let equals = text.firstIndex(of: "="), equals != text.startIndex,
              text.index(after: equals) != text.endIndex else { return nil }
        return .set(name: String(text[..<equals]), value: String(text[text.index(after: equals)...]))
    }

    /// Parses `auto` or a whole number (`--focus`, `--exposure`, `--white-balance`).
    ///
    /// - Returns: `.some(nil)` for `auto`, `.some(N)`, or `nil` for anything else.
    public static func parseAutoOrNumber(_ text: String) -> Int?? {
        if text == "auto" { return .some(nil) }
        return Int(text).map { .some($0) }
    }

    /// The controls to set and their values, in order (an automatic mode is switched off
    /// before the manual value it would override is set).
    ///
    /// - Parameters:
    ///   - controls: what the camera has.
    ///   - camera: the camera's name, for messages.
    /// - Throws: ``CameraControlError`` naming the control and what the camera has, or
    ///   the range a value must be in.
    public func resolve(against controls: [CameraControl], camera: String) throws(CameraControlError) -> [(control: CameraControl, value: Int)] {
        let writable = Writable(controls: controls.filter { !$0.isReadOnly && $0.kind != .button && $0.kind != .other }, camera: camera)
        var settings: [(control: CameraControl, value: Int)] = []
        for entry in entries {
            switch entry {
            case let .set(name, text):
                let key = CameraControl.key(name)
                guard let control = writable.controls.first(where: { $0.key == key }) else {
                    throw .unknown(name, camera: camera, available: writable.controls.map(\.key))
                }
                settings.append((control, try CameraControlRequest.value(text, for: control)))
            case let .focus(value), let .whiteBalance(value):
                let isFocus = if case .focus = entry { true } else { false }
                let autoKeys = isFocus ? ["focus_automatic_continuous", "focus_auto"] : ["white_balance_automatic", "white_balance_temperature_auto"]
                let valueKeys = isFocus ? ["focus_absolute"] : ["white_balance_temperature"]
                settings += try writable.automaticOrValue(value, entry.name, autoKeys: autoKeys, valueKeys: valueKeys)
            case let .exposure(value):
                settings += try writable.exposure(value)
            case let .torch(on):
                if let mode = writable.find(["flash_led_mode"]), let value = Writable.menuValue(mode, named: on ? ["torch"] : ["off", "none"]) {
                    settings.append((mode, value))
                } else if let led = writable.find(["led1_mode"]), let value = Writable.menuValue(led, named: on ? ["on"] : ["off"]) {
                    settings.append((led, value))
                } else {
                    throw writable.missing("torch or LED", ["flash_led_mode", "led1_mode"])
                }
            }
        }
        return settings
    }

    /// The controls of a camera that can be set, looked up by the keys a shortcut may
    /// go by (drivers name the same control differently).
    private struct Writable {
        var controls: [CameraControl]
        var camera: String

        /// The first control that has one of `keys`.
        func find(_ keys: [String]) -> CameraControl? {
            for key in keys { if let control = controls.first(where: { $0.key == key }) { return control } }
            return nil
        }

        /// The error for a shortcut (`what`) whose controls the camera has none of.
        func missing(_ what: String, _ keys: [String]) -> CameraControlError {
            .missing(what, tried: keys, camera: camera, available: controls.map(\.key))
        }

        /// The value of the first item of `control`'s menu whose name holds one of `candidates`.
        static func menuValue(_ control: CameraControl, named candidates: [String]) -> Int? {
            for candidate in candidates {
                if let item = control.menu.first(where: { CameraControl.key($0.name).contains(candidate) }) { return item.value }
            }
            return nil
        }

        /// `--focus` or `--white-balance`: its automatic control on (no value), or off
        /// and the value set.
        func automaticOrValue(_ value: Int?, _ what: String, autoKeys: [String], valueKeys: [String]) throws(CameraControlError)
            -> [(control: CameraControl, value: Int)] {
            let automatic = find(autoKeys)
            guard let value else {
                guard let automatic else { throw missing("automatic \(what)", autoKeys) }
                return [(automatic, 1)]
            }
            guard let manual = find(valueKeys) else { throw missing(what, valueKeys) }
            return (automatic.map { [($0, 0)] } ?? []) + [(manual, try CameraControlRequest.value(String(value), for: manual))]
        }

        /// `--exposure`: the automatic mode of its menu (aperture priority, else auto),
        /// or its manual mode and the exposure time.
        func exposure(_ value: Int?) throws(CameraControlError) -> [(control: CameraControl, value: Int)] {
            let autoKeys = ["auto_exposure", "exposure_auto"], valueKeys = ["exposure_time_absolute", "exposure_absolute"]
            let automatic = find(autoKeys)
            guard let value else {
                guard let automatic, let mode = Self.menuValue(automatic, named: ["aperture_priority", "auto"]) else {
                    throw missing("automatic exposure", autoKeys)
                }
                return [(automatic, mode)]
            }
            guard let manual = find(valueKeys) else { throw missing("exposure", valueKeys) }
            let manualMode = automatic.flatMap { control in Self.menuValue(control, named: ["manual"]).map { [(control, $0)] } } ?? []
            return manualMode + [(manual, try CameraControlRequest.value(String(value), for: manual))]
        }
    }

    /// `text` as a value of `control`: a number in its range (and step), on/off for a
    /// switch, a menu item's name or value.
    static func value(_ text: String, for control: CameraControl) throws(CameraControlError) -> Int {
        switch control.kind {
        case .boolean:
            switch text.lowercased() {
            case "1", "on", "true", "yes": return 1
            case "0", "off", "false", "no": return 0
            default: throw .badValue(text, control: control.key, range: control.range)
            }
        case .menu, .integerMenu:
            if let number = Int(text), control.menu.contains(where: { $0.value == number }) { return number }
            let key = CameraControl.key(text)
            if let item = control.menu.first(where: { CameraControl.key($0.name) == key }) { return item.value }
            throw .badValue(text, control: control.key, range: control.range)
        default:
            guard let number = Int(text), number >= control.minimum, number <= control.maximum,
                  control.step <= 1 || (number - control.minimum) % control.step == 0 else {
                throw .badValue(text, control: control.key, range: control.range)
            }
            return number
        }
    }
}
