import VidrecSystem
/// Why an ``OutputConnection`` gave up on its output without the output itself throwing.
public enum OutputError: Error, CustomStringConvertible, Sendable {
    /// The output fell this many seconds of audio behind the capture (an encoder far
    /// slower than real time, or a disk or network that stopped taking data).
    case fellBehind(String, seconds: Int)

    public var description: String {
        switch self {
        case let .fellBehind(name, seconds):
            "\(name) fell more than \(seconds) s behind the camera and microphone"
        }
    }
}

extension OutputError: ExitCoded {
    /// An output that fell behind ended the recording; what was recorded is kept.
    public var exitCode: ExitCode { .failure }
}
