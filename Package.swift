// swift-tools-version:6.0
// Playhead: AVFoundation-style media playback for Swift on Linux.
import PackageDescription

let package = Package(
    name: "Playhead",
    products: [
        .library(name: "OpenCoreMedia", targets: ["OpenCoreMedia"]),
        .library(name: "OpenAVFoundation", targets: ["OpenAVFoundation"]),
        .library(name: "OpenAVKit", targets: ["OpenAVKit"]),
        .library(name: "OpenMediaPlayer", targets: ["OpenMediaPlayer"]),
        .executable(name: "playhead", targets: ["playhead"]),
    ],
    targets: [
        // MARK: C leaves
        .systemLibrary(
            name: "CFFmpeg",
            // libavfilter is not linked: CFFmpegShims loads it on first use (CFFmpegLazyFilter.c).
            pkgConfig: "libavformat libavcodec libavutil libswscale libswresample",
            providers: [
                .apt([
                    "libavformat-dev", "libavcodec-dev", "libavutil-dev", "libswscale-dev",
                    "libswresample-dev", "libavfilter-dev", "pkg-config",
                ])
            ]
        ),
        .target(name: "CFFmpegShims", dependencies: ["CFFmpeg"]),
        // Headers only: the binary does not link SDL2; CSDL2Loader loads it on first use.
        .systemLibrary(
            name: "CSDL2",
            providers: [.apt(["libsdl2-dev", "libsdl2-ttf-dev", "pkg-config"])]
        ),
        .target(name: "CSDL2Loader", dependencies: ["CSDL2"]),
        // Headers only: the binary does not link libpulse; CPulseLoader loads it on first use.
        .systemLibrary(
            name: "CPulse",
            providers: [.apt(["libpulse-dev", "pkg-config"])]
        ),
        .target(name: "CPulseLoader", dependencies: ["CPulse"]),
        // Declarations only: the binary does not link libdbus; CDBusLoader loads it on first use.
        // CDBus.h declares the libdbus calls itself (the real headers sit in folders only
        // pkg-config knows); scripts/check-dbus-header.sh checks it against <dbus/dbus.h>.
        .systemLibrary(
            name: "CDBus",
            providers: [.apt(["libdbus-1-dev", "dbus-daemon", "pkg-config"])]
        ),
        .target(name: "CDBusLoader", dependencies: ["CDBus"]),
        // Headers only: the binary does not link libass; CASSLoader loads it on first use.
        .systemLibrary(
            name: "CASS",
            providers: [.apt(["libass-dev"])]
        ),
        .target(name: "CASSLoader", dependencies: ["CASS"]),

        // MARK: Swift modules
        .target(name: "OpenCoreMedia"),
        .target(name: "FFmpegBridge", dependencies: ["CFFmpeg", "CFFmpegShims", "OpenCoreMedia"]),
        .target(name: "OpenAVFoundation", dependencies: ["OpenCoreMedia", "FFmpegBridge"]),
        .target(
            name: "OpenAVKit",
            dependencies: [
                "OpenAVFoundation", "OpenMediaPlayer", "FFmpegBridge", "CSDL2", "CSDL2Loader", "CPulse",
                "CPulseLoader", "CASS", "CASSLoader",
            ]),
        .target(name: "OpenMediaPlayer", dependencies: ["CDBus", "CDBusLoader", "OpenAVFoundation"]),
        .target(
            name: "PlayheadCLI", dependencies: ["OpenAVFoundation", "OpenAVKit", "OpenMediaPlayer", "FFmpegBridge"]),
        .executableTarget(name: "playhead", dependencies: ["PlayheadCLI"]),
        .target(name: "PlayheadTestSupport", dependencies: ["OpenAVFoundation", "FFmpegBridge"]),
        .executableTarget(
            name: "PortedPlayerController", dependencies: ["OpenAVFoundation"],
            path: "Examples/PortedPlayerController"),
        .executableTarget(
            name: "CustomControls", dependencies: ["OpenAVKit"], path: "Examples/CustomControls"),

        // MARK: Tests
        .testTarget(name: "OpenCoreMediaTests", dependencies: ["OpenCoreMedia"]),
        .testTarget(
            name: "FFmpegBridgeTests", dependencies: ["FFmpegBridge", "PlayheadTestSupport"]),
        .testTarget(
            name: "OpenAVFoundationTests",
            dependencies: ["OpenAVFoundation", "PlayheadTestSupport"]),
        .testTarget(name: "OpenAVKitTests", dependencies: ["OpenAVKit", "PlayheadTestSupport"]),
        .testTarget(
            name: "OpenMediaPlayerTests",
            dependencies: ["OpenMediaPlayer", "OpenAVFoundation", "PlayheadTestSupport"]),
        .testTarget(
            name: "PlayheadCLITests",
            dependencies: ["PlayheadCLI", "PlayheadTestSupport"],
            exclude: ["Snapshots"]),
    ],
    swiftLanguageModes: [.v6]
)
