// CALSA: ALSA's PCM and control APIs. The `snd_pcm_*_alloca` macros cannot be
// imported; Swift uses the `_malloc`/`_free` pairs instead.
#ifndef CALSA_SHIM_H
#define CALSA_SHIM_H

#include <alsa/asoundlib.h>

/// alsa-lib prints its own errors ("ALSA lib pcm.c:…: Unknown PCM foo") to stderr;
/// vidrec reports them itself, in one line. The handler is variadic, which Swift
/// cannot define, so it lives here.
static void calsa_quiet_error_handler(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}

/// Silences alsa-lib's own error printing. The corresponding C function is
/// `snd_lib_error_set_handler`.
static inline void calsa_silence_errors(void) { snd_lib_error_set_handler(calsa_quiet_error_handler); }

#endif
