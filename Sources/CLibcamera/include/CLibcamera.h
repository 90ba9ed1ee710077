// A C interface over libcamera (a C++ library), for Swift: the cameras libcamera finds
// (a Raspberry Pi's camera module, a laptop's MIPI camera, vimc), their modes, and
// capture from one of them. Every call returns 0 or a negative errno unless it says
// otherwise; text goes into the caller's buffers, cut to their size.
//
// The version differences between Debian 12's libcamera 0.0.3 and Debian 13's 0.4 live
// in CLibcamera.cpp only.
#pragma once

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// One mode of a camera: a pixel format (V4L2's fourcc, as libcamera's formats are) at
/// a size, with the fastest frame rate the camera says it can reach (0 when it does not
/// say).
typedef struct {
    uint32_t fourcc;
    uint32_t width;
    uint32_t height;
    double max_frame_rate;
} vidrec_libcamera_mode;

/// How many cameras libcamera finds (starting its camera manager, once per process);
/// -EBUSY under libcamera's V4L2 compatibility layer (`libcamerify`, v4l2-compat.so in
/// LD_PRELOAD), which holds the process's one camera manager: vidrec then uses none.
int vidrec_libcamera_camera_count(void);

/// The `index`th camera's id (libcamera's, stable across boots) and model.
int vidrec_libcamera_camera_info(int index, char *id, size_t id_size, char *model, size_t model_size);

/// The modes of camera `id` for video recording, at most `capacity`; returns how many
/// (or a negative errno: -ENODEV for no such camera).
int vidrec_libcamera_camera_modes(const char *id, vidrec_libcamera_mode *modes, int capacity);

/// The media device nodes (/dev/mediaN) and V4L2 nodes behind camera `id`, as libcamera
/// names them (`properties::SystemDevices`, dev_t values), at most `capacity`; returns
/// how many.
int vidrec_libcamera_camera_devices(const char *id, int64_t *devices, int capacity);

/// The type of a control's value.
typedef enum {
    VIDREC_LIBCAMERA_CONTROL_BOOL = 1,
    VIDREC_LIBCAMERA_CONTROL_INTEGER = 2,
    VIDREC_LIBCAMERA_CONTROL_FLOAT = 3,
} vidrec_libcamera_control_type;

/// One control a camera takes (Brightness, ExposureTime, AwbEnable, …): libcamera's
/// name, its type, its range and its default (`has_default` 0 when it has none).
/// Controls whose value is not a single number (arrays, rectangles) are left out.
typedef struct {
    char name[64];
    vidrec_libcamera_control_type type;
    double minimum;
    double maximum;
    double default_value;
    int has_default;
} vidrec_libcamera_control;

/// The controls camera `id` takes, at most `capacity`; returns how many (or -ENODEV).
int vidrec_libcamera_camera_controls(const char *id, vidrec_libcamera_control *controls, int capacity);

/// A camera opened for capture.
typedef struct vidrec_libcamera_camera vidrec_libcamera_camera;

/// A captured frame, given to the frame callback on libcamera's thread: its planes
/// (mapped, read-only, valid until the callback returns), their mapped lengths, the
/// first plane's stride (each entry), its capture time (CLOCK_MONOTONIC, ns) and sequence number; `failed` when
/// libcamera reports the frame's buffer as an error (its contents are not to be used).
typedef struct {
    const uint8_t *planes[3];
    size_t plane_sizes[3];
    uint32_t strides[3];
    int plane_count;
    int64_t timestamp;
    uint32_t sequence;
    int failed;
} vidrec_libcamera_frame;

typedef void (*vidrec_libcamera_frame_callback)(void *context, const vidrec_libcamera_frame *frame);

/// Opens camera `id` (acquires it: no other process can use it until it is closed)
/// in `fourcc` at `width` x `height`, with `buffer_count` buffers; `frame_duration_us`
/// asks for a frame rate (0: the camera's own). What libcamera adjusted is written
/// back into `fourcc`, `width` and `height`. On failure, `error` says why.
int vidrec_libcamera_open(const char *id, uint32_t *fourcc, uint32_t *width, uint32_t *height, unsigned buffer_count,
                          int64_t frame_duration_us, vidrec_libcamera_camera **camera, char *error, size_t error_size);

/// Asks for control `name` at `value` (a boolean is 0 or 1) from the start of capture
/// on, and unless `keep`, for its default again in a last request when capture stops;
/// before ``vidrec_libcamera_start``. -ENOENT: the camera has no such control; -ERANGE:
/// the value is outside its range.
int vidrec_libcamera_set_control(vidrec_libcamera_camera *camera, const char *name, double value, int keep);

/// Starts capture: each frame goes to `callback` with `context`, on libcamera's thread,
/// and its buffer is queued again when the callback returns.
int vidrec_libcamera_start(vidrec_libcamera_camera *camera, vidrec_libcamera_frame_callback callback, void *context,
                           char *error, size_t error_size);

/// Stops capture; no callback runs after it returns. Safe to call more than once.
void vidrec_libcamera_stop(vidrec_libcamera_camera *camera);

/// Stops capture if needed, releases the camera and frees everything.
void vidrec_libcamera_close(vidrec_libcamera_camera *camera);

/// libcamera's version, as `0.0.3` or `0.4.0`.
const char *vidrec_libcamera_version(void);

#ifdef __cplusplus
}
#endif
