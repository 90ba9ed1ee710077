import Testing
import VidrecV4L2

/// `--set` and the control shortcuts resolved against a UVC webcam's controls (as a
/// Logitech C920 lists them), without the webcam: the driver's names, menus and ranges.
@Suite struct CameraControlRequestTests {
    static let webcam: [CameraControl] = [
        CameraControl(id: 1, name: "Brightness", kind: .integer, minimum: 0, maximum: 255, step: 1, defaultValue: 128, value: 128),
        CameraControl(id: 2, name: "White Balance, Automatic", kind: .boolean, minimum: 0, maximum: 1, step: 1, defaultValue: 1, value: 1),
        CameraControl(id: 3, name: "White Balance Temperature", kind: .integer, minimum: 2000, maximum: 6500, step: 1, defaultValue: 4000, value: 4000),
        CameraControl(id: 4, name: "Auto Exposure", kind: .menu, minimum: 0, maximum: 3, step: 1, defaultValue: 3, value: 3,
                      menu: [.init(value: 1, name: "Manual Mode"), .init(value: 3, name: "Aperture Priority Mode")]),
        CameraControl(id: 5, name: "Exposure Time, Absolute", kind: .integer, minimum: 3, maximum: 2047, step: 1, defaultValue: 250, value: 250),
        CameraControl(id: 6, name: "Focus, Absolute", kind: .integer, minimum: 0, maximum: 250, step: 5, defaultValue: 0, value: 0),
        CameraControl(id: 7, name: "Focus, Automatic Continuous", kind: .boolean, minimum: 0, maximum: 1, step: 1, defaultValue: 1, value: 1),
        CameraControl(id: 8, name: "LED1 Mode", kind: .menu, minimum: 0, maximum: 3, step: 1, defaultValue: 3, value: 3,
                      menu: [.init(value: 0, name: "Off"), .init(value: 1, name: "On"), .init(value: 2, name: "Blink"), .init(value: 3, name: "Auto")]),
        CameraControl(id: 9, name: "Pan (Absolute)", kind: .integer, minimum: -36000, maximum: 36000, step: 3600, defaultValue: 0, value: 0,
                      isReadOnly: true),
    ]

    static func resolved(_ entries: [CameraControlRequest.Entry]) throws -> [String] {
        try CameraControlRequest(entries: entries).resolve(against: webcam, camera: "c920").map { "\($0.control.key)=\($0.value)" }
    }

    @Test func keysAreSpelledAsV4l2CtlSpellsThem() {
        #expect(Self.webcam.map(\.key) == ["brightness", "white_balance_automatic", "white_balance_temperature", "auto_exposure",
                                           "exposure_time_absolute", "focus_absolute", "focus_automatic_continuous", "led1_mode",
                                           "pan_absolute"])
    }

    @Test func shortcutsSwitchTheAutomaticModeOffBeforeTheManualValue() throws {
        #expect(try Self.resolved([.focus(100)]) == ["focus_automatic_continuous=0", "focus_absolute=100"])
        #expect(try Self.resolved([.focus(nil)]) == ["focus_automatic_continuous=1"])
        #expect(try Self.resolved([.exposure(150)]) == ["auto_exposure=1", "exposure_time_absolute=150"])
        #expect(try Self.resolved([.exposure(nil)]) == ["auto_exposure=3"])
        #expect(try Self.resolved([.whiteBalance(5000)]) == ["white_balance_automatic=0", "white_balance_temperature=5000"])
        #expect(try Self.resolved([.torch(true), .torch(false)]) == ["led1_mode=1", "led1_mode=0"])
    }

    @Test func setTakesNumbersSwitchesAndMenuItemsByName() throws {
        #expect(try Self.resolved([CameraControlRequest.parseSet("brightness=200")!]) == ["brightness=200"])
        #expect(try Self.resolved([CameraControlRequest.parseSet("White Balance, Automatic=off")!]) == ["white_balance_automatic=0"])
        #expect(try Self.resolved([CameraControlRequest.parseSet("auto_exposure=Manual Mode")!]) == ["auto_exposure=1"])
        #expect(try Self.resolved([CameraControlRequest.parseSet("auto_exposure=3")!]) == ["auto_exposure=3"])
        #expect(CameraControlRequest.parseSet("brightness") == nil)
        #expect(CameraControlRequest.parseSet("=3") == nil)
    }

    @Test func wrongNamesAndValuesSayWhatTheCameraTakes() {
        #expect(throws: CameraControlError.badValue("300", control: "brightness", range: "0..255")) {
            try Self.resolved([.set(name: "brightness", value: "300")])
        }
        #expect(throws: CameraControlError.badValue("7", control: "focus_absolute", range: "0..250 in steps of 5")) {
            try Self.resolved([.focus(7)])
        }
        #expect(throws: CameraControlError.badValue("Shutter", control: "auto_exposure", range: "Manual Mode (1), Aperture Priority Mode (3)")) {
            try Self.resolved([.set(name: "auto_exposure", value: "Shutter")])
        }
        // A read-only control is not offered.
        #expect(throws: CameraControlError.unknown("pan_absolute", camera: "c920", available: Array(Self.webcam.dropLast().map(\.key)))) {
            try Self.resolved([.set(name: "pan_absolute", value: "0")])
        }
    }
}
