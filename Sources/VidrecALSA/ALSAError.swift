import CALSA
import VidrecMedia

/// A failed ALSA call: `snd_pcm_hw_params_set_rate_near on hw:1,0: Invalid argument (-22)`.
struct ALSAError: Error, CustomStringConvertible {
    let operation: String
    let device: String
    let code: Int32

    var description: String {
        "\(operation) on \(device): \(String(cString: snd_strerror(code))) (\(code))"
    }
}

/// Throws an ``ALSAError`` for a negative ALSA return code.
@discardableResult
func alsaCheck(_ code: Int32, _ operation: String, _ device: String) throws -> Int32 {
    if code < 0 { throw ALSAError(operation: operation, device: device, code: code) }
    return code
}
