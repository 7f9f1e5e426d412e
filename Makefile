# Playhead: developer and CI entry points (build, test, lint, demo).
#
#   make run     install deps, build release, make the demo clip, run $(DEMO_CMD)
#   make test    install deps, import-rule lint, build tests, run them (log in $(TEST_LOG))
#   make build   debug build
#   make lint    import rule + `swift format lint --strict` (when .swift-format exists)
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
DEMO_FILE := $(BUILD_DIR)/demo/demo.mp4
PLAYHEAD := $(BUILD_DIR)/release/playhead
# What `make run` launches: the demo clip, played headless with sound (a silent clock when the
# machine has no audio device). The window issue switches this to `$(PLAYHEAD)` with no argument.
DEMO_CMD ?= $(PLAYHEAD) probe $(DEMO_FILE) && $(PLAYHEAD) play $(DEMO_FILE)
FIXTURE_CACHE := $(or $(PLAYHEAD_FIXTURE_CACHE),$(or $(TMPDIR),/tmp)/playhead-fixtures)

# Tests that open SDL must never need a display or a sound card (set for `make test` only, so
# `make run` still plays through the real device).
test: export SDL_VIDEODRIVER ?= dummy
test: export SDL_AUDIODRIVER ?= dummy

.PHONY: deps build release demo run test lint lint-imports lint-format clean clean-fixtures

deps:
	bash scripts/install-deps.sh

build:
	$(SWIFT) build $(SWIFTPM)

release:
	$(SWIFT) build $(SWIFTPM) -c release

demo: $(DEMO_FILE)

# Ten seconds of test pattern and tone, H.264 + AAC, with a title tag.
$(DEMO_FILE):
	mkdir -p $(@D)
	$(FFMPEG) -nostdin -hide_banner -loglevel error -y \
		-f lavfi -i testsrc2=size=640x360:rate=30:duration=10 \
		-f lavfi -i sine=frequency=440:sample_rate=48000:duration=10 \
		-c:v libx264 -preset veryfast -pix_fmt yuv420p -c:a aac -b:a 128k \
		-metadata title="Playhead demo" $(@D)/.partial-demo.mp4
	mv $(@D)/.partial-demo.mp4 $@

run: deps
	$(SWIFT) build $(SWIFTPM) -c release
	$(MAKE) --no-print-directory demo
	$(DEMO_CMD)

test: deps lint-imports
	$(SWIFT) build $(SWIFTPM) --build-tests
	mkdir -p $(BUILD_DIR)
	status=0; $(SWIFT) test $(SWIFTPM) 2>&1 | tee $(TEST_LOG) || status=$$?; \
	if [[ $$status -ne 0 ]]; then \
		echo "==== swift test failed (exit $$status); failures from $(TEST_LOG): ===="; \
		grep -E '✘|error:|failed' $(TEST_LOG) | tail -n 60 || true; \
	fi; \
	exit $$status

lint: lint-imports lint-format

lint-imports:
	bash scripts/check-imports.sh

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
