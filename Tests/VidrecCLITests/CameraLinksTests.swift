import Foundation
import Testing
@testable import VidrecV4L2

/// A camera's stable names: the udev links under `/dev/v4l` that lead to its node,
/// by-id first, found whatever the links' form (relative, as udev makes them, or
/// absolute).
@Suite struct CameraLinksTests {
    @Test func theLinksToANodeAreFoundByIdFirst() throws {
        let root = NSTemporaryDirectory() + "vidrec-links-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let manager = FileManager.default
        try manager.createDirectory(atPath: root + "/v4l/by-id", withIntermediateDirectories: true)
        try manager.createDirectory(atPath: root + "/v4l/by-path", withIntermediateDirectories: true)
        for node in ["video3", "video4"] { manager.createFile(atPath: root + "/" + node, contents: Data()) }
        try manager.createSymbolicLink(atPath: root + "/v4l/by-id/usb-vidrec_webcam_0001-video-index0", withDestinationPath: "../../video3")
        try manager.createSymbolicLink(atPath: root + "/v4l/by-id/usb-other-video-index0", withDestinationPath: "../../video4")
        try manager.createSymbolicLink(atPath: root + "/v4l/by-path/pci-0000:00:14.0-usb-0:1:1.0-video-index0",
                                       withDestinationPath: root + "/video3")
        let discovery = CameraDiscovery(deviceDirectory: root)
        #expect(discovery.links(to: root + "/video3") == [root + "/v4l/by-id/usb-vidrec_webcam_0001-video-index0",
                                                          root + "/v4l/by-path/pci-0000:00:14.0-usb-0:1:1.0-video-index0"])
        #expect(discovery.links(to: root + "/video4") == [root + "/v4l/by-id/usb-other-video-index0"])
        #expect(discovery.links(to: root + "/video9").isEmpty)
        #expect(CameraDiscovery(deviceDirectory: root + "/none").links(to: root + "/video3").isEmpty)
    }
}
