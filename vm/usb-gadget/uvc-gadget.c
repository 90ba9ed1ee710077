/*
 * uvc-gadget: the device side of the test webcam that vm/usb-camera makes, following
 * the kernel's UVC gadget protocol (Documentation/usb/gadget_uvc.rst): it answers the
 * host's probe and commit requests and its brightness control, and while the host
 * streams it sends a moving picture at the committed size and rate, in YUYV or MJPEG,
 * with the frame's number in a 16-block strip along the bottom (as vidrec's test
 * pattern draws it: a block is luma 235 for a 1 bit, 16 for a 0, most significant
 * bit on the left).
 *
 * Usage: uvc-gadget FUNCTION-DIR
 *   FUNCTION-DIR   the UVC function in configfs (…/usb_gadget/NAME/functions/uvc.0); its
 *                  formats, frames and intervals are read from there, and its video
 *                  device from …/uvc.0's gadget video node (found by its driver name).
 * It prints one line per event on stdout ("connect", "streamon 640x480 YUYV 30/1",
 * "streamoff", "disconnect", "brightness 200") and runs until killed.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/usb/ch9.h>
#include <linux/usb/g_uvc.h>
#include <linux/usb/video.h>
#include <linux/videodev2.h>
#include <poll.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <turbojpeg.h>
#include <unistd.h>

#define MAX_FRAMES 16
#define MAX_INTERVALS 8
#define BUFFERS 4
/* The interfaces the host addresses: vm/usb-camera links the UVC function first, so
 * its control interface is 0 and its streaming interface 1. */
#define STREAMING_INTERFACE 1

struct frame {
	int index, width, height, intervals[MAX_INTERVALS], interval_count;
	uint32_t max_size;
};

struct format {
	int index, mjpeg, frame_count;
	struct frame frames[MAX_FRAMES];
};

static struct format formats[2];
static int format_count;
static struct uvc_streaming_control probe, commit;
static int control_selector, control_entity, control_request_error;
static int brightness = 128, ae_mode = 8, streaming_maxpacket = 1024;
static int fd = -1;
static void *buffers[BUFFERS];
static size_t buffer_lengths[BUFFERS];
static int free_buffers[BUFFERS], free_count, streaming;
static uint64_t frame_number;
static struct timespec start;
static tjhandle jpeg;

static void die(const char *fmt, ...)
{
	va_list args;
	va_start(args, fmt);
	fprintf(stderr, "uvc-gadget: ");
	vfprintf(stderr, fmt, args);
	fprintf(stderr, "\n");
	va_end(args);
	exit(1);
}

static int read_int(const char *dir, const char *name)
{
	char path[512], text[64];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *file = fopen(path, "r");
	if (!file || !fgets(text, sizeof text, file))
		die("cannot read %s: %s", path, strerror(errno));
	fclose(file);
	return (int)strtol(text, NULL, 0);
}

/* The formats and frames of the function, with the indices the host knows them by. */
static void read_formats(const char *function)
{
	static const char *groups[] = { "uncompressed", "mjpeg" };
	for (int g = 0; g < 2; g++) {
		char group[512];
		snprintf(group, sizeof group, "%s/streaming/%s", function, groups[g]);
		DIR *formats_dir = opendir(group);
		if (!formats_dir)
			continue;
		struct dirent *entry;
		while ((entry = readdir(formats_dir)) && format_count < 2) {
			if (entry->d_name[0] == '.' || entry->d_type != DT_DIR)
				continue;
			struct format *format = &formats[format_count++];
			char dir[768];
			snprintf(dir, sizeof dir, "%s/%s", group, entry->d_name);
			format->index = read_int(dir, "bFormatIndex");
			format->mjpeg = g == 1;
			DIR *frames_dir = opendir(dir);
			struct dirent *frame_entry;
			while ((frame_entry = readdir(frames_dir)) && format->frame_count < MAX_FRAMES) {
				if (frame_entry->d_name[0] == '.' || frame_entry->d_type != DT_DIR)
					continue;
				char frame_dir[1024];
				snprintf(frame_dir, sizeof frame_dir, "%s/%s", dir, frame_entry->d_name);
				struct frame *frame = &format->frames[format->frame_count++];
				frame->index = read_int(frame_dir, "bFrameIndex");
				frame->width = read_int(frame_dir, "wWidth");
				frame->height = read_int(frame_dir, "wHeight");
				frame->max_size = (uint32_t)read_int(frame_dir, "dwMaxVideoFrameBufferSize");
				char path[1100], line[64];
				snprintf(path, sizeof path, "%s/dwFrameInterval", frame_dir);
				FILE *file = fopen(path, "r");
				while (file && fgets(line, sizeof line, file) && frame->interval_count < MAX_INTERVALS)
					frame->intervals[frame->interval_count++] = atoi(line);
				if (file)
					fclose(file);
			}
			closedir(frames_dir);
		}
		closedir(formats_dir);
	}
	if (format_count == 0)
		die("%s has no formats", function);
	char maxpacket[512];
	snprintf(maxpacket, sizeof maxpacket, "%s", function);
	streaming_maxpacket = read_int(maxpacket, "streaming_maxpacket");
}

