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

#endif
