// CTurboJPEG: libjpeg-turbo's TurboJPEG API, which decodes webcams' Motion JPEG
// straight into YUV planes.
#ifndef CTURBOJPEG_SHIM_H
#define CTURBOJPEG_SHIM_H

#include <turbojpeg.h>

#endif
