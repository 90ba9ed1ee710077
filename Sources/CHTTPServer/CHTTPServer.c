#include "CHTTPServer.h"

#include <arpa/inet.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>
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

// A connection the header watchdog follows, from its start until libmicrohttpd says it
// is closed (which it says before it closes the socket, so the socket shut down below
// is always this connection's).
struct chttp_connection {
    int fd;
    struct timespec waiting_since;  // when it began to wait for a request's headers
    int waiting;                     // whether it waits for them now
    int shut;                        // whether the watchdog has shut it down
    struct chttp_connection *next;
};

struct chttp_server {
    struct MHD_Daemon *daemon;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    pthread_t watchdog;
    int watching;
    int stopping;
    unsigned int header_seconds;
    struct chttp_connection *connections;
    // The caller's callbacks and their context, called through the ones below.
    MHD_AccessHandlerCallback handler;
    MHD_RequestCompletedCallback completed;
    void *context;
};

static double chttp_seconds_since(const struct timespec *then) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - then->tv_sec) + (double)(now.tv_nsec - then->tv_nsec) / 1e9;
}

// Once a second: a connection that has waited longer than header_seconds for a
// request's headers is shut down (its thread's read then ends, and libmicrohttpd closes
// it), however slowly it sends them.
static void *chttp_watch(void *context) {
    struct chttp_server *server = context;
    pthread_mutex_lock(&server->lock);
    while (!server->stopping) {
        for (struct chttp_connection *c = server->connections; c != NULL; c = c->next) {
            if (c->waiting && !c->shut && chttp_seconds_since(&c->waiting_since) > server->header_seconds) {
                (void) shutdown(c->fd, SHUT_RDWR);
                c->shut = 1;
            }
        }
        struct timespec until;
        clock_gettime(CLOCK_MONOTONIC, &until);
        until.tv_sec += 1;
        pthread_cond_timedwait(&server->wake, &server->lock, &until);
    }
    pthread_mutex_unlock(&server->lock);
    return NULL;
}

static void chttp_notify_connection(void *context, struct MHD_Connection *connection, void **socket_context,
                                    enum MHD_ConnectionNotificationCode code) {
    struct chttp_server *server = context;
    if (code == MHD_CONNECTION_NOTIFY_STARTED) {
        struct chttp_connection *c = calloc(1, sizeof *c);
        const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
        if (c == NULL || info == NULL) {
            free(c);
            *socket_context = NULL;
            return;
        }
        c->fd = info->connect_fd;
        c->waiting = 1;
        clock_gettime(CLOCK_MONOTONIC, &c->waiting_since);
        pthread_mutex_lock(&server->lock);
        c->next = server->connections;
        server->connections = c;
        pthread_mutex_unlock(&server->lock);
        *socket_context = c;
    } else if (*socket_context != NULL) {
        struct chttp_connection *c = *socket_context;
        pthread_mutex_lock(&server->lock);
        for (struct chttp_connection **link = &server->connections; *link != NULL; link = &(*link)->next) {
            if (*link == c) {
                *link = c->next;
                break;
            }
        }
        pthread_mutex_unlock(&server->lock);
        free(c);
        *socket_context = NULL;
    }
}

// Marks the connection as waiting for a request's headers (1: a request ended, the next
// may come) or not (0: a request's headers are in).
static void chttp_set_waiting(struct chttp_server *server, struct MHD_Connection *connection, int waiting) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    if (info == NULL || info->socket_context == NULL) return;
    struct chttp_connection *c = info->socket_context;
    pthread_mutex_lock(&server->lock);
    c->waiting = waiting;
    if (waiting) clock_gettime(CLOCK_MONOTONIC, &c->waiting_since);
    pthread_mutex_unlock(&server->lock);
}

// The daemon's access handler: a request's first call comes when its headers are in.
static enum MHD_Result chttp_access(void *cls, struct MHD_Connection *connection, const char *url, const char *method,
                                   const char *version, const char *upload_data, size_t *upload_data_size, void **request_context) {
    struct chttp_server *server = cls;
    if (*request_context == NULL) chttp_set_waiting(server, connection, 0);
    return server->handler(server->context, connection, url, method, version, upload_data, upload_data_size, request_context);
}

