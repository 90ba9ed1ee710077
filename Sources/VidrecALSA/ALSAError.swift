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

/// Throws an ``ALSAError`` for a negative ALSA return code.
@discardableResult
func alsaCheck(_ code: Int32, _ operation: String, _ device: String) throws -> Int32 {
    if code < 0 { throw ALSAError(operation: operation, device: device, code: code) }
    return code
}

extension ALSAError: ExitCoded {
    public var exitCode: ExitCode { .unavailable }
}
