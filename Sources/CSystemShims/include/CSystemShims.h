// CSystemShims: Linux calls that Glibc's Swift module hides behind _GNU_SOURCE.
#ifndef CSYSTEMSHIMS_H
#define CSYSTEMSHIMS_H

/// `renameat2(olddirfd, oldpath, newdirfd, newpath, RENAME_NOREPLACE)`: an atomic
/// rename that fails with EEXIST instead of replacing the target. Returns 0 or -1
/// with errno set. The corresponding C function is `renameat2`.
int csystem_rename_noreplace(int olddirfd, const char *oldpath, int newdirfd, const char *newpath);

/// Names the calling thread (at most 15 bytes are kept). The corresponding C
/// function is `pthread_setname_np`.
void csystem_set_thread_name(const char *name);

/// Bytes of the C heap in use (`mallinfo2().uordblks`), for tests that check that a
/// failed initializer leaks nothing. `<malloc.h>` is not part of Glibc's Swift module.
/// The corresponding C function is `mallinfo2`.
unsigned long csystem_heap_in_use(void);

/// A descriptor for process `pid` (`pidfd_open`), through which signals reach that
/// process and never another that later gets its PID. Returns the descriptor or -1
/// with errno set. Glibc 2.36 has no wrapper; the system call is made directly.
int csystem_pidfd_open(int pid);

/// Sends `signal` to the process behind `pidfd` (`pidfd_send_signal`). Returns 0, or
/// -1 with errno set (ESRCH once the process has ended).
int csystem_pidfd_send_signal(int pidfd, int signal);

/// A non-blocking, close-on-exec eventfd with a count of 0 (`eventfd`), which a thread
/// blocked in `poll` watches beside its device so that another thread can wake it.
/// Returns the descriptor or -1 with errno set. `<sys/eventfd.h>` is not part of
/// Glibc's Swift module.
int csystem_eventfd(void);

/// A non-blocking, close-on-exec inotify instance (`inotify_init1`), which a thread
/// waiting for a device to come back polls. Returns the descriptor or -1 with errno set.
int csystem_inotify_init(void);

/// Watches `folder` on `inotify` for what appears in it or changes its attributes
/// (`IN_CREATE | IN_MOVED_TO | IN_ATTRIB`, `IN_ONLYDIR`). Returns the watch or -1 with
/// errno set (ENOENT while the folder does not exist).
int csystem_inotify_watch_folder(int inotify, const char *folder);

/// The processors this process may run on (`sched_getaffinity` and `CPU_COUNT`, the
/// count x264 sizes its threads by), or the online processors if that fails; at least 1.
int csystem_available_processors(void);

/// The user ID of the process at the other end of a connected Unix socket
/// (`getsockopt(SO_PEERCRED)`), so that a control socket answers, and a client trusts,
/// only its own user. `struct ucred` is hidden behind _GNU_SOURCE. Returns 0 and sets
/// `*uid`, or -1 with errno set.
int csystem_peer_uid(int socket, unsigned int *uid);

/// Opens `path` (relative, components separated by '/') beneath the directory `dirfd`
/// without following any symbolic link on the way or at the end, and never leaving
/// `dirfd` ("..", an absolute path): `openat2` with `RESOLVE_BENEATH |
/// RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS`. Where the kernel or a seccomp filter
/// has no `openat2` (ENOSYS), each component is opened in turn with `O_NOFOLLOW`, and
/// "." and ".." are refused. `O_CLOEXEC` is added. Returns the descriptor or -1 with
/// errno set: ELOOP for a link, EXDEV for a path that leaves `dirfd`.
int csystem_open_beneath(int dirfd, const char *path, int flags);

/// The fallback of csystem_open_beneath (component by component), callable on its own
/// so that tests check it on kernels that have openat2.
int csystem_open_beneath_stepwise(int dirfd, const char *path, int flags);

#endif
