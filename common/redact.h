/* redact: kernel command lines with their secrets replaced, for logs and reports. */
#ifndef LIFEBOAT_REDACT_H
#define LIFEBOAT_REDACT_H

#include <stdbool.h>
#include <stddef.h>

/* cmdline with each secret (the values of rd.iscsi.password= and
 * rd.iscsi.in.password=, USER:PASSWORD@ of netroot=/root=iscsi:) replaced by
 * "*"; words are split as the kernel does (quotes group). */
void redact_cmdline(const char *cmdline, char *out, size_t size);
/* Whether cmdline (up to 4 KiB) has such a secret. */
bool redact_has_secrets(const char *cmdline);

#endif