static struct format *find_format(int index)
{
	for (int i = 0; i < format_count; i++)
		if (formats[i].index == index)
			return &formats[i];
	return NULL;
}

static struct frame *find_frame(struct format *format, int index)
{
	for (int i = 0; i < format->frame_count; i++)
		if (format->frames[i].index == index)
			return &format->frames[i];
	return NULL;
}

/* A probe the gadget can keep: a known format and frame, the nearest interval. */
static void fill_probe(struct uvc_streaming_control *control, int format_index, int frame_index, uint32_t interval)
{
	struct format *format = find_format(format_index);
	if (!format)
		format = &formats[0];
	struct frame *frame = find_frame(format, frame_index);
	if (!frame)
		frame = &format->frames[0];
	uint32_t best = frame->intervals[0];
	for (int i = 0; i < frame->interval_count; i++)
		if (interval && abs((int)frame->intervals[i] - (int)interval) < abs((int)best - (int)interval))
			best = frame->intervals[i];
	memset(control, 0, sizeof *control);
	control->bmHint = 1;
	control->bFormatIndex = format->index;
	control->bFrameIndex = frame->index;
	control->dwFrameInterval = best;
	control->dwMaxVideoFrameSize = frame->max_size;
	control->dwMaxPayloadTransferSize = streaming_maxpacket;
	control->bmFramingInfo = 3;
	control->bPreferedVersion = 1;
	control->bMaxVersion = 1;
}

static void send_response(struct uvc_request_data *response)
{
	if (ioctl(fd, UVCIOC_SEND_RESPONSE, response) < 0)
		fprintf(stderr, "uvc-gadget: UVCIOC_SEND_RESPONSE: %s\n", strerror(errno));
}

static void put16(uint8_t *data, int value) { data[0] = value & 0xff; data[1] = (value >> 8) & 0xff; }

/* A class request on the control interface: the brightness control, the request error
 * code; anything else is stalled (the host then asks for the error code). */
static void control_request(const struct usb_ctrlrequest *request, struct uvc_request_data *response)
{
	int selector = request->wValue >> 8, entity = request->wIndex >> 8;
	response->length = -EL2HLT;
	if (entity == 0 && selector == UVC_VC_REQUEST_ERROR_CODE_CONTROL && request->bRequest == UVC_GET_CUR) {
		response->data[0] = control_request_error;
		response->length = 1;
		return;
	}
	/* The camera terminal's auto-exposure mode, which the UVC function always offers:
	 * manual (1) or aperture priority (8, "auto" to uvcvideo), kept and not applied. */
	if (entity == 1 && selector == UVC_CT_AE_MODE_CONTROL) {
		control_request_error = 0;
		response->length = 1;
		switch (request->bRequest) {
		case UVC_GET_INFO: response->data[0] = UVC_CONTROL_CAP_GET | UVC_CONTROL_CAP_SET; break;
		case UVC_GET_CUR: response->data[0] = ae_mode; break;
		case UVC_GET_RES: response->data[0] = 1 | 8; break;
		case UVC_GET_DEF: response->data[0] = 8; break;
		case UVC_GET_LEN: put16(response->data, 1); response->length = 2; break;
		case UVC_SET_CUR: control_selector = selector; control_entity = entity; response->length = request->wLength; break;
		default: response->length = -EL2HLT; control_request_error = 0x07; break;
		}
		return;
	}
	if (entity != 2 || selector != UVC_PU_BRIGHTNESS_CONTROL) {
		control_request_error = 0x06; /* invalid control */
		return;
	}
	control_request_error = 0;
	switch (request->bRequest) {
	case UVC_GET_INFO: response->data[0] = UVC_CONTROL_CAP_GET | UVC_CONTROL_CAP_SET; response->length = 1; break;
	case UVC_GET_LEN: put16(response->data, 2); response->length = 2; break;
	case UVC_GET_MIN: put16(response->data, 0); response->length = 2; break;
	case UVC_GET_MAX: put16(response->data, 255); response->length = 2; break;
	case UVC_GET_RES: put16(response->data, 1); response->length = 2; break;
	case UVC_GET_DEF: put16(response->data, 128); response->length = 2; break;
	case UVC_GET_CUR: put16(response->data, brightness); response->length = 2; break;
	case UVC_SET_CUR:
		control_selector = selector;
		control_entity = entity;
		response->length = request->wLength;
		break;
	}
}

