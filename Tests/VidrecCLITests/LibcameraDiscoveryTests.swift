import Testing
import VidrecMedia
@testable import VidrecLibcamera

/// Which libcamera camera each V4L2 node is a part of, from the nodes libcamera names.
@Suite struct LibcameraDiscoveryTests {
    static func camera(_ id: String, nodes: [UInt64]) -> LibcameraDiscovery.Camera {
        LibcameraDiscovery.Camera(id: id, model: id, modes: [], formats: [], nodes: nodes)
    }

    @Test func eachNodeBelongsToTheFirstCameraThatNamesIt() {
        // Two sensors behind one Raspberry Pi ISP: the ISP's nodes are shared.
        let owners = LibcameraDiscovery.nodeOwners([Self.camera("imx219", nodes: [0x5100, 0x5101, 0x5110]),
                                                    Self.camera("imx708", nodes: [0x5102, 0x5110])])
        #expect(owners == [0x5100: "libcamera:imx219", 0x5101: "libcamera:imx219", 0x5110: "libcamera:imx219",
                           0x5102: "libcamera:imx708"])
        #expect(LibcameraDiscovery.nodeOwners([Self.camera("vimc", nodes: [])]).isEmpty)
    }
}
