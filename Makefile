# vidrec — see README.md.
PREFIX ?= /usr/local
DESTDIR ?=
SWIFT ?= swift
CONFIG ?= release

BIN := .build/$(CONFIG)/vidrec

.PHONY: deps build man demo test test-here install uninstall deb clean

VERSION := $(shell cat VERSION)
# Relocations read-only and bound at start (Debian's hardening for binaries), linked
# by the toolchain's own lld on every release: the system linker differs (gold on
# Debian 12; on Debian 13 GNU ld, which leaves the Swift binary without its read-only
# relocations segment, PT_GNU_RELRO, whatever -z relro says).
HARDENING := -Xswiftc -use-ld=lld -Xlinker -z -Xlinker relro -Xlinker -z -Xlinker now
MAN := .build/vidrec.1

deps:
	@scripts/install-deps

# The Swift runtime and Foundation are linked in (--static-swift-stdlib): the binary
# needs Debian's libraries only (FFmpeg, ALSA, libv4l), not the Swift toolchain, and
# has no run path (--disable-local-rpath: no $ORIGIN either).
build: deps
	$(SWIFT) build -c $(CONFIG) --static-swift-stdlib --disable-local-rpath $(HARDENING)

# The vidrec(1) manual page and the shell completions, made by the binary from the
# same specs as --help; the vidrec@.service user unit, pointing at PREFIX/bin.
man: build
	$(BIN) manual > $(MAN)
	$(BIN) completions bash > .build/vidrec.bash
	$(BIN) completions zsh > .build/_vidrec
	$(BIN) completions fish > .build/vidrec.fish
	sed 's|@BINDIR@|$(PREFIX)/bin|' systemd/vidrec@.service.in > .build/vidrec@.service

# Records 5 s from the built-in test camera and microphone, saves it to the album,
# and shows what the file holds.
demo: build
	@scripts/demo $(BIN)

# Everything CI runs: the stage below on this machine's release, then the same stage
# inside a root of each other release vidrec supports (scripts/in-release: Debian 13 on
# a Debian 12 machine, and the other way round), with that release's own FFmpeg,
# PipeWire, kernel and programs.
RELEASES := bookworm trixie
HOST_RELEASE := $(shell . /etc/os-release 2>/dev/null && echo $$VERSION_CODENAME)
OTHER_RELEASES := $(filter-out $(HOST_RELEASE),$(RELEASES))
# The device tests that run on the other release's kernel: one or more of each driver
# and sound path (vivid, snd-aloop, v4l2loopback with MJPEG and H.264, libcamera's
# compatibility layer and its cameras, named by their nodes, PipeWire), not all of them, to
# keep make test inside CI's time.
OTHER_RELEASE_VM_TESTS := devicesListsBothVividCamerasAndTheLoopbackMicrophone|recordsTheWebcamWithTheLoopbackToneInStep|underLibcamerasCompatibilityLayerTheCameraIsReachedThroughLibc|anMJPEGCameraIsCopiedWithEveryFrameItDelivers|anH264CameraIsCopiedFromItsFirstKeyframe|theDefaultMicrophoneRecordsThroughPipeWireOnlyInTheSessionAndPipeWireHoldsTheCard|soundThroughPipeWireIsPlacedWhereItWasCapturedWithinAFrame|vimcsNodesAreListedAsPartsOfItsLibcameraCamera|theDefaultCameraIsTheLibcameraCameraItsFirstNodeIsAPartOf

test: test-here $(addprefix test-in-,$(OTHER_RELEASES))

# One release's stage: unit and end-to-end tests on the host (the live-stream ones
# against nginx-rtmp, srt-live-transmit and ffmpeg started on 127.0.0.1), the package
# (built, linted, installed into a clean root of the same release, used and purged
# there), then the device tests against real kernel drivers (vivid, snd-aloop) in a
# QEMU virtual machine (VIDREC_VM_TESTS: which of them; all by default).
test-here: deps
	@scripts/install-deps --servers
	$(SWIFT) build --build-tests
	$(SWIFT) test
	scripts/package-tests
	@scripts/install-deps --vm
	vm/device-tests

# The stage above in a root of another release (made once, see scripts/release-root).
test-in-%:
	scripts/in-release $* make test-here VIDREC_VM_TESTS='$(OTHER_RELEASE_VM_TESTS)'

install: build man
	install -D -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/vidrec
	install -d $(DESTDIR)$(PREFIX)/share/vidrec/presets
	install -m 644 presets/*.json $(DESTDIR)$(PREFIX)/share/vidrec/presets/
	install -D -m 644 $(MAN) $(DESTDIR)$(PREFIX)/share/man/man1/vidrec.1
	install -D -m 644 .build/vidrec.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/vidrec
	install -D -m 644 .build/_vidrec $(DESTDIR)$(PREFIX)/share/zsh/vendor-completions/_vidrec
	install -D -m 644 .build/vidrec.fish $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/vidrec.fish
	install -D -m 644 .build/vidrec@.service $(DESTDIR)$(PREFIX)/lib/systemd/user/vidrec@.service

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/vidrec
	rm -rf $(DESTDIR)$(PREFIX)/share/vidrec
	rm -f $(DESTDIR)$(PREFIX)/share/man/man1/vidrec.1
	rm -f $(DESTDIR)$(PREFIX)/share/bash-completion/completions/vidrec
	rm -f $(DESTDIR)$(PREFIX)/share/zsh/vendor-completions/_vidrec
	rm -f $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/vidrec.fish
	rm -f $(DESTDIR)$(PREFIX)/lib/systemd/user/vidrec@.service

# The Debian package: .build/vidrec_$(VERSION)_<arch>.deb (see scripts/make-deb).
deb: build man
	@scripts/make-deb

clean:
	rm -rf .build