/* A class request on the streaming interface: probe and commit. */
static void streaming_request(const struct usb_ctrlrequest *request, struct uvc_request_data *response)
{
	int selector = request->wValue >> 8;
	response->length = -EL2HLT;
	if (selector != UVC_VS_PROBE_CONTROL && selector != UVC_VS_COMMIT_CONTROL)
		return;
	struct uvc_streaming_control *control = (void *)response->data;
	response->length = sizeof *control;
	switch (request->bRequest) {
	case UVC_SET_CUR:
		control_selector = selector;
		control_entity = -1;
		response->length = request->wLength;
		break;
	case UVC_GET_CUR:
		memcpy(control, selector == UVC_VS_PROBE_CONTROL ? &probe : &commit, sizeof *control);
		break;
	case UVC_GET_MIN: case UVC_GET_DEF:
		fill_probe(control, formats[0].index, formats[0].frames[0].index, 0);
		break;
	case UVC_GET_MAX:
		fill_probe(control, formats[format_count - 1].index, 255, 0);
		break;
	case UVC_GET_RES:
		memset(control, 0, sizeof *control);
		break;
	case UVC_GET_LEN:
		put16(response->data, sizeof *control);
		response->length = 2;
		break;
	case UVC_GET_INFO:
		response->data[0] = UVC_CONTROL_CAP_GET | UVC_CONTROL_CAP_SET;
		response->length = 1;
		break;
	}
}

static void data_stage(const struct uvc_request_data *data)
{
	if (control_entity == 1) {
		ae_mode = data->data[0];
		return;
	}
	if (control_entity == 2) {
		brightness = data->data[0] | (data->data[1] << 8);
		printf("brightness %d\n", brightness);
		fflush(stdout);
		return;
	}
	const struct uvc_streaming_control *given = (const void *)data->data;
	struct uvc_streaming_control *target = control_selector == UVC_VS_PROBE_CONTROL ? &probe : &commit;
	fill_probe(target, given->bFormatIndex, given->bFrameIndex, given->dwFrameInterval);
}

static struct frame *committed_frame(struct format **format_out)
{
	struct format *format = find_format(commit.bFormatIndex);
	if (!format)
		format = &formats[0];
	*format_out = format;
	struct frame *frame = find_frame(format, commit.bFrameIndex);
	return frame ? frame : &format->frames[0];
}

/* The picture of frame `number`: moving diagonal bands, and the number's strip. */
static void paint(uint8_t *y, uint8_t *u, uint8_t *v, int width, int height, uint64_t number)
{
	for (int row = 0; row < height; row++)
		for (int column = 0; column < width; column++)
			y[row * width + column] = 60 + (uint8_t)(((row + column + number * 4) / 16) % 2 ? 80 : 0);
	memset(u, 128, (size_t)width / 2 * height);
	memset(v, 128, (size_t)width / 2 * height);
	int block_height = height / 16 > 8 ? height / 16 : 8, block_width = width / 16;
	for (int bit = 0; bit < 16; bit++) {
		uint8_t luma = (number >> (15 - bit)) & 1 ? 235 : 16;
		for (int row = height - block_height; row < height; row++)
			memset(y + row * width + bit * block_width, luma, block_width);
	}
}

