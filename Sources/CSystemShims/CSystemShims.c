#define _GNU_SOURCE
#include <malloc.h>
#include "CSystemShims.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdlib.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

int csystem_rename_noreplace(int olddirfd, const char *oldpath, int newdirfd, const char *newpath) {
    return renameat2(olddirfd, oldpath, newdirfd, newpath, RENAME_NOREPLACE);
}

void csystem_set_thread_name(const char *name) {
    char truncated[16];
    strncpy(truncated, name, sizeof truncated - 1);
    truncated[sizeof truncated - 1] = '\0';
    pthread_setname_np(pthread_self(), truncated);
}

unsigned long csystem_heap_in_use(void) {
    return (unsigned long)mallinfo2().uordblks;
}

int csystem_pidfd_open(int pid) {
    return (int)syscall(SYS_pidfd_open, pid, 0);
}

int csystem_pidfd_send_signal(int pidfd, int signal) {
    return (int)syscall(SYS_pidfd_send_signal, pidfd, signal, NULL, 0);
}

int csystem_eventfd(void) {
    return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
}

int csystem_inotify_init(void) {
    return inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
}

int csystem_inotify_watch_folder(int inotify, const char *folder) {
    return inotify_add_watch(inotify, folder, IN_CREATE | IN_MOVED_TO | IN_ATTRIB | IN_ONLYDIR);
}

int csystem_available_processors(void) {
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) return CPU_COUNT(&set);
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    return online > 0 ? (int)online : 1;
}

int csystem_peer_uid(int socket, unsigned int *uid) {
    struct ucred credentials;
    socklen_t length = sizeof credentials;
    if (getsockopt(socket, SOL_SOCKET, SO_PEERCRED, &credentials, &length) != 0) return -1;
    *uid = credentials.uid;
    return 0;
}

/// The fallback of csystem_open_beneath: one component at a time, each with O_NOFOLLOW.
int csystem_open_beneath_stepwise(int dirfd, const char *path, int flags) {
    if (path[0] == '/') { errno = EXDEV; return -1; }
    char *copy = strdup(path);
    if (copy == NULL) { errno = ENOMEM; return -1; }
    int current = dirfd;
    char *rest = copy;
    int result = -1;
    for (;;) {
        char *slash = strchr(rest, '/');
        if (slash != NULL) *slash = '\0';
        if (rest[0] == '\0' || strcmp(rest, ".") == 0 || strcmp(rest, "..") == 0) {
            errno = EXDEV;
            break;
        }
        if (slash == NULL) {
            result = openat(current, rest, flags | O_NOFOLLOW | O_CLOEXEC, 0600);
            break;
        }
        int next = openat(current, rest, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (next < 0) {
            // A link where a folder should be: O_NOFOLLOW with O_DIRECTORY says ENOTDIR.
            struct stat status;
            if (errno == ENOTDIR && fstatat(current, rest, &status, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(status.st_mode)) errno = ELOOP;
            break;
        }
        if (current != dirfd) close(current);
        current = next;
        rest = slash + 1;
    }
    int saved = errno;
    if (current != dirfd) close(current);
    free(copy);
    errno = saved;
    return result;
}

int csystem_open_beneath(int dirfd, const char *path, int flags) {
    struct open_how how;
    memset(&how, 0, sizeof how);
    how.flags = (unsigned long long)(flags | O_NOFOLLOW | O_CLOEXEC);
    how.mode = (flags & O_CREAT) ? 0600 : 0;
    how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
    int fd = (int)syscall(SYS_openat2, dirfd, path, &how, sizeof how);
    if (fd >= 0 || errno != ENOSYS) return fd;
    return csystem_open_beneath_stepwise(dirfd, path, flags);
}
