import Dispatch
import Foundation
import Synchronization
import VidrecCore
import VidrecFFmpeg
import VidrecMedia
import VidrecSystem

/// The picture `vidrec serve` shows, and where it comes from, decided again ten times a
/// second on its own thread (`vidrec.serve`):
/// - while a recording runs, its own viewfinder, asked over its control socket (the
///   recorded picture, as recorded), with its progress;
/// - else, while a browser watches, a preview of the camera (``ViewfinderPreview``),
///   which holds the camera only while it is watched: 3 s after the last browser leaves,
///   the camera is free again for a recording that cron starts;
/// - while the server itself needs the camera (a photo at its largest size, a recording
///   starting), nothing holds it;
/// - while another vidrec (a recording cron starts, a photo) finds the camera busy in the
///   preview and asks for it (``PreviewClaim``, SIGUSR1), the preview lends it: closed
///   at once, and not opened again for 5 s, by when that recording's own picture shows.
///
/// Every browser's stream reads the one ``feed``.
final class ServeViewfinder: Sendable {
    /// Where the view stands, for the page.
    struct Status: Sendable {
        /// `recording`, `preview` or `none`.
        var source = "none"
        /// The camera shown, as displayed.
        var camera: String?
        /// Its mode.
        var mode: String?
        /// Why there is no picture (the camera is busy or gone), if so.
        var problem: String?
        /// The running recording and how it stands.
        var recording: String?
        var progress: SessionProgress?
    }

    /// The preview open now, with its claim on its camera (kept while it holds it).
    private struct OpenPreview {
        let preview: ViewfinderPreview
        let claim: PreviewClaim?
        /// The feed it publishes to.
        let feed: ViewfinderFeed

        /// Closes the camera, then gives up the claim; its last picture is not shown to
        /// browsers that come later.
        func close() {
            preview.stop()
            claim?.remove()
            feed.withdraw()
        }
    }

    private struct State {
        var open: OpenPreview?
        /// No preview is opened before this time (ns): the camera is lent.
        var lentUntil: Int64 = 0
        /// Actions that need the camera free, running now.
        var holds = 0
        /// No preview is tried again before this time (ns), after one failed.
        var retryAt: Int64 = 0
        /// The last picture of the recording's own feed this one has.
        var relayed: (recording: String, number: Int64?)?
        var status = Status()
        var stopped = false
    }

    /// The pictures every browser watches.
    let feed = ViewfinderFeed()
    private let store: RecordingStore
    private let devices: @Sendable () -> SystemDevices
    private let video: VideoEncoding
    private let claims: String
    private let state = Mutex(State())
    private let thread = Mutex<NamedThread?>(nil)
    /// Wakes the thread early (a hold released, the server stopping).
    private let wake = DispatchSemaphore(value: 0)

    /// Starts deciding.
    ///
    /// - Parameters:
    ///   - store: the pending area, where running recordings are found.
    ///   - devices: the camera to preview (a new one each time, as `--camera` says).
    ///   - video: the size and rate the preview asks the camera for (the preset's).
    ///   - claims: vidrec's runtime folder, where the preview claims its camera.
    init(store: RecordingStore, devices: @escaping @Sendable () -> SystemDevices, video: VideoEncoding, claims: String) {
        self.store = store
        self.claims = claims
        self.devices = devices
        self.video = video
        thread.withLock { $0 = NamedThread(name: "vidrec.serve") { [self] in loop() } }
    }

    /// How the view stands now.
    var status: Status { state.withLock { $0.status } }

    /// Runs `body` with the camera free: the preview is stopped first and not started
    /// again until `body` returns.
    func withCameraFree<T>(_ body: () throws -> T) rethrows -> T {
        let open = state.withLock { state -> OpenPreview? in
            state.holds += 1
            defer { state.open = nil }
            return state.open
        }
        open?.close()
        defer {
            state.withLock { $0.holds -= 1 }
            wake.signal()
        }
        return try body()
    }

    /// Lends the camera to another vidrec that asked for it (SIGUSR1): the preview is
    /// closed, and not opened again for 5 s.
    func lend() {
        state.withLock { $0.lentUntil = MonotonicClock.now() + 5_000_000_000 }
        wake.signal()
    }

