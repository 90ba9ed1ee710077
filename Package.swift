// swift-tools-version:6.0
//
// vidrec: a command-line video recorder for Linux.
//
// Targets, from the bottom up (docs/ARCHITECTURE.md says more):
//   C*                 system libraries (FFmpeg, ALSA, libv4l2, libjpeg-turbo's TurboJPEG,
//                      libmicrohttpd, libmosquitto, libcamera's flags) and shims for what
//                      Swift cannot import (libavfilter, used only by the contact sheet,
//                      is loaded when first used; libcamera, C++, behind a C interface);
//                      the VERSION file and the page serve shows, embedded
//   VidrecSystem       the system-call seam: file descriptors, syscalls with their errors
//                      and debug-only fault injection, exit codes, named threads, clocks
//   VidrecMedia        media vocabulary: frames, rationals, sources, outputs and their
//                      connections (a thread and a bounded queue each), queues, errors
//   VidrecMP4          finishing a fragmented MP4 in place: an index over the data on disk
//   VidrecFFmpeg       the movie encoder (encode once) and its packet outputs, the movie file
//                      first, poster frames and the contact sheet (libavformat/libavcodec/
//                      libavfilter/libswscale/libswresample)
//   VidrecTestSources  the built-in test camera and test microphone
//   VidrecV4L2/ALSA    the real camera and microphone
//   VidrecLibcamera    cameras libcamera drives (a Pi's camera module, MIPI, vimc)
//   VidrecHTTP         an HTTP server on libmicrohttpd (the browser viewfinder's)
//   VidrecMQTT         an MQTT client on libmosquitto (serve's link to the house)
//   VidrecCore         the use cases, a folder per area: Recorder, Session (the capture
//                      session and its timeline), Store, Album, Presets, Features, Uploads,
//                      Schedules, Files, Support
//   VidrecCLI          the strict command-line parser (Parsing), the subcommands (Commands:
//                      parse, call the core, render), what start is made of (Start), the
//                      real things behind the core's ports (Adapters), Controls, Hooks,
//                      Serve, Uploads, Terminal, Errors, Runtime, Manual, Completion
//   vidrec             main.swift
import PackageDescription

// The modules that run for every frame and every piece of sound (the session loop's
// placing, the encoder's thread, the index) are optimized in debug builds too: the
// device tests run the debug binary, with its seam's fault injection, in a VM that
// emulates its processor, where unoptimized placing alone took half a processor and a
// guest sharing the host with two busy loops fell a minute behind.
let optimizedInDebug: [SwiftSetting] = [.unsafeFlags(["-O"], .when(configuration: .debug))]

