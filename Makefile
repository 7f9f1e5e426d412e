# Playhead: developer and CI entry points (build, test, lint, demo).
#
#   make run     install deps, build release, run $(DEMO_CMD) (the built-in demo)
#   make test    install deps, import-rule lint, build tests, type-check Tests/PortedClients in
#                Swift 5 and 6 modes, run the tests (log in $(TEST_LOG))
#   make build   debug build
#   make lint    import rule + `swift format lint --strict` (when .swift-format exists)
#   make release the release build `make run` uses;  make smoke  smoke-test that binary
#   make check   before sending a change: `make test`, then `make release` and `make smoke`
#   make clean   remove .build;  make clean-fixtures  remove the generated test media cache
#
# `make test` (and so .ci/run) checks the C-module import rule but NOT swift-format: formatting
# findings should not fail CI while several engineers are landing code at once. Run `make lint`
# before sending a change; once the tree is clean, add lint-format to the test prerequisites.

SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := build

SWIFT ?= swift
FFMPEG ?= ffmpeg
# Override to keep a private build tree, e.g. `make test BUILD_DIR=/tmp/my-build`.
BUILD_DIR ?= .build
SWIFTPM := --scratch-path $(BUILD_DIR)
TEST_LOG := $(BUILD_DIR)/test.log
# Tests that need real time and a quiet machine: a second pass of their own, one test at a time
# (eighteen of them side by side on two cores once took 8 s to start a 0.2 s play).
REALTIME_TESTS := InRealTime|PlayerWindowX
# Tests that start a real PulseAudio server each, play adaptive streams over a loopback link
# whose bandwidth they shape, play audio renditions from a loopback server step by step on a
# manual clock, or drive playhead with playerctl on a session bus: a third pass, one test at a
# time (beside each other, or beside the timing tests, they load the two cores enough to skew
# timings; beside the whole parallel pass the loopback ones were starved into failing).
SOUND_SERVER_TESTS := OnASoundServer|OverAShapedLink|OverLoopback|OnASessionBus
PLAYHEAD := $(BUILD_DIR)/release/playhead
# Release builds link the Swift runtime, Foundation, ICU and Dispatch statically: about 20 ms
# less dynamic-linker work at every process start (Benchmarks/notes.md, time to first frame).
# A static FoundationNetworking (URLSession, Playhead's HLS loader) links libcurl (shared, from
# libcurl4-openssl-dev, which scripts/install-deps.sh installs).
RELEASE_FLAGS ?= -c release --static-swift-stdlib
# What `make run` launches: `playhead` with no input, which plays its built-in demo (synthesised
# in-process, no file) in a window when there is a display, headless otherwise, with sound (a
# silent clock when the machine has no audio device).
DEMO_CMD ?= $(PLAYHEAD)
FIXTURE_CACHE := $(or $(PLAYHEAD_FIXTURE_CACHE),$(or $(TMPDIR),/tmp)/playhead-fixtures)

# Tests that open SDL must never need a display or a sound card (set for `make test` only, so
# `make run` still plays through the real device).
test: export SDL_VIDEODRIVER ?= dummy
test: export SDL_AUDIODRIVER ?= dummy
# Swift Testing starts every test at once unless told otherwise (about 150 loopback servers and
# 200 players were alive together in the parallel pass, and a loaded machine then starved a test's
# 30 s hang guard). At most four tests per core run at a time: the pass also finished sooner
# (102 s against 150 s on two cores). A test's own waits start once it runs.
TEST_WIDTH ?= $(shell n=$$(nproc 2>/dev/null || echo 2); echo $$(( n * 4 > 8 ? n * 4 : 8 )))
test test-tsan test-asan: export SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH ?= $(TEST_WIDTH)
# Tests must never reach the developer's own session bus (media controls, MPRIS): the ones that
# need a bus start a dbus-daemon of their own and pass its address to the processes they run.
test: export DBUS_SESSION_BUS_ADDRESS :=

.PHONY: deps build release run test smoke check lint lint-imports lint-dbus-header lint-format clean clean-fixtures

