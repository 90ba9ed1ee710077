import VidrecMedia
import VidrecSystem

/// Sets a camera's controls at once, also while it streams to another handle (a
/// recording, the browser viewfinder's preview): V4L2 lets any open handle of a node set
/// its controls, and the picture changes from the next frame. They stay set after the
/// handle closes, as V4L2 keeps them; this is what `vidrec controls --set` and the
/// viewfinder's sliders do.
public enum CameraControlSetter {
    /// Opens the camera's node, sets each control in order (VIDIOC_S_CTRL), and closes it.
    ///
    /// - Returns: for each control, `key=value (was N)`.
    /// - Throws: ``DeviceError`` when the node cannot be opened; ``SystemError`` naming
    ///   the control when the driver refuses a value (those before it stay set).
    public static func set(_ settings: [(control: CameraControl, value: Int)], on camera: CameraDescription) throws -> [String] {
        let device = try V4L2Device(path: camera.path)
        var done: [String] = []
        for (control, value) in settings {
            let before = try? device.controlValue(control.id, name: control.key)
            try device.setControl(control.id, to: value, name: control.key)
            done.append("\(control.key)=\(value)" + (before.map { " (was \($0))" } ?? ""))
        }
        return done
    }
}
