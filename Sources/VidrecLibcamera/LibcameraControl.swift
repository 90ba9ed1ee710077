import CLibcamera

/// A control a libcamera camera takes (Brightness, Contrast, ExposureTime, AwbEnable, …),
/// as `vidrec controls --camera libcamera:<id>` lists it and `--set` names it.
public struct LibcameraControl: Sendable, Equatable {
    /// The type of its value.
    public enum Kind: String, Sendable {
        case bool, integer, float
    }

    /// libcamera's name (`ExposureTime`).
    public var name: String
    public var kind: Kind
    public var minimum: Double
    public var maximum: Double
    /// Its default, when libcamera gives one.
    public var defaultValue: Double?

    /// `--set`'s name for it: libcamera's, in lower case with words split by `_`
    /// (`exposure_time`, `awb_enable`).
    public var key: String {
        var key = ""
        for (index, character) in name.enumerated() {
            if character.isUppercase, index > 0 { key += "_" }
            key += character.lowercased()
        }
        return key
    }

    /// Its range as `--set` takes it (`-1..1`, `on or off`).
    public var range: String {
        kind == .bool ? "on or off" : "\(Self.text(minimum))..\(Self.text(maximum))"
    }

    /// `value` as `vidrec controls` shows it: integers without a fraction.
    public static func text(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    /// The number `text` sets it to: on/off (or true/false, 1/0) for a boolean, a whole
    /// number for an integer, any number for a float, inside the range; `nil` otherwise.
    public func value(_ text: String) -> Double? {
        let number: Double?
        switch kind {
        case .bool: number = ["on": 1, "true": 1, "1": 1, "off": 0, "false": 0, "0": 0][text.lowercased()]
        case .integer: number = Int64(text).map(Double.init)
        case .float: number = Double(text).flatMap { $0.isFinite ? $0 : nil }
        }
        guard let number, number >= minimum, number <= maximum else { return nil }
        return number
    }

    init(name: String, kind: Kind, minimum: Double, maximum: Double, defaultValue: Double?) {
        (self.name, self.kind, self.minimum, self.maximum, self.defaultValue) = (name, kind, minimum, maximum, defaultValue)
    }

    init(_ control: vidrec_libcamera_control) {
        var name = control.name
        self.name = withUnsafeBytes(of: &name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        switch control.type {
        case VIDREC_LIBCAMERA_CONTROL_BOOL: kind = .bool
        case VIDREC_LIBCAMERA_CONTROL_INTEGER: kind = .integer
        default: kind = .float
        }
        minimum = control.minimum
        maximum = control.maximum
        defaultValue = control.has_default != 0 ? control.default_value : nil
    }
}
