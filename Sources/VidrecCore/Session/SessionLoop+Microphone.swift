import Foundation
import VidrecMedia
import VidrecSystem

/// A microphone that goes away mid-recording (`--reconnect`): the movie goes on with
/// silence in real time while it is waited for, and takes its sound again once it is back.
extension SessionLoop {
    /// Whether a microphone that goes now is waited for: `--reconnect` asked for, the
    /// movie not ending, and the microphone not already gone.
    var canWaitForMicrophone: Bool {
        microphoneReconnection != nil && microphoneLoss == nil && audio != nil && !timeline.isStopping
    }

    /// The microphone has gone (`failure`, for the end report if it does not come
    /// back): it is closed (so that the device can come back under the same name) and
    /// a ``DeviceReconnector`` tries to open it again. The picture goes on as before.
    mutating func loseMicrophone(_ failure: CaptureSessionError, reason: String, at time: Int64) {
        guard let microphone = audio, let microphoneReconnection else { return }
        microphone.stop()
        microphoneLoss = DeviceLoss(name: microphone.displayName, since: time, wallClock: Date(), reason: failure, words: reason,
                                    reconnector: DeviceReconnector(microphoneReconnection))
        events.append(.lost(.audio, device: microphone.displayName, reason: reason))
    }

    /// While the microphone is gone: silence for the time that passes, the microphone
    /// started again once it opens (its sound placed by its capture times from there),
    /// or the movie ended when the window is over or the movie is ending.
    mutating func checkLostMicrophone(now: Int64, queue: CaptureQueue) {
        guard var loss = microphoneLoss, let reconnection = microphoneReconnection else { return }
        let step = loss.step(now: now, ending: timeline.isStopping || timeline.isVideoDone, reconnection: reconnection) {
            try $0.start(into: queue)
        }
        microphoneLoss = loss
        switch step {
        case .ending:
            endMicrophoneLoss(at: now, back: false)
        case .back(let microphone):
            audio = microphone
            timeline.microphoneReturned(at: now)
            endMicrophoneLoss(at: now, back: true)
            events.append(.back(.audio, device: microphone.displayName, after: loss.seconds(at: now)))
        case .retrying:
            break
        case .gaveUp:
            endMicrophoneLoss(at: now, back: false)
            gaveUp(.audio, loss, at: now)
        case .waiting:
            guard let format = audio?.audioFormat, let silence = timeline.holdSilence(until: now, format: format) else { return }
            silenceFilled += Int64(silence.frameCount)
            hold([silence], at: now)
        }
    }

    /// The microphone that went is no longer waited for, at `now`: it is `back`, or
    /// given up on; its gap is counted.
    mutating func endMicrophoneLoss(at now: Int64, back: Bool) {
        guard let loss = microphoneLoss else { return }
        loss.reconnector.cancel()
        microphoneGaps.append(loss.gap(endingAt: now, back: back))
        microphoneLoss = nil
    }
}
