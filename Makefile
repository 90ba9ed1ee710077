# vidrec — see README.md.
PREFIX ?= /usr/local
DESTDIR ?=
SWIFT ?= swift
CONFIG ?= release

BIN := .build/$(CONFIG)/vidrec

.PHONY: deps build demo test unit-test install uninstall clean

deps:
	@scripts/install-deps

build: deps
	$(SWIFT) build -c $(CONFIG)

# Records 5 s from the built-in test camera and microphone, saves it to the album,
# and shows what the file holds.
demo: build
	@scripts/demo $(BIN)

# Everything CI runs: unit and end-to-end tests on the host (the live-stream ones
# against nginx-rtmp, srt-live-transmit and ffmpeg started on 127.0.0.1), then the device tests
# against real kernel drivers (vivid, snd-aloop) in a QEMU virtual machine.
test: deps
	@scripts/install-deps --servers
	$(SWIFT) build --build-tests
	$(SWIFT) test
	@scripts/install-deps --vm
	vm/device-tests

install: build
	install -D -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/vidrec
	install -d $(DESTDIR)$(PREFIX)/share/vidrec/presets
	install -m 644 presets/*.json $(DESTDIR)$(PREFIX)/share/vidrec/presets/

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/vidrec
	rm -rf $(DESTDIR)$(PREFIX)/share/vidrec

clean:
	rm -rf .build
