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

/// Starts a daemon with a thread for each connection (so that a stream's reader may
/// block until the next picture), listening on `address` (IPv4 or IPv6, numeric) at
/// `port` (0: a free one), calling `handler` with `context` for each request and
/// `completed` when a request ends. With `certificate` and `key` (PEM, or NULL), it
/// speaks TLS. Connections idle for `timeout` seconds are closed.
///
/// Returns the daemon, or NULL with errno set (EADDRINUSE, EACCES, EINVAL for an
/// address that does not parse, or EIO when libmicrohttpd gives no reason).
struct MHD_Daemon *chttp_start(const char *address, uint16_t port, MHD_AccessHandlerCallback handler,
                               MHD_RequestCompletedCallback completed, void *context,
                               const char *certificate, const char *key, unsigned int timeout);

/// The port the daemon listens on (useful after port 0), or 0.
uint16_t chttp_port(struct MHD_Daemon *daemon);

#endif