deps:
	bash scripts/install-deps.sh

build:
	$(SWIFT) build $(SWIFTPM)

release:
	$(SWIFT) build $(SWIFTPM) $(RELEASE_FLAGS)

run: deps
	$(SWIFT) build $(SWIFTPM) $(RELEASE_FLAGS)
	$(DEMO_CMD)

# The release binary used as a user would: the demo headless with a JSON report, probe --json,
# thumbnail to PNG, bench seek --json and one bad input, each result checked.
smoke: release
	bash scripts/smoke-release.sh $(PLAYHEAD)

# What a developer runs before sending a change: every test, then the release build (which
# once crashed the compiler while debug built fine) and its smoke checks.
check: test
	$(MAKE) --no-print-directory smoke

test: deps lint-imports lint-dbus-header
	$(SWIFT) build $(SWIFTPM) --build-tests
	bash scripts/check-ported-clients.sh $(BUILD_DIR)
	mkdir -p $(BUILD_DIR)
	status=0; $(SWIFT) test $(SWIFTPM) 2>&1 | tee $(TEST_LOG) || status=$$?; \
	if [[ $$status -eq 0 ]]; then \
		echo "==== real-time pass: timing and X-window tests, one at a time on a quiet machine ===="; \
		PLAYHEAD_REALTIME_TESTS=1 $(SWIFT) test $(SWIFTPM) --no-parallel --filter '$(REALTIME_TESTS)' 2>&1 \
			| tee -a $(TEST_LOG) || status=$$?; \
	fi; \
	if [[ $$status -eq 0 ]]; then \
		echo "==== serial pass: a real PulseAudio server or a shaped link per test, one test at a time ===="; \
		PLAYHEAD_REALTIME_TESTS=1 $(SWIFT) test $(SWIFTPM) --no-parallel --filter '$(SOUND_SERVER_TESTS)' 2>&1 \
			| tee -a $(TEST_LOG) || status=$$?; \
	fi; \
	if [[ $$status -ne 0 ]]; then \
		echo "==== swift test failed (exit $$status); failures from $(TEST_LOG): ===="; \
		grep -E '✘|error:|failed' $(TEST_LOG) | tail -n 60 || true; \
	fi; \
	exit $$status

lint: lint-imports lint-dbus-header lint-format

lint-imports:
	bash scripts/check-imports.sh

# Sources/CDBus/CDBus.h declares the libdbus calls itself: checked against <dbus/dbus.h>.
lint-dbus-header:
	bash scripts/check-dbus-header.sh

lint-format:
	if [[ -f .swift-format ]]; then \
		$(SWIFT) format lint --strict --recursive Sources Tests; \
	else \
		echo "lint-format: no .swift-format file, skipping swift format"; \
	fi

clean:
	rm -rf $(BUILD_DIR)

clean-fixtures:
	rm -rf "$(FIXTURE_CACHE)"

# MARK: - Reliability (README "Development"): stress, fuzz, sanitizers, soak.
# Sanitizer and fuzz builds use trees of their own inside $(BUILD_DIR), so they never rebuild the main one.
FUZZ_SECONDS ?= 60
FUZZ_BUILD_DIR ?= $(BUILD_DIR)/fuzz
SOAK_CYCLES ?= 500
SANITIZED_TESTS ?= Engine|Player|Observation
# Real-time assertions (A/V sync within 40 ms, pause/resume continuity, the X11 window's idle
# timers) cannot hold under a sanitizer's 5-15x slowdown; they are timing, not memory or races.
# Their hang guards (waitUntil, waitOnMainQueue) wait 4 times longer there (PLAYHEAD_TEST_TIMEOUT_SCALE).
# AVPlayerFirstFrameTests plays eleven whole clips: its first-picture path runs in every other
# player test too, and under a sanitizer the extra load starved the window tests' time-outs.
# withAudioTheNextItemPlaysOnFromTheSwitchWithoutWaiting asserts that no stall happens at a
# queue's switch, which needs the audio threads to keep their rings filled in real time (seen
# failing once under ThreadSanitizer, with no report); the other queue tests still run there.
# RemoteCommandBusTests (picked up by "Player" in OpenMediaPlayerTests) start hundreds of
# playerctl processes: ThreadSanitizer stops every thread of the test process around each
# spawn, and the AVPlayerLayer tests beside them missed their 10 s first picture; the pure
# MPRIS router tests still run there.
SANITIZER_SKIP ?= AVPlayerSyncTests|AVPlayerTimingTests|PlayerWindowXTests|AVPlayerFirstFrameTests|withAudioTheNextItemPlaysOnFromTheSwitchWithoutWaiting|RemoteCommandBusTests

