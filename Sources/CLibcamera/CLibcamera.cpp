// libcamera behind the C interface of CLibcamera.h. The one place that knows
// libcamera's C++ API, and the differences between its versions (Debian 12's 0.0.3,
// Debian 13's 0.4).
#include "CLibcamera.h"

#include <libcamera/libcamera.h>

#include <sys/mman.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

using namespace libcamera;

namespace {

// libcamera allows one camera manager per process: it is started on first use and
// lives as long as the process.
std::mutex managerLock;
CameraManager *manager = nullptr;

// Whether libcamera's V4L2 compatibility layer is loaded (`libcamerify`): it has made
// the process's camera manager already, and a second would abort the process.
bool underCompatibilityLayer() {
    const char *preload = getenv("LD_PRELOAD");
    return preload && strstr(preload, "v4l2-compat");
}

CameraManager *startedManager() {
    std::lock_guard<std::mutex> guard(managerLock);
    if (manager) return manager;
    if (underCompatibilityLayer()) return nullptr;
    // libcamera logs its version and every camera it finds at INFO, and 0.4 logs an
    // ERROR on every machine without a dma-buf heap, which vidrec does not use. vidrec
    // reports each failure itself, so libcamera's own log is off (FATAL only) unless the
    // user sets LIBCAMERA_LOG_LEVELS. Its logger reads the variable when it is first
    // used, which is here.
    setenv("LIBCAMERA_LOG_LEVELS", "*:FATAL", 0);
    auto *started = new CameraManager();
    if (started->start() != 0) {
        delete started;
        return nullptr;
    }
    manager = started;
    return manager;
}

void copyText(const std::string &text, char *into, size_t size) {
    if (!into || size == 0) return;
    size_t length = std::min(text.size(), size - 1);
    memcpy(into, text.data(), length);
    into[length] = '\0';
}

std::shared_ptr<Camera> findCamera(const char *id) {
    CameraManager *cameras = startedManager();
    return cameras ? cameras->get(id) : nullptr;
}

// The fastest frame rate the camera allows (its shortest frame duration), 0 when it
// does not say.
double maxFrameRate(const Camera &camera) {
    auto limits = camera.controls().find(&controls::FrameDurationLimits);
    if (limits == camera.controls().end()) return 0;
    int64_t shortest = limits->second.min().get<int64_t>();
    return shortest > 0 ? 1e6 / double(shortest) : 0;
}

// A control's value as a number, for the types vidrec sets (a boolean is 0 or 1);
// false for the others (arrays, rectangles, text).
bool number(const ControlValue &value, double *out) {
    if (value.isNone() || value.isArray()) return false;
    switch (value.type()) {
    case ControlTypeBool: *out = value.get<bool>() ? 1 : 0; return true;
    case ControlTypeInteger32: *out = value.get<int32_t>(); return true;
    case ControlTypeInteger64: *out = double(value.get<int64_t>()); return true;
    case ControlTypeFloat: *out = value.get<float>(); return true;
    default: return false;
    }
}

// `number` as a value of `type` (one that ``number`` reads).
ControlValue valueOf(ControlType type, double number) {
    switch (type) {
    case ControlTypeBool: return ControlValue(number != 0);
    case ControlTypeInteger32: return ControlValue(int32_t(number));
    case ControlTypeInteger64: return ControlValue(int64_t(number));
    default: return ControlValue(float(number));
    }
}

}  // namespace

struct vidrec_libcamera_camera {
    std::shared_ptr<Camera> camera;
    std::unique_ptr<CameraConfiguration> configuration;
    std::unique_ptr<FrameBufferAllocator> allocator;
    std::vector<std::unique_ptr<Request>> requests;
    Stream *stream = nullptr;
    // Each buffer's planes, mapped once: where each plane starts.
    std::map<const FrameBuffer *, std::vector<const uint8_t *>> planes;
    std::vector<std::pair<void *, size_t>> mappings;
    ControlList startControls;
    vidrec_libcamera_frame_callback callback = nullptr;
    void *context = nullptr;
    bool started = false;
    bool acquired = false;
    // The controls asked for (vidrec_libcamera_set_control), and their defaults, asked
    // for again in one last request before capture stops.
    std::vector<std::pair<const ControlId *, ControlValue>> requested;
    std::vector<std::pair<const ControlId *, ControlValue>> defaults;
    std::mutex restoreLock;
    std::condition_variable restoreDone;
    bool restoring = false;
    Request *restoreRequest = nullptr;
    bool restored = false;

