// CVidrecPixels: loops over every pixel of a plane, written in C so that they are
// vectorised by the C compiler in every build (a Swift loop over a plane is slow in a
// debug build).
#ifndef CVIDRECPIXELS_H
#define CVIDRECPIXELS_H

#include <stddef.h>
#include <stdint.h>

/// Halves a plane vertically: each row of `destination` is the rounded average of two
/// rows of `source` (`rows` output rows of `width` bytes; the source's last row stands
/// in for a missing pair). Turns a 4:2:2 picture's chroma planes into 4:2:0 ones.
void cpixels_halve_rows(const uint8_t *source, ptrdiff_t sourceStride, int sourceRows,
                        uint8_t *destination, ptrdiff_t destinationStride, int width, int rows);

#endif