static size_t fill_buffer(void *buffer, size_t length)
{
	struct format *format;
	struct frame *frame = committed_frame(&format);
	int width = frame->width, height = frame->height;
	static uint8_t *planes;
	static size_t planes_size;
	size_t needed = (size_t)width * height * 2;
	if (planes_size < needed) {
		free(planes);
		planes = malloc(needed);
		planes_size = needed;
	}
	uint8_t *y = planes, *u = planes + (size_t)width * height, *v = u + (size_t)width / 2 * height;
	paint(y, u, v, width, height, frame_number);
	if (!format->mjpeg) {
		uint8_t *out = buffer;
		for (int row = 0; row < height; row++)
			for (int column = 0; column < width; column += 2) {
				size_t at = ((size_t)row * width + column) * 2;
				out[at] = y[row * width + column];
				out[at + 1] = u[row * (width / 2) + column / 2];
				out[at + 2] = y[row * width + column + 1];
				out[at + 3] = v[row * (width / 2) + column / 2];
			}
		return needed <= length ? needed : length;
	}
	const unsigned char *source[3] = { y, u, v };
	int strides[3] = { width, width / 2, width / 2 };
	unsigned char *out = buffer;
	unsigned long size = length;
	if (tjCompressFromYUVPlanes(jpeg, source, width, strides, height, TJSAMP_422, &out, &size, 90,
				    TJFLAG_NOREALLOC) < 0)
		die("tjCompressFromYUVPlanes: %s", tjGetErrorStr2(jpeg));
	return size;
}

static int64_t now_ns(void)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
}

static int64_t due_ns(void)
{
	int64_t interval_ns = (int64_t)commit.dwFrameInterval * 100;
	return (int64_t)start.tv_sec * 1000000000 + start.tv_nsec + (int64_t)frame_number * interval_ns;
}

static void stream_off(void)
{
	if (!streaming)
		return;
	int type = V4L2_BUF_TYPE_VIDEO_OUTPUT;
	ioctl(fd, VIDIOC_STREAMOFF, &type);
	for (int i = 0; i < BUFFERS; i++)
		if (buffers[i])
			munmap(buffers[i], buffer_lengths[i]);
	memset(buffers, 0, sizeof buffers);
	struct v4l2_requestbuffers request = { .count = 0, .type = V4L2_BUF_TYPE_VIDEO_OUTPUT, .memory = V4L2_MEMORY_MMAP };
	ioctl(fd, VIDIOC_REQBUFS, &request);
	streaming = 0;
	printf("streamoff\n");
	fflush(stdout);
}

static void stream_on(void)
{
	struct format *format;
	struct frame *frame = committed_frame(&format);
	struct v4l2_format v4l2_format = { .type = V4L2_BUF_TYPE_VIDEO_OUTPUT };
	v4l2_format.fmt.pix.width = frame->width;
	v4l2_format.fmt.pix.height = frame->height;
	v4l2_format.fmt.pix.pixelformat = format->mjpeg ? V4L2_PIX_FMT_MJPEG : V4L2_PIX_FMT_YUYV;
	v4l2_format.fmt.pix.field = V4L2_FIELD_NONE;
	v4l2_format.fmt.pix.sizeimage = frame->max_size;
	if (ioctl(fd, VIDIOC_S_FMT, &v4l2_format) < 0)
		die("VIDIOC_S_FMT: %s", strerror(errno));
	struct v4l2_requestbuffers request = { .count = BUFFERS, .type = V4L2_BUF_TYPE_VIDEO_OUTPUT, .memory = V4L2_MEMORY_MMAP };
	if (ioctl(fd, VIDIOC_REQBUFS, &request) < 0)
		die("VIDIOC_REQBUFS: %s", strerror(errno));
	free_count = 0;
	for (unsigned i = 0; i < request.count && i < BUFFERS; i++) {
		struct v4l2_buffer buffer = { .index = i, .type = V4L2_BUF_TYPE_VIDEO_OUTPUT, .memory = V4L2_MEMORY_MMAP };
		if (ioctl(fd, VIDIOC_QUERYBUF, &buffer) < 0)
			die("VIDIOC_QUERYBUF: %s", strerror(errno));
		buffer_lengths[i] = buffer.length;
		buffers[i] = mmap(NULL, buffer.length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, buffer.m.offset);
		if (buffers[i] == MAP_FAILED)
			die("mmap: %s", strerror(errno));
		free_buffers[free_count++] = (int)i;
	}
	int type = V4L2_BUF_TYPE_VIDEO_OUTPUT;
	if (ioctl(fd, VIDIOC_STREAMON, &type) < 0)
		die("VIDIOC_STREAMON: %s", strerror(errno));
	streaming = 1;
	frame_number = 0;
	clock_gettime(CLOCK_MONOTONIC, &start);
	printf("streamon %dx%d %s %u/10000000\n", frame->width, frame->height, format->mjpeg ? "MJPEG" : "YUYV",
	       commit.dwFrameInterval);
	fflush(stdout);
}