    // On libcamera's thread, as capture stops: the first request queued again carries
    // the defaults; its completion says they are set.
    void queueAgain(Request *request) {
        request->reuse(Request::ReuseBuffers);
        {
            std::lock_guard<std::mutex> guard(restoreLock);
            if (restoreRequest == request) {
                restored = true;
                restoreDone.notify_all();
            } else if (restoring && !restoreRequest) {
                for (auto &[id, value] : defaults) request->controls().set(id->id(), value);
                restoreRequest = request;
            }
        }
        camera->queueRequest(request);
    }

    // Asks for the defaults of the controls set and waits (a second at most) until a
    // frame has been made with them.
    void restoreControls() {
        if (defaults.empty()) return;
        std::unique_lock<std::mutex> lock(restoreLock);
        restoring = true;
        restoreDone.wait_for(lock, std::chrono::seconds(1), [this] { return restored; });
    }

    // On libcamera's thread: the frame to the callback, then its request queued again.
    void completed(Request *request) {
        if (request->status() == Request::RequestCancelled) return;
        FrameBuffer *buffer = request->buffers().begin()->second;
        const FrameMetadata &metadata = buffer->metadata();
        vidrec_libcamera_frame frame = {};
        // Every buffer of the stream was mapped before the start; one that was not
        // (libcamera's own) is given back unread.
        auto found = planes.find(buffer);
        if (found == planes.end()) {
            queueAgain(request);
            return;
        }
        const std::vector<const uint8_t *> &mapped = found->second;
        frame.plane_count = int(std::min<size_t>({3, buffer->planes().size(), mapped.size()}));
        const StreamConfiguration &configuration = stream->configuration();
        for (int i = 0; i < frame.plane_count; i++) {
            frame.planes[i] = mapped[i];
            frame.plane_sizes[i] = buffer->planes()[i].length;
            frame.strides[i] = configuration.stride;
        }
        frame.timestamp = int64_t(metadata.timestamp);
        frame.sequence = metadata.sequence;
        frame.failed = metadata.status != FrameMetadata::FrameSuccess;
        callback(context, &frame);
        queueAgain(request);
    }

    // Maps each buffer's planes (a dmabuf per plane, or one for all of them).
    int mapBuffers() {
        for (const std::unique_ptr<FrameBuffer> &buffer : allocator->buffers(stream)) {
            std::map<int, std::pair<void *, size_t>> byDescriptor;
            for (const FrameBuffer::Plane &plane : buffer->planes()) {
                size_t end = plane.offset + plane.length;
                auto &length = byDescriptor[plane.fd.get()].second;
                length = std::max(length, end);
            }
            for (auto &[fd, mapping] : byDescriptor) {
                void *address = mmap(nullptr, mapping.second, PROT_READ, MAP_SHARED, fd, 0);
                if (address == MAP_FAILED) return -errno;
                mapping.first = address;
                mappings.emplace_back(address, mapping.second);
            }
            std::vector<const uint8_t *> starts;
            for (const FrameBuffer::Plane &plane : buffer->planes()) {
                starts.push_back(static_cast<const uint8_t *>(byDescriptor[plane.fd.get()].first) + plane.offset);
            }
            planes[buffer.get()] = starts;
        }
        return 0;
    }

    ~vidrec_libcamera_camera() {
        for (auto &[address, length] : mappings) munmap(address, length);
        requests.clear();
        allocator.reset();
        if (acquired) camera->release();
    }
};

