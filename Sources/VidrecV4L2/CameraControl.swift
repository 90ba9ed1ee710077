import VidrecMedia

/// A camera control, as VIDIOC_QUERYCTRL, VIDIOC_QUERYMENU and VIDIOC_G_CTRL report it.
public struct CameraControl: Sendable, Equatable {
    /// What values the control takes.
    public enum Kind: String, Sendable {
        case integer, boolean, menu
        case integerMenu = "intmenu"
        case button, other
    }

    /// One item of a menu control.
    public struct MenuItem: Sendable, Equatable {
        /// The value that selects it.
        public var value: Int
        /// Its name (`Aperture Priority Mode`), or the number of an integer menu.
        public var name: String

        /// Creates a menu item.
        public init(value: Int, name: String) {
            self.value = value
            self.name = name
        }
    }

    /// The driver's control ID.
    public var id: UInt32
    /// The driver's name (`White Balance Temperature`).
    public var name: String
    public var kind: Kind
    public var minimum: Int
    public var maximum: Int
    public var step: Int
    public var defaultValue: Int
    /// The current value; `nil` when it cannot be read (a write-only control).
    public var value: Int?
    /// A menu's items.
    public var menu: [MenuItem]
    /// Whether the control can only be read.
    public var isReadOnly: Bool

    /// Creates a control; see the properties for the meaning of each argument.
    public init(id: UInt32, name: String, kind: Kind, minimum: Int, maximum: Int, step: Int, defaultValue: Int,
                value: Int?, menu: [MenuItem] = [], isReadOnly: Bool = false) {
        self.id = id
        self.name = name
        self.kind = kind
        self.minimum = minimum
        self.maximum = maximum
        self.step = step
        self.defaultValue = defaultValue
        self.value = value
        self.menu = menu
        self.isReadOnly = isReadOnly
    }

    /// The name used on the command line, as v4l2-ctl spells it: lower case, every run
    /// of other characters one `_` (`White Balance Temperature, Auto` →
    /// `white_balance_temperature_auto`).
    public var key: String { CameraControl.key(name) }

    /// `text` spelled as a control key.
    public static func key(_ text: String) -> String {
        var key = ""
        var pendingSeparator = false
        for character in text.lowercased() {
            if character.isASCII && (character.isLetter || character.isNumber) {
                if pendingSeparator && !key.isEmpty { key.append("_") }
                pendingSeparator = false
                key.append(character)
            } else {
                pendingSeparator = true
            }
        }
        return key
    }

    /// The values it takes, in words: `0..255`, `on/off`, `Manual Mode (1), Aperture
    /// Priority Mode (3)`.
    public var range: String {
        switch kind {
        case .boolean: "on/off"
        case .menu, .integerMenu: menu.map { "\($0.name) (\($0.value))" }.joined(separator: ", ")
        default: step > 1 ? "\(minimum)..\(maximum) in steps of \(step)" : "\(minimum)..\(maximum)"
        }
    }
}