static void queue_due_frame(void)
{
	if (!streaming || free_count == 0 || now_ns() < due_ns())
		return;
	int index = free_buffers[--free_count];
	struct v4l2_buffer buffer = { .index = (unsigned)index, .type = V4L2_BUF_TYPE_VIDEO_OUTPUT, .memory = V4L2_MEMORY_MMAP };
	buffer.bytesused = (unsigned)fill_buffer(buffers[index], buffer_lengths[index]);
	if (ioctl(fd, VIDIOC_QBUF, &buffer) < 0) {
		free_buffers[free_count++] = index;
		return;
	}
	frame_number++;
}

static void handle_event(void)
{
	struct v4l2_event event;
	if (ioctl(fd, VIDIOC_DQEVENT, &event) < 0)
		return;
	struct uvc_event *uvc = (void *)&event.u.data;
	struct uvc_request_data response;
	memset(&response, 0, sizeof response);
	switch (event.type) {
	case UVC_EVENT_CONNECT:
		printf("connect\n");
		fflush(stdout);
		return;
	case UVC_EVENT_DISCONNECT:
		stream_off();
		printf("disconnect\n");
		fflush(stdout);
		return;
	case UVC_EVENT_STREAMON:
		stream_on();
		return;
	case UVC_EVENT_STREAMOFF:
		stream_off();
		return;
	case UVC_EVENT_DATA:
		data_stage(&uvc->data);
		return;
	case UVC_EVENT_SETUP:
		if ((uvc->req.bRequestType & USB_TYPE_MASK) != USB_TYPE_CLASS) {
			response.length = -EL2HLT;
		} else if ((uvc->req.wIndex & 0xff) == STREAMING_INTERFACE) {
			streaming_request(&uvc->req, &response);
		} else {
			control_request(&uvc->req, &response);
		}
		send_response(&response);
		return;
	}
}

/* The gadget's own video node: the output device whose card is the UDC. */
static int open_gadget_node(void)
{
	for (int n = 0; n < 64; n++) {
		char path[32];
		snprintf(path, sizeof path, "/dev/video%d", n);
		int node = open(path, O_RDWR | O_NONBLOCK);
		if (node < 0)
			continue;
		struct v4l2_capability capability;
		if (ioctl(node, VIDIOC_QUERYCAP, &capability) == 0 && strcmp((char *)capability.driver, "g_uvc") == 0)
			return node;
		close(node);
	}
	die("no g_uvc video node: is the UVC function bound to a UDC?");
	return -1;
}

int main(int argc, char **argv)
{
	if (argc != 2)
		die("usage: uvc-gadget FUNCTION-DIR");
	read_formats(argv[1]);
	jpeg = tjInitCompress();
	if (!jpeg)
		die("tjInitCompress: %s", tjGetErrorStr2(NULL));
	fill_probe(&probe, formats[0].index, formats[0].frames[0].index, 0);
	commit = probe;
	fd = open_gadget_node();
	static const unsigned types[] = { UVC_EVENT_CONNECT, UVC_EVENT_DISCONNECT, UVC_EVENT_SETUP, UVC_EVENT_DATA,
					  UVC_EVENT_STREAMON, UVC_EVENT_STREAMOFF };
	for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
		struct v4l2_event_subscription subscription = { .type = types[i] };
		if (ioctl(fd, VIDIOC_SUBSCRIBE_EVENT, &subscription) < 0)
			die("VIDIOC_SUBSCRIBE_EVENT: %s", strerror(errno));
	}
	printf("ready\n");
	fflush(stdout);
	for (;;) {
		int timeout = -1;
		if (streaming && free_count > 0) {
			int64_t wait = due_ns() - now_ns();
			timeout = wait <= 0 ? 0 : (int)(wait / 1000000) + 1;
		}
		struct pollfd descriptor = { .fd = fd, .events = POLLPRI | (streaming ? POLLOUT : 0) };
		int ready = poll(&descriptor, 1, timeout);
		if (ready < 0 && errno != EINTR)
			die("poll: %s", strerror(errno));
		if (descriptor.revents & POLLERR && !streaming)
			die("the gadget's video node failed");
		if (descriptor.revents & POLLPRI)
			handle_event();
		if (streaming && descriptor.revents & POLLOUT) {
			struct v4l2_buffer buffer = { .type = V4L2_BUF_TYPE_VIDEO_OUTPUT, .memory = V4L2_MEMORY_MMAP };
			while (ioctl(fd, VIDIOC_DQBUF, &buffer) == 0)
				free_buffers[free_count++] = (int)buffer.index;
		}
		queue_due_frame();
	}
}
