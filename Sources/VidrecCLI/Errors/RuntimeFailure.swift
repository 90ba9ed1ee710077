import Glibc
import VidrecALSA
import VidrecCore
import VidrecSystem
import VidrecV4L2
import VidrecFFmpeg
import VidrecMedia
import VidrecMP4

/// Maps a runtime error to its one-line message and exit code (see ``ExitCode``). The
/// code is the error's own (``ExitCoded``); the message adds, where one helps, what to do.
enum RuntimeFailure {
    static func classify(_ error: any Error) -> (message: String, code: ExitCode) {
        guard let coded = error as? any ExitCoded else { return ("\(error)", .failure) }
        return (message(for: error), coded.exitCode)
    }

    /// The line to print for `error`: its description, with advice for some.
    static func message(for error: any Error) -> String {
        switch error {
        case let error as CLIError:
            return error.message
        case let error as RecorderError:
            switch error {
            case .lowDiskSpace: return "\(error); free space, or lower it with --min-free"
            case .cameraBusy: return "\(error); stop it with 'vidrec stop'"
            case .alreadyRecordingFrom: return "\(error); name another camera ('vidrec devices' lists them)"
            case .segmentsUnsupported, .nothingToRecord, .switchWithoutCamera, .needsPicture, .otherCamera, .otherMicrophone:
                return error.description
            case .copiedStreamCannotSwitch: return "\(error); record with --video encode to switch cameras"
            case .copiedStreamCannotPause: return "\(error); record with --video encode to pause"
            }
        case let error as SystemError:
            return describe(error)
        case let error as FFmpegError where error.exitCode == .dataError:
            return "the preset asks for what this FFmpeg cannot do: \(error)"
        case let error as DeviceError:
            return DeviceAdvice.message(for: error)
        default:
            return "\(error)"
        }
    }

    static func describe(_ error: SystemError) -> String {
        switch error.errno {
        case ENOSPC, EDQUOT:
            "\(error); the disk is full: free space or record to another disk (XDG_STATE_HOME)"
        default:
            error.description
        }
    }
}
