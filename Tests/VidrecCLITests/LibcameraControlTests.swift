import Testing
@testable import VidrecLibcamera

/// libcamera's controls as `--set` names and takes them.
@Suite struct LibcameraControlTests {
    @Test func theKeyIsLibcamerasNameInLowerCaseSplitAtItsWords() {
        #expect(LibcameraControl(name: "ExposureTime", kind: .integer, minimum: 1, maximum: 66_666, defaultValue: nil).key == "exposure_time")
        #expect(LibcameraControl(name: "AwbEnable", kind: .bool, minimum: 0, maximum: 1, defaultValue: 1).key == "awb_enable")
        #expect(LibcameraControl(name: "Brightness", kind: .float, minimum: -1, maximum: 1, defaultValue: 0).key == "brightness")
    }

    @Test func aValueIsTakenOnlyInItsTypeAndRange() {
        let brightness = LibcameraControl(name: "Brightness", kind: .float, minimum: -1, maximum: 1, defaultValue: 0)
        #expect(brightness.value("-0.5") == -0.5 && brightness.value("1") == 1)
        #expect(brightness.value("1.5") == nil && brightness.value("bright") == nil && brightness.value("nan") == nil)
        #expect(brightness.range == "-1..1")
        let exposure = LibcameraControl(name: "ExposureTime", kind: .integer, minimum: 1, maximum: 66_666, defaultValue: nil)
        #expect(exposure.value("10000") == 10000 && exposure.value("100.5") == nil && exposure.value("0") == nil)
        let awb = LibcameraControl(name: "AwbEnable", kind: .bool, minimum: 0, maximum: 1, defaultValue: 1)
        #expect(awb.value("off") == 0 && awb.value("ON") == 1 && awb.value("true") == 1 && awb.value("2") == nil)
        #expect(awb.range == "on or off")
        #expect(LibcameraControl.text(2) == "2" && LibcameraControl.text(0.25) == "0.25")
    }
}
