# lifeboat: the generator (build/lifeboat), the init (build/lifeboat-init) and
# the way out at shutdown (build/lifeboat-shutdown), root's shell over SSH
# (build/lifeboat-login) and the Tang unlock (build/lifeboat-clevis).
#
#   make            build both
#   make test       unit tests (plain and ASan/UBSan), cppcheck, qemu boot tests
#   make unit       unit tests only
#   make check      the edit-run loop: unit tests, fake-root cases, layers, cppcheck, a boot case per component
#   make fakeroot   the fake-root cases only (tests/fakeroot/: seconds, no qemu)
#   make fuzz       every fuzz target for FUZZ_SECONDS each (clang, libFuzzer)
#   make demo       install what is missing, build, boot an image in qemu
#   make install    PREFIX=/usr DESTDIR=...
#   make deb        the Debian package, into build/deb/ (dpkg-buildpackage)

# Every core, also for `make test` in CI, which calls make without -j: the
# two builds (plain and ASan) took minutes of its 30 one file at a time.
MAKEFLAGS += -j$(shell nproc)

PREFIX ?= /usr/local
DESTDIR ?=
BUILD ?= build
CC ?= cc
FUZZ_SECONDS ?= 20

CFLAGS ?= -O2 -g
ALL_CFLAGS = -std=gnu11 -Wall -Wextra -Werror -D_GNU_SOURCE -I. $(CFLAGS) $(SANFLAGS)
ALL_LDFLAGS = $(LDFLAGS) $(SANFLAGS)

GEN_LIBS  := -lkmod -lz -llzma -lzstd -llz4 -lblkid -pthread
# liblzma is not linked: bootlib/lzmafn.c opens it when an xz stream is met.
INIT_LIBS := -lblkid -lz -pthread
# The unit tests read LZO pages back with liblzo2 itself (the init dlopens it).
TEST_LIBS := -llzo2 -ltss2-tcti-swtpm
# test_softfido drives the software FIDO2 key with libfido2 itself; it and
# fuzz_softfido parse CBOR with libcbor.
TEST_LIBS += -lfido2 -lcbor
FUZZ_LIBS := -lcbor
# lifeboat-clevis: the libraries cryptsetup already brings into the image.
# The tpm2 pin's libtss2 is dlopen()ed (clevis/tss2fn.c).
CLEVIS_LIBS := -lcrypto -ljson-c