extern "C" {

int vidrec_libcamera_camera_count(void) {
    CameraManager *cameras = startedManager();
    if (!cameras) return underCompatibilityLayer() ? -EBUSY : -ENODEV;
    return int(cameras->cameras().size());
}

int vidrec_libcamera_camera_info(int index, char *id, size_t id_size, char *model, size_t model_size) {
    CameraManager *cameras = startedManager();
    if (!cameras) return -ENODEV;
    auto list = cameras->cameras();
    if (index < 0 || size_t(index) >= list.size()) return -ENODEV;
    const std::shared_ptr<Camera> &camera = list[size_t(index)];
    copyText(camera->id(), id, id_size);
    auto name = camera->properties().get(properties::Model);
    copyText(name ? *name : camera->id(), model, model_size);
    return 0;
}

int vidrec_libcamera_camera_modes(const char *id, vidrec_libcamera_mode *modes, int capacity) {
    std::shared_ptr<Camera> camera = findCamera(id);
    if (!camera) return -ENODEV;
    std::vector<StreamRole> roles{StreamRole::VideoRecording};
    std::unique_ptr<CameraConfiguration> configuration = camera->generateConfiguration(roles);
    if (!configuration || configuration->empty()) return -EINVAL;
    const StreamFormats &formats = configuration->at(0).formats();
    double rate = maxFrameRate(*camera);
    int count = 0;
    for (const PixelFormat &format : formats.pixelformats()) {
        for (const Size &size : formats.sizes(format)) {
            if (count == capacity) return count;
            modes[count++] = {format.fourcc(), size.width, size.height, rate};
        }
    }
    return count;
}

int vidrec_libcamera_camera_controls(const char *id, vidrec_libcamera_control *controls, int capacity) {
    std::shared_ptr<Camera> camera = findCamera(id);
    if (!camera) return -ENODEV;
    int count = 0;
    for (const auto &[control, info] : camera->controls()) {
        if (count == capacity) break;
        vidrec_libcamera_control listed = {};
        if (!number(info.min(), &listed.minimum) || !number(info.max(), &listed.maximum)) continue;
        switch (control->type()) {
        case ControlTypeBool: listed.type = VIDREC_LIBCAMERA_CONTROL_BOOL; break;
        case ControlTypeInteger32:
        case ControlTypeInteger64: listed.type = VIDREC_LIBCAMERA_CONTROL_INTEGER; break;
        case ControlTypeFloat: listed.type = VIDREC_LIBCAMERA_CONTROL_FLOAT; break;
        default: continue;
        }
        listed.has_default = number(info.def(), &listed.default_value);
        copyText(control->name(), listed.name, sizeof listed.name);
        controls[count++] = listed;
    }
    return count;
}

int vidrec_libcamera_camera_devices(const char *id, int64_t *devices, int capacity) {
    std::shared_ptr<Camera> camera = findCamera(id);
    if (!camera) return -ENODEV;
#if LIBCAMERA_VERSION_MAJOR > 0 || LIBCAMERA_VERSION_MINOR > 0 || LIBCAMERA_VERSION_PATCH >= 4
    // properties::SystemDevices came with libcamera 0.0.4.
    auto nodes = camera->properties().get(properties::SystemDevices);
    if (!nodes) return 0;
    int count = 0;
    for (int64_t node : *nodes) {
        if (count == capacity) break;
        devices[count++] = node;
    }
    return count;
#else
    (void)devices;
    (void)capacity;
    return -ENOTSUP;
#endif
}

int vidrec_libcamera_open(const char *id, uint32_t *fourcc, uint32_t *width, uint32_t *height, unsigned buffer_count,
                          int64_t frame_duration_us, vidrec_libcamera_camera **opened, char *error, size_t error_size) {
    auto camera = std::make_unique<vidrec_libcamera_camera>();
    camera->camera = findCamera(id);
    if (!camera->camera) {
        copyText("libcamera has no camera with this id", error, error_size);
        return -ENODEV;
    }
    if (int result = camera->camera->acquire(); result < 0) {
        copyText("the camera is in use by another program (acquire)", error, error_size);
        return result;
    }
    camera->acquired = true;
    std::vector<StreamRole> roles{StreamRole::VideoRecording};
    camera->configuration = camera->camera->generateConfiguration(roles);
    if (!camera->configuration || camera->configuration->empty()) {
        copyText("the camera makes no video configuration", error, error_size);
        return -EINVAL;
    }
    StreamConfiguration &stream = camera->configuration->at(0);
    stream.pixelFormat = PixelFormat(*fourcc);
    stream.size = Size(*width, *height);
    stream.bufferCount = buffer_count;
    if (camera->configuration->validate() == CameraConfiguration::Invalid) {
        copyText("the camera refuses the configuration " + stream.toString(), error, error_size);
        return -EINVAL;
    }
    if (int result = camera->camera->configure(camera->configuration.get()); result < 0) {
        copyText("cannot configure the camera as " + stream.toString(), error, error_size);
        return result;
    }
    camera->stream = stream.stream();
    camera->allocator = std::make_unique<FrameBufferAllocator>(camera->camera);
    if (int result = camera->allocator->allocate(camera->stream); result < 0) {
        copyText("cannot allocate the camera's buffers", error, error_size);
        return result;
    }
    if (int result = camera->mapBuffers(); result < 0) {
        copyText("cannot map the camera's buffers", error, error_size);
        return result;
    }
    if (frame_duration_us > 0 && camera->camera->controls().count(&controls::FrameDurationLimits)) {
        int64_t limits[2] = {frame_duration_us, frame_duration_us};
        camera->startControls.set(controls::FrameDurationLimits, Span<const int64_t, 2>(limits));
    }
    *fourcc = stream.pixelFormat.fourcc();
    *width = stream.size.width;
    *height = stream.size.height;
    *opened = camera.release();
    return 0;
}

int vidrec_libcamera_set_control(vidrec_libcamera_camera *camera, const char *name, double value, int keep) {
    for (const auto &[control, info] : camera->camera->controls()) {
        if (control->name() != name) continue;
        double minimum, maximum;
        if (!number(info.min(), &minimum) || !number(info.max(), &maximum)) return -ENOENT;
        if (value < minimum || value > maximum) return -ERANGE;
        camera->requested.emplace_back(control, valueOf(control->type(), value));
        if (!keep && !info.def().isNone()) camera->defaults.emplace_back(control, info.def());
        return 0;
    }
    return -ENOENT;
}

int vidrec_libcamera_start(vidrec_libcamera_camera *camera, vidrec_libcamera_frame_callback callback, void *context,
                           char *error, size_t error_size) {
    camera->callback = callback;
    camera->context = context;
    for (const std::unique_ptr<FrameBuffer> &buffer : camera->allocator->buffers(camera->stream)) {
        std::unique_ptr<Request> request = camera->camera->createRequest();
        if (!request || request->addBuffer(camera->stream, buffer.get()) < 0) {
            copyText("cannot make a capture request", error, error_size);
            return -ENOMEM;
        }
        // The controls asked for, in every first request: pipelines that apply a
        // request's controls when it is queued (vimc) set them before the first frame.
        for (auto &[id, value] : camera->requested) request->controls().set(id->id(), value);
        camera->requests.push_back(std::move(request));
    }
    for (auto &[id, value] : camera->requested) camera->startControls.set(id->id(), value);
    camera->camera->requestCompleted.connect(camera, &vidrec_libcamera_camera::completed);
    if (int result = camera->camera->start(&camera->startControls); result < 0) {
        camera->camera->requestCompleted.disconnect(camera, &vidrec_libcamera_camera::completed);
        copyText("the camera does not start", error, error_size);
        return result;
    }
    camera->started = true;
    for (std::unique_ptr<Request> &request : camera->requests) {
        if (int result = camera->camera->queueRequest(request.get()); result < 0) {
            vidrec_libcamera_stop(camera);
            copyText("cannot queue a capture request", error, error_size);
            return result;
        }
    }
    return 0;
}

void vidrec_libcamera_stop(vidrec_libcamera_camera *camera) {
    if (!camera->started) return;
    camera->restoreControls();
    camera->started = false;
    // Cancels the requests still queued; their completions come before this returns.
    camera->camera->stop();
    camera->camera->requestCompleted.disconnect(camera, &vidrec_libcamera_camera::completed);
}

void vidrec_libcamera_close(vidrec_libcamera_camera *camera) {
    if (!camera) return;
    vidrec_libcamera_stop(camera);
    delete camera;
}

const char *vidrec_libcamera_version(void) {
    static const std::string version = std::to_string(LIBCAMERA_VERSION_MAJOR) + "." + std::to_string(LIBCAMERA_VERSION_MINOR)
        + "." + std::to_string(LIBCAMERA_VERSION_PATCH);
    return version.c_str();
}

}  // extern "C"
