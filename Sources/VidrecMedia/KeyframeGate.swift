import Dispatch
import Synchronization

/// Where a compressed camera stream may begin: H.264 frames are held back until the
/// first keyframe (an IDR access unit) with its parameter sets, so that the recording
/// starts with a picture a decoder can show; JPEG frames pass at once. Remembers the
/// stream header for ``CompressedVideoSource/streamHeader(timeout:)``.
///
/// The capture thread calls ``admit(_:byteCount:)``; any thread may wait in ``header(timeout:device:)``.
public final class KeyframeGate: Sendable {
    /// What to do with a frame.
    public enum Verdict: Equatable, Sendable {
        /// Deliver its first `byteCount` bytes (an H.264 access unit: its first picture,
        /// without what else the buffer held); `isKeyframe` when a decoder can start there.
        case deliver(byteCount: Int, isKeyframe: Bool)
        /// Leave it out: the stream has not reached its first keyframe, or the buffer
        /// holds no picture (parameter sets alone, or no H.264 at all).
        case hold
        /// The stream cannot be copied (the camera sends B-frames).
        case refuse(String)
    }

    private struct State {
        var header: [UInt8]?
        /// Parameter sets seen in access units before the first keyframe.
        var earlier: [UInt8] = []
        var held = 0
    }

    private let format: PixelFormat
    private let state = Mutex(State())
    private let ready = DispatchSemaphore(value: 0)

    /// Creates a gate for frames in `format`.
    public init(format: PixelFormat) {
        self.format = format
        if format != .h264 { state.withLock { $0.header = [] } }
    }

    /// Frames held back: before the first keyframe, and buffers with no picture.
    public var heldFrames: Int { state.withLock { $0.held } }

    /// Whether the first keyframe has passed.
    public var isOpen: Bool { state.withLock { $0.header != nil } }

    /// Looks at one frame, in capture order.
    public func admit(_ bytes: UnsafeRawPointer, byteCount: Int) -> Verdict {
        guard format == .h264 else { return .deliver(byteCount: byteCount, isKeyframe: true) }
        let unit = H264AccessUnit(UnsafeRawBufferPointer(start: bytes, count: byteCount))
        if unit.hasBSlices {
            return .refuse("sends H.264 with B-frames, which vidrec cannot store as it is; record with --video encode")
        }
        let opened = state.withLock { state -> Bool? in
            if state.header != nil { return nil }
            if unit.hasParameterSets, !unit.isKeyframe { state.earlier = unit.parameterSets }
            guard unit.isKeyframe else { state.held += 1; return false }
            let header = unit.hasParameterSets ? unit.parameterSets : state.earlier
            guard !header.isEmpty else { state.held += 1; return false }
            state.header = header
            return true
        }
        let deliver = Verdict.deliver(byteCount: unit.byteCount, isKeyframe: unit.isKeyframe)
        switch opened {
        case nil:
            guard unit.hasPicture else {
                state.withLock { $0.held += 1 }
                return .hold
            }
            return deliver
        case false?: return .hold
        case true?:
            ready.signal()
            return deliver
        }
    }

    /// The stream header, waiting for the first keyframe up to `timeout` seconds.
    ///
    /// - Throws: ``DeviceError/stopped(device:reason:)`` naming `device` when none came.
    public func header(timeout: Double, device: String) throws -> [UInt8] {
        if let header = state.withLock({ $0.header }) { return header }
        if ready.wait(timeout: .now() + timeout) == .success { ready.signal() }
        guard let header = state.withLock({ $0.header }) else {
            throw DeviceError.stopped(device: device, reason: "sent no H.264 keyframe with its parameter sets (SPS, PPS) in \(Int(timeout)) s; record with --video encode, or shorten the camera's keyframe interval")
        }
        return header
    }
}
