// CALSA: ALSA's PCM API. The `snd_pcm_*_alloca` macros cannot be imported;
// use the `_malloc`/`_free` pairs from Swift instead.
#ifndef CALSA_SHIM_H
#define CALSA_SHIM_H

#include <alsa/asoundlib.h>

#endif