GEN_SRCS    := $(filter-out gen/cmd/main.c,$(sort $(shell find gen -name '*.c')))
INIT_SRCS   := $(filter-out init/boot.c shutdown/shutdown_main.c remote/login_main.c,$(wildcard init/*.c bootlib/*.c resume/*.c kdump/*.c net/*.c net/*/*.c rescue/*.c blockstack/*.c fsck/*.c shutdown/*.c remote/*.c))
COMMON_SRCS := $(wildcard common/*.c)
CLEVIS_SRCS := $(filter-out clevis/clevis_main.c,$(wildcard clevis/*.c))
UNIT_SRCS   := $(wildcard tests/unit/test_*.c)
FUZZ_SRCS   := $(wildcard tests/fuzz/fuzz_*.c)

obj = $(patsubst %.c,$(BUILD)/obj/%.o,$(1))
GEN_OBJS    := $(call obj,$(GEN_SRCS))
INIT_OBJS   := $(call obj,$(INIT_SRCS))
COMMON_OBJS := $(call obj,$(COMMON_SRCS))
CLEVIS_OBJS := $(call obj,$(CLEVIS_SRCS))
UNIT_BINS   := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRCS))
FUZZ_BINS   := $(patsubst tests/fuzz/%.c,$(BUILD)/fuzz/%,$(FUZZ_SRCS))

all: $(BUILD)/lifeboat $(BUILD)/lifeboat-init $(BUILD)/lifeboat-shutdown $(BUILD)/lifeboat-login $(BUILD)/lifeboat-clevis

# No file is intermediate: make would delete the unit tests' objects after
# the run and print its rm line after the test summary, which must be last.
.SECONDARY:

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/libgen.a: $(GEN_OBJS)
$(BUILD)/libinit.a: $(INIT_OBJS)
$(BUILD)/libcommon.a: $(COMMON_OBJS)
$(BUILD)/libclevis.a: $(CLEVIS_OBJS)
$(BUILD)/%.a:
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(BUILD)/lifeboat: $(BUILD)/obj/gen/cmd/main.o $(BUILD)/libgen.a $(BUILD)/libcommon.a
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(GEN_LIBS)

# The programs that go into images keep their debug information and symbol
# tables beside them (NAME.debug, found by gdb through the debug link), not
# in the image: it was 0.44 MB of a generic image compressed, the symbol
# tables 0.12 MB more unpacked.
define debug_split
objcopy --only-keep-debug $@ $@.debug
objcopy --strip-all --add-gnu-debuglink=$@.debug $@
endef

$(BUILD)/lifeboat-init: $(BUILD)/obj/init/boot.o $(BUILD)/libinit.a $(BUILD)/libcommon.a
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(INIT_LIBS)
	$(debug_split)

# Static: it stays in memory while the system runs, with no libraries beside it.
# No liblzma: the init leaves it busybox unpacked (shutdown/leave.c). libcrypt
# linked in: rd.break=shutdown's gate checks --rescue-auth's password with it.
$(BUILD)/lifeboat-shutdown: $(BUILD)/obj/shutdown/shutdown_main.o $(BUILD)/libinit.a $(BUILD)/libcommon.a
	$(CC) $(ALL_LDFLAGS) $(if $(SANFLAGS),,-static) -o $@ $^ -lcrypt
	$(debug_split)

# Root's shell in an image built with --ssh (remote/, docs/remote.md).
$(BUILD)/lifeboat-login: $(BUILD)/obj/remote/login_main.o $(BUILD)/libinit.a $(BUILD)/libcommon.a
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(INIT_LIBS)
	$(debug_split)

# The Tang unlock helper (docs/blockstacks.md): its own program, so that the
# init itself keeps linking glibc and libblkid only. From bootlib/ it takes
# the HTTP client (libcurl, dlopen()ed) and the clock.
$(BUILD)/lifeboat-clevis: $(BUILD)/obj/clevis/clevis_main.o $(BUILD)/libclevis.a $(BUILD)/libinit.a $(BUILD)/libcommon.a
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(CLEVIS_LIBS)
	$(debug_split)

# Each unit test links against all the archives; only what it uses is pulled in.
$(BUILD)/tests/%: $(BUILD)/obj/tests/unit/%.o $(BUILD)/libgen.a $(BUILD)/libclevis.a $(BUILD)/libinit.a $(BUILD)/libcommon.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ -lcmocka $(GEN_LIBS) $(INIT_LIBS) $(TEST_LIBS) $(CLEVIS_LIBS)

unit-build: $(UNIT_BINS) all

# softfido (tests/softfido/): the software FIDO2 authenticator of the FIDO2
# unlock tests, a uhid device in the guest. Its CTAP layers, without the
# uhid main, go into the unit test and the fuzz target too.
SOFTFIDO_OBJS := $(call obj,$(filter-out tests/softfido/softfido.c,$(wildcard tests/softfido/*.c)))
$(BUILD)/tests/test_softfido $(BUILD)/fuzz/fuzz_softfido: $(SOFTFIDO_OBJS)
$(BUILD)/softfido: $(BUILD)/obj/tests/softfido/softfido.o $(SOFTFIDO_OBJS)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ -lcbor -lcrypto

# The fake-root harness (tests/fakeroot/, tests/README.md): the init's own
# code on a fake /sys, /dev and uevent socket, in seconds and without qemu.
# Each case runs itself again with the shim beside it preloaded; the shim
# has no sanitizer (it comes before their runtime).
FAKEROOT_BINS := $(patsubst tests/fakeroot/%.c,$(BUILD)/tests/fakeroot/%,$(wildcard tests/fakeroot/test_*.c))
$(BUILD)/tests/fakeroot/shim.so: $(wildcard tests/fakeroot/shim*.c) tests/fakeroot/shim.h
	@mkdir -p $(dir $@)
	$(CC) $(filter-out $(SANFLAGS),$(ALL_CFLAGS)) -shared -fPIC -o $@ $(filter %.c,$^) -ldl

$(FAKEROOT_BINS): $(BUILD)/tests/fakeroot/%: $(BUILD)/obj/tests/fakeroot/%.o $(BUILD)/obj/tests/fakeroot/fakeroot.o \
		$(BUILD)/libinit.a $(BUILD)/libcommon.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ -lcmocka $(INIT_LIBS)

fakeroot-build: $(FAKEROOT_BINS) $(BUILD)/tests/fakeroot/shim.so

fakeroot: fakeroot-build
	tests/run-unit.sh $(BUILD)/tests/fakeroot

unit: unit-build
	tests/run-unit.sh $(BUILD)/tests

# The edit-run loop, under 5 minutes on 2 cores from a built tree: the unit
# tests, the fake-root cases, the layers, cppcheck, and one boot case per component (root: the
# network cases make a namespace). `make test` runs every case.
CHECK_BOOT_CASES := path_virtio_blk_ext4 rescue_break_stages stacks_lvm_on_luks stacks_fsck_force \
	resume_plain_swap kdump_disk net_nfs_root ssh_unlock shutdown_nfs_root
check: unit fakeroot-build $(BUILD)/test-init $(BUILD)/hib-init $(BUILD)/hostgen-init
	tests/run-unit.sh $(BUILD)/tests/fakeroot
	$(MAKE) -s check-layers cppcheck
	BUILD=$(abspath $(BUILD)) tests/boot/run.sh $(CHECK_BOOT_CASES)

# The guest-side helper of the boot tests: a static /sbin/init for test roots.
$(BUILD)/test-init: tests/boot/test-init.c tests/boot/guest-report.h tests/boot/guest-cmdline.h \
		tests/boot/guest-handback.h
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -static -o $@ $<

# hib-init: the same for the hibernation test roots (tests/boot/cases-resume.sh).
$(BUILD)/hib-init: tests/boot/hib-init.c tests/boot/guest-cmdline.h
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -static -o $@ $<

# hostgen-init: the init of the stacked root that runs the host-only
# generator in a guest (tests/boot/cases-stacks.sh).
$(BUILD)/hostgen-init: tests/boot/hostgen-init.c tests/boot/guest-cmdline.h tests/boot/guest-report.h
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -static -o $@ $<

test: all unit-build fakeroot-build $(BUILD)/test-init $(BUILD)/hib-init $(BUILD)/hostgen-init \
		$(BUILD)/softfido
	tests/run-all.sh

# libFuzzer targets are built with clang in their own build directory.
$(BUILD)/fuzz/%: $(BUILD)/obj/tests/fuzz/%.o $(BUILD)/libgen.a $(BUILD)/libclevis.a $(BUILD)/libinit.a $(BUILD)/libcommon.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_LDFLAGS) -fsanitize=fuzzer -o $@ $^ $(GEN_LIBS) $(INIT_LIBS) $(CLEVIS_LIBS) $(FUZZ_LIBS)

fuzz-build: $(FUZZ_BINS)

fuzz:
	$(MAKE) BUILD=build/fuzz CC=clang SANFLAGS="-fsanitize=fuzzer-no-link,address,undefined" fuzz-build
	tests/run-fuzz.sh build/fuzz/fuzz/fuzz_ $(FUZZ_SECONDS)

asan-unit:
	$(MAKE) BUILD=build/asan SANFLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" unit-build
	tests/run-unit.sh build/asan/tests

cppcheck:
	cppcheck --quiet --error-exitcode=1 --enable=warning,style,performance,portability \
		--inline-suppr --std=c11 -D_GNU_SOURCE -I. \
		--suppress=missingIncludeSystem gen init common bootlib resume kdump net rescue blockstack fsck shutdown remote clevis

# The include rules of docs/architecture.md, and proof that the check fails.
# It reads the objects' symbols too (nm): a call declared by hand has no include.
LAYER_OBJS := $(GEN_OBJS) $(INIT_OBJS) $(COMMON_OBJS) $(CLEVIS_OBJS) \
	$(call obj,gen/cmd/main.c init/boot.c shutdown/shutdown_main.c remote/login_main.c clevis/clevis_main.c)
check-layers: $(LAYER_OBJS)
	python3 tests/layers/check-layers.py --objects $(BUILD)/obj
	tests/layers/selftest.sh

deps:
	tests/install-deps.sh

demo:
	tests/demo.sh

# Side by side with initramfs-tools, dracut and tiny-initramfs (docs/benchmarks.md).
bench: all $(BUILD)/test-init
	tests/bench/fetch-tools.sh && tests/bench/run.sh

install: all install-dist
	install -D -m 0755 $(BUILD)/lifeboat $(DESTDIR)$(PREFIX)/bin/lifeboat
	install -D -m 0755 $(BUILD)/lifeboat-init $(DESTDIR)$(PREFIX)/lib/lifeboat/lifeboat-init
	install -D -m 0755 $(BUILD)/lifeboat-shutdown $(DESTDIR)$(PREFIX)/lib/lifeboat/lifeboat-shutdown
	install -D -m 0755 $(BUILD)/lifeboat-login $(DESTDIR)$(PREFIX)/lib/lifeboat/lifeboat-login
	install -D -m 0755 $(BUILD)/lifeboat-clevis $(DESTDIR)$(PREFIX)/lib/lifeboat/lifeboat-clevis

uninstall: uninstall-dist
	rm -f $(DESTDIR)$(PREFIX)/bin/lifeboat $(DESTDIR)$(PREFIX)/lib/lifeboat/lifeboat-init \
		$(DESTDIR)$(PREFIX)/lib/lifeboat/lifeboat-shutdown $(DESTDIR)$(PREFIX)/lib/lifeboat/lifeboat-login \
		$(DESTDIR)$(PREFIX)/lib/lifeboat/lifeboat-clevis
	-rmdir $(DESTDIR)$(PREFIX)/lib/lifeboat

# dpkg-buildpackage writes beside the source tree: a copy under build/deb/src
# keeps the packages in build/deb/. DEB_BUILD_OPTIONS=nocheck skips the unit tests.
deb:
	rm -rf $(BUILD)/deb && mkdir -p $(BUILD)/deb/src
	tar -c --exclude=./build --exclude='./build-*' --exclude=./.git . | tar -x -C $(BUILD)/deb/src
	cd $(BUILD)/deb/src && dpkg-buildpackage -us -uc -b
	lintian --fail-on error $(BUILD)/deb/lifeboat_*.deb

clean:
	rm -rf build

include dist/install.mk

.PHONY: all check check-layers unit unit-build fakeroot fakeroot-build test fuzz fuzz-build asan-unit cppcheck deps demo bench install uninstall deb clean

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