    /// Stops deciding, and releases the camera.
    func stop() {
        state.withLock { $0.stopped = true }
        wake.signal()
        thread.withLock { $0?.join(); $0 = nil }
        feed.close()
    }

    private func loop() {
        while !state.withLock({ $0.stopped }) {
            if let recording = store.runningRecordings().first(where: { $0.sidecar.camera != NoCamera.name }) {
                releasePreview(problem: nil)
                relay(recording)
                continue
            }
            let ended = state.withLock { state in
                defer { state.relayed = nil }
                if state.status.source == "recording" { state.status = Status() }
                return state.relayed != nil
            }
            // The recording has ended: its last picture is not the camera's now.
            if ended { feed.withdraw() }
            let (holds, preview, retryAt, lentUntil) = state.withLock { ($0.holds, $0.open?.preview, $0.retryAt, $0.lentUntil) }
            if MonotonicClock.now() < lentUntil {
                releasePreview(problem: "the camera is lent to another vidrec")
            } else if holds > 0 || !feed.isWatched {
                releasePreview(problem: nil)
            } else if let preview, let ended = preview.ended {
                releasePreview(problem: ended.map(RuntimeFailure.classify)?.message ?? "the camera stopped sending")
                state.withLock { $0.retryAt = MonotonicClock.now() + 2_000_000_000 }
            } else if preview == nil, MonotonicClock.now() >= retryAt {
                startPreview()
            }
            _ = wake.wait(timeout: .now() + .milliseconds(100))
        }
        releasePreview(problem: nil)
    }

    private func startPreview() {
        let output = ViewfinderOutput(feed: feed, encoder: PhotoEncoder(turnedClockwise: video.rotation, mirrored: video.isMirrored,
                                                                           quantizer: PhotoEncoder.viewfinderQuantizer))
        let devices = devices()
        // Claimed before it is opened: another vidrec that finds it busy then knows whom
        // to ask.
        let claim = (try? devices.findCamera()).flatMap { $0 }.flatMap { try? PreviewClaim.make(camera: $0, in: claims) }
        do {
            let preview = try ViewfinderPreview(devices: devices, video: video, output: output)
            state.withLock { state in
                state.open = OpenPreview(preview: preview, claim: claim, feed: feed)
                state.status = Status(source: "preview", camera: preview.camera, mode: preview.mode)
            }
        } catch {
            claim?.remove()
            state.withLock { state in
                state.retryAt = MonotonicClock.now() + 2_000_000_000
                state.status = Status(problem: RuntimeFailure.classify(error).message)
            }
        }
    }

    private func releasePreview(problem: String?) {
        let open = state.withLock { state -> OpenPreview? in
            defer {
                state.open = nil
                if state.relayed == nil, state.status.source == "preview" || problem != nil {
                    state.status = Status(problem: problem ?? state.status.problem)
                }
            }
            return state.open
        }
        open?.close()
    }

    /// One picture of the running recording's viewfinder (the control socket's answer
    /// waits up to a second for one), while a browser watches; its progress either way.
    private func relay(_ recording: RecordingStore.Entry) {
        let (after, isNew) = state.withLock { state -> (Int64?, Bool) in
            let isNew = state.relayed?.recording != recording.id
            if isNew { state.relayed = (recording.id, nil) }
            return (state.relayed?.number, isNew)
        }
        // A browser that comes now sees this recording's pictures, not the last source's.
        if isNew { feed.withdraw() }
        let watched = feed.isWatched
        let reply = try? ControlClient.send(ControlRequest(.viewfinder, after: after, watch: watched),
                                            to: recording.controlPath, timeout: 3)
        if let reply, let picture = reply.picture, let number = reply.number, watched {
            feed.publish(picture, capturedAt: reply.captured)
            state.withLock { $0.relayed = (recording.id, number) }
        }
        state.withLock { state in
            state.status = Status(source: "recording", camera: reply?.camera ?? recording.sidecar.camera, mode: recording.sidecar.cameraMode,
                                  problem: reply == nil ? "the recording does not answer on its control socket" : reply?.error,
                                  recording: recording.id, progress: reply?.progress)
        }
        if !watched || reply?.picture == nil { _ = wake.wait(timeout: .now() + .milliseconds(200)) }
    }
}
