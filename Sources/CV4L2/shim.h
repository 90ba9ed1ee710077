// CV4L2: the V4L2 UAPI header and libv4l2, plus the ioctl request codes, which are
// built by function-like macros Swift cannot import (pixel formats are matched by
// their FOURCC text in Swift).
#ifndef CV4L2_SHIM_H
#define CV4L2_SHIM_H

#include <linux/videodev2.h>
#include <libv4l2.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <stdarg.h>

// Request codes (`_IOR`/`_IOWR` expansions).
static const unsigned long CV4L2_VIDIOC_QUERYCAP = VIDIOC_QUERYCAP;
static const unsigned long CV4L2_VIDIOC_ENUM_FMT = VIDIOC_ENUM_FMT;
static const unsigned long CV4L2_VIDIOC_G_FMT = VIDIOC_G_FMT;
static const unsigned long CV4L2_VIDIOC_S_FMT = VIDIOC_S_FMT;
static const unsigned long CV4L2_VIDIOC_REQBUFS = VIDIOC_REQBUFS;
static const unsigned long CV4L2_VIDIOC_QUERYBUF = VIDIOC_QUERYBUF;
static const unsigned long CV4L2_VIDIOC_QBUF = VIDIOC_QBUF;
static const unsigned long CV4L2_VIDIOC_DQBUF = VIDIOC_DQBUF;
static const unsigned long CV4L2_VIDIOC_STREAMON = VIDIOC_STREAMON;
static const unsigned long CV4L2_VIDIOC_STREAMOFF = VIDIOC_STREAMOFF;
static const unsigned long CV4L2_VIDIOC_G_PARM = VIDIOC_G_PARM;
static const unsigned long CV4L2_VIDIOC_S_PARM = VIDIOC_S_PARM;
static const unsigned long CV4L2_VIDIOC_ENUM_FRAMESIZES = VIDIOC_ENUM_FRAMESIZES;
static const unsigned long CV4L2_VIDIOC_ENUM_FRAMEINTERVALS = VIDIOC_ENUM_FRAMEINTERVALS;
static const unsigned long CV4L2_VIDIOC_QUERYCTRL = VIDIOC_QUERYCTRL;
static const unsigned long CV4L2_VIDIOC_G_CTRL = VIDIOC_G_CTRL;
static const unsigned long CV4L2_VIDIOC_S_CTRL = VIDIOC_S_CTRL;
static const unsigned long CV4L2_VIDIOC_QUERYMENU = VIDIOC_QUERYMENU;

/// Codec controls an H.264 camera may have (the macros add to V4L2_CID_CODEC_BASE).
static const unsigned int CV4L2_CID_FORCE_KEY_FRAME = V4L2_CID_MPEG_VIDEO_FORCE_KEY_FRAME;
static const unsigned int CV4L2_CID_H264_I_PERIOD = V4L2_CID_MPEG_VIDEO_H264_I_PERIOD;
static const unsigned int CV4L2_CID_GOP_SIZE = V4L2_CID_MPEG_VIDEO_GOP_SIZE;

/// `v4l2_ioctl` is variadic; Swift cannot call it. Every request vidrec makes
/// takes one pointer argument.
static inline int cv4l2_ioctl(int fd, unsigned long request, void *arg) {
    return v4l2_ioctl(fd, request, arg);
}

/// `ioctl` itself is variadic: the raw kernel call, before libv4l2 wraps the descriptor.
static inline int cv4l2_raw_ioctl(int fd, unsigned long request, void *arg) {
    return ioctl(fd, request, arg);
}

#endif
