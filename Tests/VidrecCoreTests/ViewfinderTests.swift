import Foundation
import Glibc
import Synchronization
import Testing
import VidrecCore
import VidrecMedia
import VidrecSystem

/// The viewfinder in process: the feed's waits, and the output through the ``Recorder``
/// as `vidrec start` drives it (which frames become pictures, that the movie loses
/// nothing for them).
@Suite struct ViewfinderTests {
    @Test func aWatcherWaitsForANewerPictureAndCloseEndsEveryWait() throws {
        let feed = ViewfinderFeed()
        #expect(feed.picture(after: nil, timeout: 0.01) == nil)
        feed.publish(Data([1]))
        let first = try #require(feed.picture(after: nil, timeout: 0.01))
        #expect(first.jpeg == Data([1]) && first.number == 1)
        #expect(feed.picture(after: first.number, timeout: 0.01) == nil)
        // A picture published while a watcher waits wakes it.
        let woken = Mutex<ViewfinderFeed.Picture?>(nil)
        let waiting = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            waiting.signal()
            let picture = feed.picture(after: first.number, timeout: 60)
            woken.withLock { $0 = picture }
            done.signal()
        }
        waiting.wait()
        feed.publish(Data([2]))
        done.wait()
        #expect(woken.withLock { $0 }?.number == 2)
        // Two published before a slow watcher looks: it gets the newest.
        feed.publish(Data([3]))
        feed.publish(Data([4]))
        #expect(feed.picture(after: 2, timeout: 0.01)?.jpeg == Data([4]))
        // Close wakes a watcher at once, and every later wait returns nothing.
        Thread.detachNewThread {
            let picture = feed.picture(after: 4, timeout: 600)
            woken.withLock { $0 = picture }
            done.signal()
        }
        feed.close()
        done.wait()
        #expect(woken.withLock { $0 } == nil && feed.picture(after: nil, timeout: 600) == nil)
    }

    /// A new watcher is not given a picture older than a second (the last of a preview
    /// nobody watched): it waits for a new one; a watcher that has pictures gets the next.
    @Test func aNewWatcherIsNotGivenAStalePicture() throws {
        let now = Mutex<Int64>(0)
        let feed = ViewfinderFeed(clock: { now.withLock { $0 } })
        feed.publish(Data([1]))
        now.withLock { $0 += ViewfinderFeed.freshFor - 1 }
        #expect(feed.picture(after: nil, timeout: 0.01)?.number == 1)
        now.withLock { $0 += 1 }
        #expect(feed.picture(after: nil, timeout: 0.01) == nil, "a second old")
        #expect(feed.current?.number == 1)
        let given = Mutex<ViewfinderFeed.Picture?>(nil)
        let waiting = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            waiting.signal()
            let picture = feed.picture(after: nil, timeout: 60)
            given.withLock { $0 = picture }
            done.signal()
        }
        waiting.wait()
        feed.publish(Data([2]))
        done.wait()
        #expect(given.withLock { $0 }?.jpeg == Data([2]))
    }

    /// A picture whose source has gone (the preview closed for a recording) is not given
    /// to a new watcher, however fresh: it waits for the next source's first picture. A
    /// watcher that already has it still gets the next one.
    @Test func aNewWatcherIsNotGivenAWithdrawnPicture() throws {
        let now = Mutex<Int64>(0)
        let feed = ViewfinderFeed(clock: { now.withLock { $0 } })
        feed.publish(Data([1]))
        feed.withdraw()
        #expect(feed.picture(after: nil, timeout: 0.01) == nil, "withdrawn")
        #expect(feed.current?.number == 1)
        feed.publish(Data([2]))
        #expect(feed.picture(after: nil, timeout: 0.01)?.jpeg == Data([2]))
        feed.withdraw()
        feed.publish(Data([3]))
        #expect(feed.picture(after: 2, timeout: 0.01)?.jpeg == Data([3]))
        feed.withdraw()
        #expect(feed.picture(after: 2, timeout: 0.01)?.jpeg == Data([3]), "a watcher that has pictures")
    }

    /// Writes the slot number the scripted camera put in the frame's first byte, and the
    /// width asked for.
    final class SlotEncoder: PhotoEncoding {
        func jpeg(of frame: VideoFrame, width: Int?) throws -> EncodedPhoto {
            EncodedPhoto(bytes: Array("slot \(frame.buffer.bytes.load(as: UInt8.self)) width \(width ?? 0)".utf8),
                         width: width ?? frame.width, height: frame.height)
        }
    }

    /// Three seconds at 30 fps with five pictures a second: one in every six slots, from
    /// the first, in order; the movie keeps every frame.
    @Test func aRecordingPublishesAPictureEveryFewFramesWithoutCostingTheMovieOne() throws {
        let state = try TemporaryDirectory()
        let store = try RecordingStore(stateDirectory: state.path + "/state")
        let manifest = AlbumManifest(stateDirectory: state.path + "/state")
        let feed = ViewfinderFeed()
        let seen = Mutex<[String]>([])
        let watching = DispatchSemaphore(value: 0), pictureSeen = DispatchSemaphore(value: 0)
        let stop = Mutex(false)
        Thread.detachNewThread {
            var last: Int64?
            watching.signal()
            while !stop.withLock({ $0 }) {
                guard let picture = feed.picture(after: last, timeout: 0.2) else { continue }
                // Every picture is seen: the watcher is faster than five a second.
                #expect(last == nil || picture.number == last! + 1, "picture \(picture.number) after \(last ?? 0)")
                last = picture.number
                seen.withLock { $0.append(String(decoding: picture.jpeg, as: UTF8.self)) }
                pictureSeen.signal()
            }
        }
        watching.wait()
        let devices = ScriptedDevices(frames: 90, realTime: true)
        let recorder = Recorder(store: store, devices: devices, outputs: devices,
                                saver: AlbumSaver(store: store, manifest: manifest, finalizer: RenameOnly()),
                                freeSpace: { _ in nil })
        var request = RecordingRequest(preset: ScriptedDevices.preset(), maxDuration: DurationLimit(parsing: "3"),
                                       save: nil, startTime: Date(), pid: getpid())
        request.features = [ViewfinderOutput(feed: feed, encoder: SlotEncoder(), width: 640, picturesPerSecond: 5)]
        let report = try recorder.record(request)
        // The last pictures may still be on their way to the watcher.
        while seen.withLock({ $0.count }) < Int(feed.current?.number ?? 0) { pictureSeen.wait() }
        stop.withLock { $0 = true }
        #expect(report.endedWell)
        #expect(report.outcome.droppedFrames + report.outcome.queueDroppedFrames == 0)
        #expect(report.featureLines.isEmpty)
        // Scripted frames are 2x2: the width asked for is capped at the frame's. A
        // picture for each mark, from the first slot at or after it that reached the
        // viewfinder (its queue of two drops frames while its thread is busy).
        let pictures = seen.withLock { $0 }
        let slots = pictures.compactMap { $0.wholeMatch(of: /slot (\d+) width 2/).map { Int($0.1)! } }
        #expect(slots.count == pictures.count && slots.enumerated().allSatisfy { (6 * $0.offset..<6 * $0.offset + 6).contains($0.element) }
                && slots.count == 15 && slots.first == 0, "\(pictures)")
    }

    /// A feed counts as watched only while someone asks for pictures; a recording whose
    /// viewfinder nobody watches encodes none (and still loses no frame).
    @Test func nothingIsEncodedWhileNobodyWatches() throws {
        let feed = ViewfinderFeed()
        #expect(!feed.isWatched)
        let state = try TemporaryDirectory()
        let store = try RecordingStore(stateDirectory: state.path + "/state")
        let devices = ScriptedDevices(frames: 30, realTime: false)
        let recorder = Recorder(store: store, devices: devices, outputs: devices,
                                saver: AlbumSaver(store: store, manifest: AlbumManifest(stateDirectory: state.path + "/state"),
                                                  finalizer: RenameOnly()),
                                freeSpace: { _ in nil })
        var request = RecordingRequest(preset: ScriptedDevices.preset(), maxDuration: DurationLimit(parsing: "1"),
                                       save: nil, startTime: Date(), pid: getpid())
        request.features = [ViewfinderOutput(feed: feed, encoder: SlotEncoder(), width: 640, picturesPerSecond: 5)]
        let report = try recorder.record(request)
        #expect(report.endedWell && report.outcome.videoFrames == 30)
        #expect(feed.current == nil)
        #expect(feed.picture(after: nil, timeout: 0) == nil)
        #expect(feed.isWatched)
    }

    /// The idle viewfinder: the camera alone in a session, its pictures published while
    /// watched, in order; a camera that ends ends the preview, which says why.
    @Test func aPreviewPublishesTheCamerasPicturesAndEndsWithTheCamera() throws {
        let feed = ViewfinderFeed()
        _ = feed.picture(after: nil, timeout: 0)
        let devices = ScriptedDevices(frames: 30, ending: .some(SystemError("VIDIOC_DQBUF", "/dev/video0", errno: ENODEV)),
                                      microphone: false, realTime: true)
        let preview = try ViewfinderPreview(devices: devices, video: ScriptedDevices.preset().settings.video,
                                            output: ViewfinderOutput(feed: feed, encoder: SlotEncoder(), width: 640, picturesPerSecond: 5))
        var seen: [String] = []
        var last: Int64?
        while seen.count < 5, let picture = feed.picture(after: last, timeout: 60) {
            seen.append(String(decoding: picture.jpeg, as: UTF8.self))
            last = picture.number
        }
        #expect(seen == stride(from: 0, to: 30, by: 6).map { "slot \($0) width 2" }, "\(seen)")
        // Polled: the preview's thread says when the session has ended.
        let deadline = Date(timeIntervalSinceNow: 120)
        while preview.ended == nil, Date() < deadline { usleep(10_000) }
        let ended = try #require(preview.ended)
        #expect("\(ended.map { "\($0)" } ?? "")".contains("No such device"), "\(String(describing: ended))")
        preview.stop()
    }
}
