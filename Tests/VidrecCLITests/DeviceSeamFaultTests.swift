import Glibc
import Testing
import VidrecMedia
import VidrecSystem
@testable import VidrecALSA
@testable import VidrecV4L2

/// The device paths go through the syscall seam like the files: V4L2's ioctls and ALSA's
/// PCM calls fail on the host, by name, as a camera or a sound card does, and each
/// failure reaches the user as the error that names the device and the fix.
///
/// The microphone is alsa-lib's `null` PCM (part of every alsa-lib's configuration, no
/// sound card needed), the camera node `/dev/null` (a character device that answers no
/// V4L2 ioctl).
@Suite struct DeviceSeamFaultTests {
    func openNull() throws -> ALSAMicrophone {
        try ALSAMicrophone(name: "null", sampleRate: 48000, channels: 2, environment: [:])
    }

    /// Starts `microphone`, and returns how many frames it delivered and how its capture
    /// ended, waiting on the queue: `null` delivers as fast as it is read, so a fault
    /// that never fires shows as a thousand chunks with no end.
    func capture(_ microphone: ALSAMicrophone, faults: FaultSwitch) throws -> (frames: Int, ended: (any Error)?) {
        let queue = CaptureQueue()
        try SyscallFaults.injecting(through: faults) { try microphone.start(into: queue) }
        defer { microphone.stop() }
        var frames = 0
        var chunks = 0
        while chunks < 1000, let event = queue.pop(timeout: 30) {
            switch event {
            case .audio(let chunk):
                frames += chunk.frameCount
                chunks += 1
            case .sourceEnded(_, let error): return (frames, error)
            case .video: break
            }
        }
        Issue.record("the microphone neither failed nor ended after \(chunks) chunks")
        return (frames, nil)
    }

    @Test func aBusyOrForbiddenMicrophoneSaysWhoToAskAndWhichGroupToJoin() {
        let busy = #expect(throws: DeviceError.self) {
            try SyscallFaults.injecting([.pcmOpen: EBUSY]) { _ = try openNull() }
        }
        guard case .microphoneBusy(name: "null", holder: _)? = busy else {
            Issue.record("EBUSY from snd_pcm_open is not 'busy': \(String(describing: busy))")
            return
        }
        let denied = #expect(throws: DeviceError.self) {
            try SyscallFaults.injecting([.pcmOpen: EACCES]) { _ = try openNull() }
        }
        guard case .permissionDenied(path: "null", group: "audio")? = denied else {
            Issue.record("EACCES from snd_pcm_open does not name the audio group: \(String(describing: denied))")
            return
        }
    }

    @Test(arguments: [(Syscall.pcmHardwareParameters, "snd_pcm_hw_params_any"), (.pcmSoftwareParameters, "snd_pcm_sw_params_current")])
    func aSetupCallThatFailsIsNamedWithTheDeviceAndTheReason(operation: Syscall, function: String) {
        let error = #expect(throws: ALSAError.self) {
            try SyscallFaults.injecting([operation: EINVAL]) { _ = try openNull() }
        }
        #expect(error?.operation == function)
        #expect(error?.code == -EINVAL)
        #expect(error.map { "\($0)" } == "\(function) on null: Invalid argument (-22)")
    }

    @Test func aMicrophoneThatStartsReadingAndThenFailsEndsItsCaptureWithTheCall() throws {
        let microphone = try openNull()
        let faults = FaultSwitch()
        faults.turnOn(.pcmRead, after: 5, errno: EIO)
        let (frames, ended) = try capture(microphone, faults: faults)
        #expect(frames > 0, "the first five reads deliver sound")
        let error = try #require(ended as? ALSAError, "ended with \(String(describing: ended))")
        #expect("\(error)" == "snd_pcm_readi on null: Input/output error (-5)")
    }

    @Test func aMicrophoneThatIsUnpluggedWhileRecordingSaysSo() throws {
        let microphone = try openNull()
        let faults = FaultSwitch()
        faults.turnOn(.pcmRead, after: 3, errno: ENODEV)
        let (_, ended) = try capture(microphone, faults: faults)
        guard case .stopped(device: "microphone null", let reason)? = ended as? DeviceError else {
            Issue.record("ENODEV from snd_pcm_readi ended with \(String(describing: ended))")
            return
        }
        #expect(reason.contains("disappeared"))
    }

    @Test func anOverrunIsRecoveredAndCounted() throws {
        let microphone = try openNull()
        let faults = FaultSwitch()
        // Every read after the third overruns, and the recovery then fails too: the
        // overrun is counted and the error names the read.
        faults.turnOn(.pcmRead, after: 3, errno: EPIPE)
        faults.turnOn(.pcmRecover, after: 2, errno: EIO)
        let (_, ended) = try capture(microphone, faults: faults)
        #expect(microphone.overruns == 3, "two recovered, the third not")
        let error = try #require(ended as? ALSAError)
        #expect(error.operation == "snd_pcm_readi" && error.code == -EPIPE)
    }

    @Test(arguments: [(EACCES, "permission"), (EBUSY, "busy"), (ENODEV, "not found")])
    func aCameraNodeThatCannotBeOpenedSaysWhy(code: Int32, kind: String) {
        let error = #expect(throws: DeviceError.self) {
            try SyscallFaults.injecting([.open: code]) { _ = try V4L2Device(path: "/dev/null") }
        }
        switch (kind, error) {
        case ("permission", .permissionDenied(path: "/dev/null", group: "video")?),
             ("busy", .busy(path: "/dev/null")?),
             ("not found", .cameraNotFound(path: "/dev/null", reason: _)?):
            break
        default:
            Issue.record("errno \(code) from open gave \(String(describing: error))")
        }
    }

    @Test func aNodeThatAnswersNoV4L2RequestIsNotACameraWithTheKernelsReason() {
        // /dev/null answers VIDIOC_QUERYCAP with ENOTTY; an injected EIO stands for a
        // camera whose firmware hangs. Both go through the seam.
        for (faults, reason) in [([Syscall: Int32](), SystemError.describe(ENOTTY)), ([.ioctl: EIO], SystemError.describe(EIO))] {
            let error = #expect(throws: DeviceError.self) {
                try SyscallFaults.injecting(faults) { _ = try V4L2Device(path: "/dev/null") }
            }
            guard case .notACamera(path: "/dev/null", let said)? = error else {
                Issue.record("gave \(String(describing: error))")
                continue
            }
            #expect(said == "it does not answer VIDIOC_QUERYCAP (\(reason))")
        }
    }
}
