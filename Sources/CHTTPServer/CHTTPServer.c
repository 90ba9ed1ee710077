#include "CHTTPServer.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

uint64_t chttp_size_unknown(void) { return MHD_SIZE_UNKNOWN; }
ssize_t chttp_reader_end_of_stream(void) { return MHD_CONTENT_READER_END_OF_STREAM; }
ssize_t chttp_reader_end_with_error(void) { return MHD_CONTENT_READER_END_WITH_ERROR; }

// Whether `address` can be bound, as libmicrohttpd binds it (SO_REUSEADDR): 0, or
// bind's errno. libmicrohttpd 1.0 returns with errno set by its clean-up (EBADF) when
// its own bind fails, where 0.9.75 left bind's; trying the address first keeps the
// error the same on both (EADDRINUSE for a port in use, EACCES for a low port).
static int chttp_bind_error(const struct sockaddr *address, socklen_t length) {
    int fd = socket(address->sa_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return errno;
    int on = 1;
    (void) setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
    int failure = bind(fd, address, length) == 0 ? 0 : errno;
    close(fd);
    return failure;
}

struct MHD_Daemon *chttp_start(const char *address, uint16_t port, MHD_AccessHandlerCallback handler,
                               MHD_RequestCompletedCallback completed, void *context,
                               const char *certificate, const char *key, unsigned int timeout) {
    struct sockaddr_in v4;
    struct sockaddr_in6 v6;
    struct sockaddr *bound;
    socklen_t length;
    // No MHD_USE_ERROR_LOG: vidrec says what failed, in one line, itself.
    unsigned int flags = MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD;
    memset(&v4, 0, sizeof v4);
    memset(&v6, 0, sizeof v6);
    if (inet_pton(AF_INET, address, &v4.sin_addr) == 1) {
        v4.sin_family = AF_INET;
        v4.sin_port = htons(port);
        bound = (struct sockaddr *) &v4;
        length = sizeof v4;
    } else if (inet_pton(AF_INET6, address, &v6.sin6_addr) == 1) {
        v6.sin6_family = AF_INET6;
        v6.sin6_port = htons(port);
        bound = (struct sockaddr *) &v6;
        length = sizeof v6;
        flags |= MHD_USE_IPv6;
    } else {
        errno = EINVAL;
        return NULL;
    }
    if (certificate != NULL && key != NULL) flags |= MHD_USE_TLS;
    if (port != 0) {
        int failure = chttp_bind_error(bound, length);
        if (failure != 0) {
            errno = failure;
            return NULL;
        }
    }
    errno = 0;
    struct MHD_Daemon *daemon;
    if (certificate != NULL && key != NULL) {
        daemon = MHD_start_daemon(flags, port, NULL, NULL, handler, context,
                                  MHD_OPTION_SOCK_ADDR, bound,
                                  MHD_OPTION_NOTIFY_COMPLETED, completed, context,
                                  MHD_OPTION_CONNECTION_TIMEOUT, timeout,
                                  MHD_OPTION_HTTPS_MEM_CERT, certificate,
                                  MHD_OPTION_HTTPS_MEM_KEY, key,
                                  MHD_OPTION_END);
    } else {
        daemon = MHD_start_daemon(flags, port, NULL, NULL, handler, context,
                                  MHD_OPTION_SOCK_ADDR, bound,
                                  MHD_OPTION_NOTIFY_COMPLETED, completed, context,
                                  MHD_OPTION_CONNECTION_TIMEOUT, timeout,
                                  MHD_OPTION_END);
    }
    if (daemon == NULL && errno == 0) errno = EIO;
    return daemon;
}

uint16_t chttp_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}
