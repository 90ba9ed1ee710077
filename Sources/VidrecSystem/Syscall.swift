/// The calls that go through the ``systemCall(_:_:_:)`` seam, by name: what a
/// ``SystemError`` says failed, and what a test makes fail (``SyscallFaults``). A name
/// mistyped in a test or a call is a compile error, not a fault that never fires.
///
/// libc's calls are named as in libc; ALSA's PCM calls, which return a negative errno
/// (``systemCallNegativeErrno(_:_:)``), by their C names, the `snd_pcm_hw_params_*`
/// and `snd_pcm_sw_params_*` families each under one.
public enum Syscall: String, Sendable, CaseIterable {
    case accept
    case access
    case bind
    case chmod
    case connect
    case create  // `open` with `O_CREAT`, named apart for messages and faults
    case eventfd
    case fcntl
    case flock
    case fstat
    case fstatat
    case inotifyInit = "inotify_init1"
    case inotifyAddWatch = "inotify_add_watch"
    case fsync
    case ftruncate
    case getrlimit
    case getsockopt
    case ioctl  // V4L2's, named by their request (VIDIOC_S_FMT) in errors
    case kill
    case linkat
    case listen
    case lstat
    case mkdir
    case mmap
    case open
    case pidfdOpen = "pidfd_open"
    case pidfdSendSignal = "pidfd_send_signal"
    case openat2  // beneath a folder, never through a link (``FileDescriptor/openBeneath(_:_:subject:)``)
    case poll
    case read
    case rename
    case renameat
    case renameat2
    case rmdir
    case send
    case setrlimit
    case socket
    case stat
    case statvfs
    case unlink
    case unlinkat
    case write
    // ALSA (libasound)
    case pcmOpen = "snd_pcm_open"
    case pcmHardwareParameters = "snd_pcm_hw_params"
    case pcmSoftwareParameters = "snd_pcm_sw_params"
    case pcmPrepare = "snd_pcm_prepare"
    case pcmStart = "snd_pcm_start"
    case pcmWait = "snd_pcm_wait"
    case pcmRead = "snd_pcm_readi"
    case pcmRecover = "snd_pcm_recover"
    case pcmDelay = "snd_pcm_delay"
    case pcmTimestamp = "snd_pcm_htimestamp"
    case pcmDrop = "snd_pcm_drop"
    case cardNext = "snd_card_next"
    case controlOpen = "snd_ctl_open"
    case controlCardInfo = "snd_ctl_card_info"
    case controlNextDevice = "snd_ctl_pcm_next_device"
    case controlPCMInfo = "snd_ctl_pcm_info"
}
