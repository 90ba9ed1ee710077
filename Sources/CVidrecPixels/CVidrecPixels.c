#include "CVidrecPixels.h"

void cpixels_halve_rows(const uint8_t *source, ptrdiff_t sourceStride, int sourceRows,
                        uint8_t *destination, ptrdiff_t destinationStride, int width, int rows) {
    for (int row = 0; row < rows; row++) {
        const uint8_t *top = source + (ptrdiff_t)(2 * row) * sourceStride;
        const uint8_t *bottom = 2 * row + 1 < sourceRows ? top + sourceStride : top;
        uint8_t *out = destination + (ptrdiff_t)row * destinationStride;
        for (int x = 0; x < width; x++) {
            out[x] = (uint8_t)((top[x] + bottom[x] + 1) >> 1);
        }
    }
}
