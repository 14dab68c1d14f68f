# install.mk: man pages, bash completion, the kernel hooks and the bridge
# to initramfs-tools' hooks; built and installed by `make install`, removed
# by `make uninstall` (included by the Makefile). initramfs-tools'
# hook-functions (itools/hook-functions) is not: it takes the place of
# initramfs-tools' own file, which only the Debian package, replacing
# initramfs-tools, may do (debian/lifeboat.install).
SYSCONFDIR ?= /etc
MANDIR ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
KERNELINSTALLDIR ?= $(PREFIX)/lib/kernel/install.d

MAN_PAGES := lifeboat.8 lifeboat.conf.5 lifeboat.cmdline.7
MAN_OUT := $(addprefix $(BUILD)/man/,$(MAN_PAGES))

# What is installed, as SOURCE:DESTINATION:MODE; uninstall removes exactly these.
DIST_FILES := \
	dist/bash-completion/lifeboat:$(BASHCOMPDIR)/lifeboat:0644 \
	dist/kernel-install/50-lifeboat.install:$(KERNELINSTALLDIR)/50-lifeboat.install:0755 \
	dist/debian/postinst.d-lifeboat:$(SYSCONFDIR)/kernel/postinst.d/lifeboat:0755 \
	dist/debian/postrm.d-lifeboat:$(SYSCONFDIR)/kernel/postrm.d/lifeboat:0755 \
	itools/hooks.d/50-initramfs-tools:$(PREFIX)/lib/lifeboat/hooks.d/50-initramfs-tools:0755 \
	itools/initramfs-tools/run-scripts:$(PREFIX)/lib/lifeboat/initramfs-tools/run-scripts:0755 \
	itools/initramfs-tools/functions:$(PREFIX)/lib/lifeboat/initramfs-tools/functions:0644 \
	itools/initramfs-tools/native:$(PREFIX)/lib/lifeboat/initramfs-tools/native:0644 \
	$(foreach p,$(MAN_PAGES),$(BUILD)/man/$(p):$(MANDIR)/man$(subst .,,$(suffix $(p)))/$(p):0644)

# scdoc source -> roff, through a temporary name so a failed run leaves no page.
$(BUILD)/man/%: docs/man/%.scd
	@mkdir -p $(dir $@)
	scdoc < $< > $@.tmp && mv $@.tmp $@

man: $(MAN_OUT)

install-dist: $(MAN_OUT)
	@set -e; for f in $(DIST_FILES); do \
		src=$${f%%:*}; rest=$${f#*:}; dst=$${rest%:*}; mode=$${rest##*:}; \
		echo "install -D -m $$mode $$src $(DESTDIR)$$dst"; \
		install -D -m $$mode $$src "$(DESTDIR)$$dst"; \
	done

uninstall-dist:
	@for f in $(DIST_FILES); do \
		rest=$${f#*:}; dst=$${rest%:*}; \
		echo "rm -f $(DESTDIR)$$dst"; rm -f "$(DESTDIR)$$dst"; \
	done

.PHONY: man install-dist uninstall-dist
