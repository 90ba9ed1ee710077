import CALSA
import VidrecMedia
import VidrecSystem

/// A failed ALSA call: `snd_pcm_hw_params_set_rate_near on hw:1,0: Invalid argument (-22)`.
public struct ALSAError: Error, CustomStringConvertible {
    /// The ALSA call that failed.
    public let operation: String
    /// The PCM name it was made on.
    public let device: String
    /// The negative errno ALSA returned.
    public let code: Int32

    public var description: String {
        "\(operation) on \(device): \(String(cString: snd_strerror(code))) (\(code))"
    }
}

/// Makes an ALSA call through the syscall seam (``systemCallNegativeErrno(_:_:)``: the
/// one EINTR rule, and the faults tests inject by `operation`); throws an ``ALSAError``
/// for a negative return code.
///
/// - Parameter function: the C function for the message, when it is not `operation`'s
///   own (`snd_pcm_hw_params_set_rate_near`, under `.pcmHardwareParameters`).
@discardableResult
func alsaCheck(_ operation: Syscall, _ device: String, function: String? = nil, _ body: () -> Int32) throws -> Int32 {
    let code = systemCallNegativeErrno(operation, body)
    if code < 0 { throw ALSAError(operation: function ?? operation.rawValue, device: device, code: code) }
    return code
}

extension ALSAError: ExitCoded {
    public var exitCode: ExitCode { .unavailable }
}