// The daemon's completion callback: the connection waits for the next request's headers.
static void chttp_completed(void *cls, struct MHD_Connection *connection, void **request_context,
                            enum MHD_RequestTerminationCode code) {
    struct chttp_server *server = cls;
    chttp_set_waiting(server, connection, 1);
    server->completed(server->context, connection, request_context, code);
}

struct chttp_server *chttp_start(const char *address, uint16_t port, MHD_AccessHandlerCallback handler,
                                 MHD_RequestCompletedCallback completed, void *context,
                                 const char *certificate, const char *key, struct chttp_limits limits) {
    struct sockaddr_in v4;
    struct sockaddr_in6 v6;
    struct sockaddr *bound;
    socklen_t length;
    // No MHD_USE_ERROR_LOG: vidrec says what failed, in one line, itself. MHD_USE_POLL:
    // select() would refuse every descriptor past FD_SETSIZE (1,024), which a process
    // whose open-file limit was raised for its connections reaches.
    unsigned int flags = MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL;
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
    struct chttp_server *server = calloc(1, sizeof *server);
    if (server == NULL) {
        errno = ENOMEM;
        return NULL;
    }
    server->header_seconds = limits.header_seconds;
    server->handler = handler;
    server->completed = completed;
    server->context = context;
    pthread_mutex_init(&server->lock, NULL);
    pthread_condattr_t clock;
    pthread_condattr_init(&clock);
    pthread_condattr_setclock(&clock, CLOCK_MONOTONIC);
    pthread_cond_init(&server->wake, &clock);
    pthread_condattr_destroy(&clock);
    struct MHD_OptionItem tls[] = {
        { MHD_OPTION_HTTPS_MEM_CERT, 0, (void *) certificate },
        { MHD_OPTION_HTTPS_MEM_KEY, 0, (void *) key },
        { MHD_OPTION_END, 0, NULL },
    };
    errno = 0;
    server->daemon = MHD_start_daemon(flags, port, NULL, NULL, chttp_access, server,
                                      MHD_OPTION_SOCK_ADDR, bound,
                                      MHD_OPTION_NOTIFY_COMPLETED, chttp_completed, server,
                                      MHD_OPTION_NOTIFY_CONNECTION, chttp_notify_connection, server,
                                      MHD_OPTION_CONNECTION_TIMEOUT, limits.idle_seconds,
                                      MHD_OPTION_CONNECTION_LIMIT, limits.connections,
                                      MHD_OPTION_PER_IP_CONNECTION_LIMIT, limits.connections_per_address,
                                      MHD_OPTION_ARRAY, (flags & MHD_USE_TLS) ? tls : &tls[2],
                                      MHD_OPTION_END);
    if (server->daemon == NULL) {
        int failure = errno == 0 ? EIO : errno;
        chttp_free(server);
        errno = failure;
        return NULL;
    }
    server->watching = pthread_create(&server->watchdog, NULL, chttp_watch, server) == 0;
    if (!server->watching) {
        MHD_stop_daemon(server->daemon);
        chttp_free(server);
        errno = EAGAIN;
        return NULL;
    }
    return server;
}

void chttp_stop(struct chttp_server *server) {
    pthread_mutex_lock(&server->lock);
    server->stopping = 1;
    pthread_cond_signal(&server->wake);
    pthread_mutex_unlock(&server->lock);
    if (server->watching) pthread_join(server->watchdog, NULL);
    server->watching = 0;
    MHD_stop_daemon(server->daemon);
    server->daemon = NULL;
}

void chttp_free(struct chttp_server *server) {
    pthread_cond_destroy(&server->wake);
    pthread_mutex_destroy(&server->lock);
    free(server);
}

uint16_t chttp_port(struct chttp_server *server) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(server->daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}
