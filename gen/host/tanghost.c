/* tanghost: the host's Tang bindings, read by lifeboat-clevis --list (the
 * one reader of LUKS2 clevis tokens; the generator runs it as a tool). */
#include "gen/host/tanghost.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/gen_report.h"
#include "gen/host/hostrun.h"

#define TANGHOST_LIST_MAX (64 * 1024)

bool tanghost_list_parse(const char *text, char *url, size_t size)
{
	while (*text) {
		size_t len = strcspn(text, "\n");
		char line[512];

		if (len < sizeof(line)) {
			char pin[64], found[400];
			int id;

			memcpy(line, text, len);
			line[len] = '\0';
			if (sscanf(line, "%d %63s %399s", &id, pin, found) == 3 &&
			    strcmp(pin, "tang") == 0 && strcmp(found, "-") != 0) {
				snprintf(url, size, "%s", found);
				return true;
			}
		}
		text += len + (text[len] == '\n');
	}
	return false;
}

void tanghost_detect(struct host_facts *h, const char *clevis)
{
	for (size_t i = 0; i < h->stack.n_luks && !h->root_tang; i++) {
		char dev[300];
		const char *argv[] = { clevis, "--list", dev, NULL };
		char *out;
		size_t len;

		snprintf(dev, sizeof(dev), "/dev/%s", h->stack.luks[i].dev);
		if (hostrun_capture(argv, NULL, 0, &out, &len, TANGHOST_LIST_MAX) < 0)
			continue;
		h->root_tang = tanghost_list_parse(out, h->tang_url, sizeof(h->tang_url));
		free(out);
		if (h->root_tang)
			gen_info("%s is bound to the Tang server %s (clevis): the image gets the "
				 "Tang unlock and the network", dev, h->tang_url);
	}
}
