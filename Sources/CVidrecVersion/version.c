#include "CVidrecVersion.h"

// #embed (C23) makes the build depend on VERSION: a new version rebuilds this file.
#pragma clang diagnostic ignored "-Wc23-extensions"
static const char version[] = {
#embed "../../VERSION"
    , 0
};

const char *cvidrec_version(void) { return version; }
