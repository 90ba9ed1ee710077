import Glibc
import VidrecALSA
import VidrecCore
import VidrecV4L2
import VidrecFFmpeg
import VidrecMedia
import VidrecMP4

/// Maps a runtime error to its one-line message and exit code (see ``ExitCode``).
enum RuntimeFailure {
    static func classify(_ error: any Error) -> (message: String, code: ExitCode) {
        switch error {
        case let error as CLIError:
            return (error.message, error.code)
        case let error as RecorderError:
            switch error {
            case .lowDiskSpace:
                return ("\(error); free space, or lower it with --min-free", .ioError)
            case .cameraBusy:
                return ("\(error); stop it with 'vidrec stop'", .temporaryFailure)
            case .alreadyRecordingFrom:
                return ("\(error); name another camera ('vidrec devices' lists them)", .usage)
            case .segmentsUnsupported:
                return (error.description, .software)
            case .copiedStreamCannotSwitch:
                return ("\(error); record with --video encode to switch cameras", .usage)
            }
        case let error as PresetError:
            return (error.description, .dataError)
        case let error as CameraControlError:
            return (error.description, .dataError)
        case let error as StoreError:
            switch error {
            case .nothingPending, .unknownID, .missingFile, .notInAlbum: return (error.description, .noInput)
            case .stillRecording: return (error.description, .temporaryFailure)
            case .albumNotAFolder, .cannotWrite: return (error.description, .cannotCreate)
            case .invalidName: return (error.description, .usage)
            case .damagedSidecar: return (error.description, .dataError)
            }
        case let error as SystemError:
            return (describe(error), code(forErrno: error.errno))
        case let error as FFmpegError:
            if let posix = error.posixErrno, [ENOSPC, EIO, EDQUOT, EFBIG].contains(posix) {
                return (error.description, .ioError)
            }
            if error.kind == .unsupportedSettings {
                return ("the preset asks for what this FFmpeg cannot do: \(error)", .dataError)
            }
            return (error.description, .failure)
        case let error as PhotoError:
            switch error {
            case .noFrame: return (error.description, .unavailable)
            case .notRecording, .recordingEnded: return (error.description, .temporaryFailure)
            case .failed: return (error.description, .failure)
            }
        case let error as CaptureSessionError:
            if case .notRunning = error { return (error.description, .temporaryFailure) }
            return (error.description, .unavailable)
        case let error as DeviceError:
            return (DeviceAdvice.message(for: error), .unavailable)
        case let error as CameraModeSelector.Failure:
            return (error.description, .unavailable)
        case let error as ALSAError:
            return (error.description, .unavailable)
        case let error as PrivateFolder.Problem:
            return (error.description, .cannotCreate)
        case let error as MP4Error:
            return (error.description, .dataError)
        default:
            return ("\(error)", .failure)
        }
    }

    static func code(forErrno code: Int32) -> ExitCode {
        switch code {
        case ENOSPC, EIO, EDQUOT, EFBIG: .ioError
        case EACCES, EPERM, EROFS, ENOTDIR, EEXIST: .cannotCreate
        case ENODEV, ENXIO, EBUSY, ENOENT: .unavailable
        default: .failure
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
