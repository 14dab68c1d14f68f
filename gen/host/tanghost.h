/* tanghost: whether the host's root (or resume device) sits in a LUKS
 * container bound to a Tang server, so that a host-only image carries the
 * Tang unlock without --clevis (gen/feature/clevis_pack.c). */
#ifndef LIFEBOAT_TANGHOST_H
#define LIFEBOAT_TANGHOST_H

#include <stdbool.h>
#include <stddef.h>

#include "gen/host/hostfacts.h"

/* The first Tang URL in `lifeboat-clevis --list` output ("ID PIN URL"
 * lines: a tang binding's server, an sss binding's first tang share's)
 * into url, escaped for a terminal (common/termescape.h: the URL is what
 * the disk's LUKS2 header says). Returns true when a line has pin tang or
 * sss and a URL. */
bool tanghost_list_parse(const char *text, char *url, size_t size);
/* Whether a line of that output names a pin lifeboat-clevis unlocks
 * (tang, tpm2, sss, null). */
bool tanghost_list_any_pin(const char *text);
/* Whether a line names a binding that may need the TPM (tpm2, or sss,
 * whose shares --list does not show). */
bool tanghost_list_may_use_tpm(const char *text);
/* Ask lifeboat-clevis (at clevis, the build's own program, run on the
 * host) about each LUKS container of the host's stack; sets h->root_tang
 * and h->tang_url, h->root_clevis and h->root_clevis_tpm. A container it
 * cannot read is no binding. */
void tanghost_detect(struct host_facts *h, const char *clevis);

#endif
