// CHTTPServer: GNU libmicrohttpd (Debian's libmicrohttpd-dev), the HTTP server behind
// `vidrec serve`, and shims for what Swift cannot call: MHD_start_daemon takes its
// options as C varargs, and a few values are macros.
#ifndef CHTTPSERVER_H
#define CHTTPSERVER_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <microhttpd.h>

/// MHD_SIZE_UNKNOWN: a response whose length is not known (a stream).
uint64_t chttp_size_unknown(void);
/// MHD_CONTENT_READER_END_OF_STREAM and MHD_CONTENT_READER_END_WITH_ERROR.
ssize_t chttp_reader_end_of_stream(void);
ssize_t chttp_reader_end_with_error(void);

/// What a server allows its clients.
struct chttp_limits {
    /// Connections at once, in all, and from one address (more are refused at once).
    unsigned int connections;
    unsigned int connections_per_address;
    /// Seconds a connection may wait for a request's headers (from its start, or from
    /// the end of its last request), however slowly they come: then it is closed.
    unsigned int header_seconds;
    /// Seconds a connection may stay idle (nothing sent either way).
    unsigned int idle_seconds;
};

/// A libmicrohttpd daemon and the watchdog that closes connections whose headers are
/// late (libmicrohttpd's own timeout counts idle time only, which a client sending a
/// header line now and then never reaches).
struct chttp_server;

/// Starts a daemon with a thread for each connection (so that a stream's reader may
/// block until the next picture), listening on `address` (IPv4 or IPv6, numeric) at
/// `port` (0: a free one), calling `handler` with `context` for each request and
/// `completed` when a request ends, within `limits`. With `certificate` and `key` (PEM,
/// or NULL), it speaks TLS.
///
/// Returns the server, or NULL with errno set (EADDRINUSE, EACCES, EINVAL for an
/// address that does not parse, or EIO when libmicrohttpd gives no reason).
struct chttp_server *chttp_start(const char *address, uint16_t port, MHD_AccessHandlerCallback handler,
                                 MHD_RequestCompletedCallback completed, void *context,
                                 const char *certificate, const char *key, struct chttp_limits limits);

/// Stops the watchdog, then the daemon (every connection closed, their threads joined).
void chttp_stop(struct chttp_server *server);

/// Frees a stopped server.
void chttp_free(struct chttp_server *server);

/// The port the server listens on (useful after port 0), or 0.
uint16_t chttp_port(struct chttp_server *server);

#endif
