/* kdumphost: the block stacks under a host-only capture image's dump disks. */
#include "gen/host/kdumphost.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "common/kdumptarget.h"
#include "gen/gen_report.h"

/* What target_disk.c in the capture reads as a device: WHERE up to its
 * ':' (a URL's "scheme:" and NFS's "nfs:" are other kinds). */
void kdumphost_target_device(const char *where, char *dev, size_t size)
{
	const char *colon = strchr(where, ':');
	size_t len = colon ? (size_t)(colon - where) : strlen(where);

	dev[0] = '\0';
	if (strstr(where, "://") || strncmp(where, "nfs", 3) == 0 || len == 0 || len >= size)
		return;
	snprintf(dev, size, "%.*s", (int)len, where);
}

int kdumphost_scan(struct host_facts *h, const char *root, const struct strv *targets)
{
	for (size_t i = 0; i < targets->len; i++) {
		struct kdump_target t;
		const char *why;
		char dev[KDUMP_SPEC_MAX];
		int r;

		/* A malformed target is refused, with its reason, by the kdump
		 * feature (gen/feature/kdump_pack.c). */
		if (kdump_target_parse(targets->items[i], &t, &why) < 0)
			continue;
		kdumphost_target_device(t.where, dev, sizeof(dev));
		if (!dev[0])
			continue;
		r = hostfacts_add_device(h, root, dev);
		if (r == -ENOMEM)
			return r;
		if (r == -ENOENT && gen_verbose)
			gen_info("--kdump-target %s: this host has no such device now; a LUKS, LVM or md "
				 "stack under it is not looked for", dev);
	}
	return 0;
}
