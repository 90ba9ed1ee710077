import CV4L2
import Glibc
import VidrecMedia
import VidrecSystem

extension V4L2Device {
    /// The controls (VIDIOC_QUERYCTRL with `V4L2_CTRL_FLAG_NEXT_CTRL`), with their menus
    /// (VIDIOC_QUERYMENU) and current values (VIDIOC_G_CTRL). Disabled controls and
    /// class headings are left out.
    func controls() -> [CameraControl] {
        var controls: [CameraControl] = []
        var query = v4l2_queryctrl()
        query.id = UInt32(V4L2_CTRL_FLAG_NEXT_CTRL)
        while (try? enumerate(CV4L2_VIDIOC_QUERYCTRL, "VIDIOC_QUERYCTRL", &query)) == true {
            let id = query.id
            defer { query.id = id | UInt32(V4L2_CTRL_FLAG_NEXT_CTRL) }
            if query.flags & UInt32(V4L2_CTRL_FLAG_DISABLED) != 0 || query.type == V4L2_CTRL_TYPE_CTRL_CLASS.rawValue { continue }
            let kind: CameraControl.Kind = switch query.type {
            case V4L2_CTRL_TYPE_INTEGER.rawValue: .integer
            case V4L2_CTRL_TYPE_BOOLEAN.rawValue: .boolean
            case V4L2_CTRL_TYPE_MENU.rawValue: .menu
            case V4L2_CTRL_TYPE_INTEGER_MENU.rawValue: .integerMenu
            case V4L2_CTRL_TYPE_BUTTON.rawValue: .button
            default: .other
            }
            var control = v4l2_control()
            control.id = id
            let value: Int? = (try? self.control(CV4L2_VIDIOC_G_CTRL, "VIDIOC_G_CTRL", &control)) != nil ? Int(control.value) : nil
            var menu: [CameraControl.MenuItem] = []
            if kind == .menu || kind == .integerMenu, query.minimum <= query.maximum {
                for index in query.minimum...query.maximum {
                    var item = v4l2_querymenu()
                    item.id = id
                    item.index = UInt32(index)
                    guard (try? self.enumerate(CV4L2_VIDIOC_QUERYMENU, "VIDIOC_QUERYMENU", &item)) == true else { continue }
                    let name = kind == .menu ? withUnsafeBytes(of: item.name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                                             : String(item.value)
                    menu.append(CameraControl.MenuItem(value: Int(index), name: name))
                }
            }
            controls.append(CameraControl(id: id, name: String(cTuple: query.name), kind: kind, minimum: Int(query.minimum),
                                          maximum: Int(query.maximum), step: Int(query.step),
                                          defaultValue: Int(query.default_value), value: value, menu: menu,
                                          isReadOnly: query.flags & UInt32(V4L2_CTRL_FLAG_READ_ONLY) != 0))
        }
        return controls
    }

    /// Sets control `id` to `value` (VIDIOC_S_CTRL).
    ///
    /// - Throws: ``SystemError`` naming the control (`VIDIOC_S_CTRL brightness`).
    func setControl(_ id: UInt32, to value: Int, name: String) throws(SystemError) {
        var control = v4l2_control()
        control.id = id
        control.value = Int32(clamping: value)
        try self.control(CV4L2_VIDIOC_S_CTRL, "VIDIOC_S_CTRL \(name)", &control)
    }

    /// The current value of control `id` (VIDIOC_G_CTRL).
    func controlValue(_ id: UInt32, name: String) throws(SystemError) -> Int {
        var control = v4l2_control()
        control.id = id
        try self.control(CV4L2_VIDIOC_G_CTRL, "VIDIOC_G_CTRL \(name)", &control)
        return Int(control.value)
    }
}
