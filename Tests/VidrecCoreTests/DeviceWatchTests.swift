import Dispatch
import Foundation
import Synchronization
import Testing
@testable import VidrecCore
import VidrecMedia
import VidrecSystem

/// A device that comes back is tried again at once: inotify on the device folders
/// (``DeviceWatch``) wakes the reconnector, which otherwise tries on its interval.
@Suite struct DeviceWatchTests {
    struct NotThere: Error {}

    @Test func somethingAppearingInAWatchedFolderEndsTheWait() throws {
        let folder = try TemporaryDirectory()
        let watch = try DeviceWatch(folders: [folder.path])
        let wake = try WakeSignal()
        _ = try folder.write("video0", "")
        #expect(watch.wait(milliseconds: 600_000, orWake: wake))
        // Read: the next wait waits, here until woken.
        wake.fire()
        #expect(!watch.wait(milliseconds: 600_000, orWake: wake))
    }

    @Test func aFolderThatAppearsLaterIsWatchedFromTheNextWait() throws {
        let folder = try TemporaryDirectory()
        let links = folder.path + "/v4l/by-id"
        let watch = try DeviceWatch(folders: [folder.path, folder.path + "/v4l", links])
        let wake = try WakeSignal()
        try FileManager.default.createDirectory(atPath: links, withIntermediateDirectories: true)
        #expect(watch.wait(milliseconds: 600_000, orWake: wake))
        // The link made in the new folder is seen.
        try FileManager.default.createSymbolicLink(atPath: links + "/usb-webcam-video-index0", withDestinationPath: "../../video0")
        #expect(watch.wait(milliseconds: 600_000, orWake: wake))
    }

    /// With an hour between tries, only the watch can bring the device back in time.
    @Test func aReconnectorTriesAgainAsSoonAsTheDeviceAppears() throws {
        let folder = try TemporaryDirectory()
        let node = folder.path + "/video0"
        let tries = Atomic<Int>(0)
        let opened = DispatchSemaphore(value: 0)
        let reconnector = DeviceReconnector<Int>(retryInterval: 3_600_000_000_000, folders: [folder.path]) {
            tries.add(1, ordering: .sequentiallyConsistent)
            guard FileManager.default.fileExists(atPath: node) else { throw NotThere() }
            opened.signal()
            return 7
        }
        defer { reconnector.cancel() }
        // Once its first try has failed, the node appears.
        while tries.load(ordering: .sequentiallyConsistent) == 0 { Thread.sleep(forTimeInterval: 0.01) }
        _ = try folder.write("video0", "")
        #expect(opened.wait(timeout: .now() + 120) == .success)
        while reconnector.take() == nil { Thread.sleep(forTimeInterval: 0.01) }
    }

    /// Cancelling wakes a reconnector that waits for its next try at once.
    @Test func cancellingEndsTheWaitAtOnce() throws {
        let folder = try TemporaryDirectory()
        let tried = DispatchSemaphore(value: 0)
        let reconnector = DeviceReconnector<Int>(retryInterval: 3_600_000_000_000, folders: [folder.path]) {
            tried.signal()
            throw NotThere()
        }
        #expect(tried.wait(timeout: .now() + 120) == .success)
        reconnector.cancel()
        #expect(reconnector.take() == nil)
        #expect(reconnector.lastFailure is NotThere)
    }
}
