#ifndef CVIDREC_VERSION_H
#define CVIDREC_VERSION_H

/// The contents of the repository's VERSION file (the one place the version is
/// written), embedded at build time; with its trailing newline.
const char *cvidrec_version(void);

#endif