.PHONY: stress fuzz fuzz-build test-tsan test-asan soak

# Every fixture damaged six ways (plus the real-world clips when downloaded): probe and play
# must end by themselves with exit 0 or one clear line and exit 1, never a signal or a hang.
stress: export SDL_VIDEODRIVER ?= dummy
stress: export SDL_AUDIODRIVER ?= dummy
stress: deps
	$(SWIFT) build $(SWIFTPM) --build-tests
	PLAYHEAD_STRESS=1 $(SWIFT) test $(SWIFTPM) --skip-build --filter 'CorruptedMediaTests|FuzzRegressionTests'

fuzz-build:
	FUZZ_BUILD_DIR=$(abspath $(FUZZ_BUILD_DIR)) bash scripts/build-fuzzer.sh

# libFuzzer + AddressSanitizer over open → probe → demux → seek → decode for FUZZ_SECONDS.
fuzz: fuzz-build
	FUZZ_BUILD_DIR=$(abspath $(FUZZ_BUILD_DIR)) bash scripts/run-fuzzer.sh $(FUZZ_SECONDS)

# The engine, player and observation tests under ThreadSanitizer.
# scripts/tsan-suppressions.txt is empty: shared state sits behind `Locked` (a pthread mutex,
# which ThreadSanitizer understands); add an entry only with the report that justifies it.
test-tsan: export SDL_VIDEODRIVER ?= dummy
test-tsan: export SDL_AUDIODRIVER ?= dummy
test-tsan: export PLAYHEAD_TEST_TIMEOUT_SCALE ?= 4
test-tsan: export TSAN_OPTIONS ?= suppressions=$(abspath scripts/tsan-suppressions.txt) halt_on_error=0 second_deadlock_stack=1
test-tsan:
	$(SWIFT) test --scratch-path $(BUILD_DIR)/tsan --sanitize=thread --filter '$(SANITIZED_TESTS)' --skip '$(SANITIZER_SKIP)'

# The same tests under AddressSanitizer (heap misuse in Swift, the C shims, and FFmpeg frees).
test-asan: export SDL_VIDEODRIVER ?= dummy
test-asan: export SDL_AUDIODRIVER ?= dummy
test-asan: export PLAYHEAD_TEST_TIMEOUT_SCALE ?= 4
test-asan: export ASAN_OPTIONS ?= detect_leaks=0
test-asan:
	$(SWIFT) test --scratch-path $(BUILD_DIR)/asan --sanitize=address --filter '$(SANITIZED_TESTS)' --skip '$(SANITIZER_SKIP)'

# SOAK_CYCLES create → play → seek → replace → release cycles: threads, descriptors and
# objects return to their baseline and RSS grows by less than 5 MB. glibc gives threads their
# own malloc arenas, which keep freed memory: with each cycle's threads coming and going the
# RSS of the old and the new engine alike wandered 2–8 MB from that alone, so the soak caps
# the arenas (MALLOC_ARENA_MAX=2) to measure what leaks rather than what the allocator keeps.
soak:
	$(SWIFT) build $(SWIFTPM) --build-tests
	MALLOC_ARENA_MAX=2 PLAYHEAD_SOAK_CYCLES=$(SOAK_CYCLES) $(SWIFT) test $(SWIFTPM) --skip-build --filter TeardownSoakTests