let package = Package(
    name: "vidrec",
    products: [
        .executable(name: "vidrec", targets: ["vidrec"]),
    ],
    targets: [
        .systemLibrary(
            name: "CFFmpeg",
            pkgConfig: "libavformat libavcodec libswscale libswresample libavutil",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libavfilter-dev", "libswscale-dev", "libswresample-dev", "libavutil-dev"])]
        ),
        .systemLibrary(
            name: "CALSA",
            pkgConfig: "alsa",
            providers: [.apt(["libasound2-dev"])]
        ),
        .systemLibrary(
            name: "CV4L2",
            pkgConfig: "libv4l2",
            providers: [.apt(["libv4l-dev"])]
        ),
        .systemLibrary(
            name: "CTurboJPEG",
            pkgConfig: "libturbojpeg",
            providers: [.apt(["libturbojpeg0-dev"])]
        ),
        .systemLibrary(
            name: "CMosquitto",
            pkgConfig: "libmosquitto",
            providers: [.apt(["libmosquitto-dev"])]
        ),
        .systemLibrary(
            name: "CLibcameraSystem",
            pkgConfig: "libcamera",
            providers: [.apt(["libcamera-dev"])]
        ),
        // libcamera (C++) behind a C interface: its cameras, their modes, capture.
        .target(name: "CLibcamera", dependencies: ["CLibcameraSystem"]),
        .target(name: "CSystemShims"),
        // Per-pixel loops, vectorised by the C compiler in every build.
        .target(name: "CVidrecPixels"),
        // The VERSION file, embedded: the one place the version is written.
        .target(name: "CVidrecVersion"),
        // The page vidrec serve shows (page/: its HTML, CSS and JavaScript), embedded.
        .target(name: "CVidrecPage", exclude: ["page"]),
        // libavfilter's headers, and the library loaded with dlopen on first use.
        .target(name: "CFFmpegFilters", dependencies: ["CFFmpeg"]),
        // GNU libmicrohttpd (libmicrohttpd-dev), with shims for its variadic start call.
        .target(name: "CHTTPServer", linkerSettings: [.linkedLibrary("microhttpd")]),

        .target(name: "VidrecSystem", dependencies: ["CSystemShims"]),
        .target(name: "VidrecMedia", dependencies: ["VidrecSystem"], swiftSettings: optimizedInDebug),
        .target(name: "VidrecMP4", dependencies: ["VidrecSystem", "VidrecMedia"], swiftSettings: optimizedInDebug),
        .target(name: "VidrecFFmpeg", dependencies: ["VidrecSystem", "VidrecMedia", "VidrecMP4", "CFFmpeg", "CFFmpegFilters", "CTurboJPEG", "CVidrecPixels", "CSystemShims"], swiftSettings: optimizedInDebug),
        .target(name: "VidrecTestSources", dependencies: ["VidrecSystem", "VidrecMedia"], swiftSettings: optimizedInDebug),
        .target(name: "VidrecV4L2", dependencies: ["VidrecSystem", "VidrecMedia", "CV4L2"]),
        .target(name: "VidrecALSA", dependencies: ["VidrecSystem", "VidrecMedia", "CALSA"]),
        .target(name: "VidrecLibcamera", dependencies: ["VidrecSystem", "VidrecMedia", "CLibcamera"]),
        .target(name: "VidrecCore", dependencies: ["VidrecSystem", "VidrecMedia", "CSystemShims"], swiftSettings: optimizedInDebug),
        .target(name: "VidrecHTTP", dependencies: ["VidrecSystem", "CHTTPServer"]),
        .target(name: "VidrecMQTT", dependencies: ["VidrecSystem", "CMosquitto"]),
        .target(
            name: "VidrecCLI",
            dependencies: ["VidrecSystem", "VidrecMedia", "VidrecMP4", "VidrecCore", "VidrecFFmpeg", "VidrecTestSources", "VidrecV4L2", "VidrecALSA", "VidrecLibcamera", "VidrecHTTP", "VidrecMQTT", "CVidrecVersion", "CVidrecPage"]
        ),
        .executableTarget(name: "vidrec", dependencies: ["VidrecCLI", "VidrecCore", "VidrecSystem", "VidrecMedia"]),

        .testTarget(name: "VidrecCoreTests", dependencies: ["VidrecCore", "VidrecSystem", "VidrecMedia"]),
        .testTarget(name: "VidrecCLITests", dependencies: ["VidrecCLI", "VidrecV4L2", "VidrecALSA", "VidrecLibcamera", "VidrecCore", "VidrecSystem", "VidrecMedia", "VidrecFFmpeg"]),
        .testTarget(name: "VidrecFFmpegTests", dependencies: ["VidrecFFmpeg", "VidrecSystem", "VidrecMedia", "CFFmpeg", "CSystemShims", "VidrecMP4"]),
        .testTarget(name: "VidrecHTTPTests", dependencies: ["VidrecHTTP", "VidrecSystem", "CSystemShims"]),
        .testTarget(name: "VidrecEndToEndTests", dependencies: ["VidrecSystem", "VidrecMedia", "VidrecFFmpeg", "CSystemShims"]),
    ],
    swiftLanguageModes: [.v6],
    cxxLanguageStandard: .cxx17
)
