/* uki_cmdline: the command line a unified kernel image carries, and the
 * rule that a signed one must carry one.
 *
 * systemd's EFI stub takes the boot loader's options instead of the image's
 * .cmdline section unless Secure Boot is on AND the section is there (an
 * empty section counts as none). A signed image without a command line
 * therefore boots, under Secure Boot too, with whatever options the loader
 * passes: whoever can write the ESP or a loader entry can give it
 * init=/bin/sh or rd.break. lifeboat refuses to sign such an image unless
 * --uki-loader-cmdline says that is wanted. */
#ifndef LIFEBOAT_UKI_CMDLINE_H
#define LIFEBOAT_UKI_CMDLINE_H

#include <stdbool.h>

/* Where kernel-install keeps the command line, the first that exists wins. */
extern const char *const uki_cmdline_files[];

/* The image's command line: given (--cmdline), else the first of files
 * that exists, on one line without trailing blanks; *line is NULL when
 * there is none or it is empty. Refuses (reported, -EINVAL) a signed image
 * without one unless loader_cmdline, and --uki-loader-cmdline with a
 * command line given. Returns 0, -EINVAL or -errno (reported). */
int uki_cmdline_decide(const char *given, const char *const *files, bool signing,
		       bool loader_cmdline, char **line);

#endif
