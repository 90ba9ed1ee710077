import CV4L2
import Glibc

extension V4L2Device {
    /// The user controls (VIDIOC_QUERYCTRL with `V4L2_CTRL_FLAG_NEXT_CTRL`), with their
    /// current values. Disabled controls are left out.
    func controls() -> [CameraControl] {
        var controls: [CameraControl] = []
        var query = v4l2_queryctrl()
        query.id = UInt32(V4L2_CTRL_FLAG_NEXT_CTRL)
        while (try? enumerate(CV4L2_VIDIOC_QUERYCTRL, "VIDIOC_QUERYCTRL", &query)) == true {
            let id = query.id
            defer { query.id = id | UInt32(V4L2_CTRL_FLAG_NEXT_CTRL) }
            if query.flags & UInt32(V4L2_CTRL_FLAG_DISABLED) != 0 || query.type == V4L2_CTRL_TYPE_CTRL_CLASS.rawValue { continue }
            var control = v4l2_control()
            control.id = id
            let value: Int? = (try? self.control(CV4L2_VIDIOC_G_CTRL, "VIDIOC_G_CTRL", &control)) != nil ? Int(control.value) : nil
            controls.append(CameraControl(name: String(cTuple: query.name), minimum: Int(query.minimum),
                                          maximum: Int(query.maximum), step: Int(query.step),
                                          defaultValue: Int(query.default_value), value: value))
        }
        return controls
    }
}
