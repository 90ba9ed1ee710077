/*
 * For scripts/benchmark: an LD_PRELOAD library that notes when the first frame a program
 * takes from a V4L2 camera (the first VIDIOC_DQBUF that succeeds) was captured, so that
 * the start latency (process start → the first frame, the movie's first) is measured the
 * same way for vidrec and for ffmpeg. The capture time is the buffer's timestamp
 * (CLOCK_MONOTONIC, as vivid stamps it), carried over to CLOCK_REALTIME: a program that
 * starts the stream early and takes its first frame late has still begun recording when
 * that frame was captured. ffmpeg's v4l2 input calls ioctl(); vidrec goes through
 * libv4l2's v4l2_ioctl(), which makes its own system call; both are wrapped. The time
 * (seconds) is written once to the file named by $BENCH_FIRST_FRAME.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <linux/videodev2.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int noted;

static void note_first_frame(unsigned long request, int result, const void *argument) {
    if (result != 0 || request != VIDIOC_DQBUF || __atomic_exchange_n(&noted, 1, __ATOMIC_SEQ_CST)) return;
    struct timespec now, monotonic;
    clock_gettime(CLOCK_REALTIME, &now);
    clock_gettime(CLOCK_MONOTONIC, &monotonic);
    const struct v4l2_buffer *buffer = argument;
    double age = (double)monotonic.tv_sec + monotonic.tv_nsec / 1e9
               - ((double)buffer->timestamp.tv_sec + buffer->timestamp.tv_usec / 1e6);
    if ((buffer->flags & V4L2_BUF_FLAG_TIMESTAMP_MASK) != V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC || age < 0 || age > 60) age = 0;
    const char *path = getenv("BENCH_FIRST_FRAME");
    if (!path) return;
    char line[64];
    int length = snprintf(line, sizeof line, "%.6f\n", (double)now.tv_sec + now.tv_nsec / 1e9 - age);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return;
    if (write(fd, line, (size_t)length) != length) { /* the benchmark reports a missing time */ }
    close(fd);
}

typedef int (*ioctl_function)(int, unsigned long, ...);

/* Calls the wrapped function (looked up once, by name) and notes a first frame. */
static int forward(ioctl_function *real, const char *name, int fd, unsigned long request, void *argument) {
    if (!*real) *real = (ioctl_function)dlsym(RTLD_NEXT, name);
    int result = (*real)(fd, request, argument);
    note_first_frame(request, result, argument);
    return result;
}

int ioctl(int fd, unsigned long request, ...) {
    static ioctl_function real;
    va_list arguments;
    va_start(arguments, request);
    void *argument = va_arg(arguments, void *);
    va_end(arguments);
    return forward(&real, "ioctl", fd, request, argument);
}

int v4l2_ioctl(int fd, unsigned long request, ...) {
    static ioctl_function real;
    va_list arguments;
    va_start(arguments, request);
    void *argument = va_arg(arguments, void *);
    va_end(arguments);
    return forward(&real, "v4l2_ioctl", fd, request, argument);
}
