/* tanghost: the host's clevis bindings, read by lifeboat-clevis --list (the
 * one reader of LUKS2 clevis tokens; the generator runs it as a tool). */
#include "gen/host/tanghost.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/termescape.h"
#include "gen/gen_report.h"
#include "gen/host/hostrun.h"

#define TANGHOST_LIST_MAX (64 * 1024)

/* Call fn on each "ID PIN URL" line until it returns true. */
static bool each_line(const char *text, bool (*fn)(const char *pin, const char *url, void *ctx),
		      void *ctx)
{
	while (*text) {
		size_t len = strcspn(text, "\n");
		char line[512];

		if (len < sizeof(line)) {
			char pin[64], found[400];
			int id;

			memcpy(line, text, len);
			line[len] = '\0';
			if (sscanf(line, "%d %63s %399s", &id, pin, found) == 3 && fn(pin, found, ctx))
				return true;
		}
		text += len + (text[len] == '\n');
	}
	return false;
}

struct url_out {
	char *url;
	size_t size;
};

static bool take_url(const char *pin, const char *url, void *ctx)
{
	struct url_out *o = ctx;

	if ((strcmp(pin, "tang") != 0 && strcmp(pin, "sss") != 0) || strcmp(url, "-") == 0)
		return false;
	/* The URL is the disk header's: shown, so escaped. */
	term_escape(o->url, o->size, url, strlen(url), 0);
	return true;
}

bool tanghost_list_parse(const char *text, char *url, size_t size)
{
	struct url_out o = { url, size };

	return each_line(text, take_url, &o);
}

static bool known_pin(const char *pin, const char *url, void *ctx)
{
	static const char *const pins[] = { "tang", "tpm2", "sss", "null" };

	(void)url;
	(void)ctx;
	for (size_t i = 0; i < sizeof(pins) / sizeof(pins[0]); i++)
		if (strcmp(pin, pins[i]) == 0)
			return true;
	return false;
}

bool tanghost_list_any_pin(const char *text)
{
	return each_line(text, known_pin, NULL);
}

static bool tpm_pin(const char *pin, const char *url, void *ctx)
{
	(void)url;
	(void)ctx;
	return strcmp(pin, "tpm2") == 0 || strcmp(pin, "sss") == 0;
}

bool tanghost_list_may_use_tpm(const char *text)
{
	return each_line(text, tpm_pin, NULL);
}

void tanghost_detect(struct host_facts *h, const char *clevis)
{
	for (size_t i = 0; i < h->stack.n_luks; i++) {
		char dev[300];
		const char *argv[] = { clevis, "--list", dev, NULL };
		char *out;
		size_t len;
		bool tang;

		snprintf(dev, sizeof(dev), "/dev/%s", h->stack.luks[i].dev);
		if (hostrun_capture(argv, NULL, 0, &out, &len, TANGHOST_LIST_MAX) < 0)
			continue;
		/* The first container that names a server gives tang_url. */
		tang = !h->root_tang && tanghost_list_parse(out, h->tang_url, sizeof(h->tang_url));
		h->root_tang = h->root_tang || tang;
		if (tanghost_list_any_pin(out) && !h->root_clevis) {
			h->root_clevis = true;
			gen_info("%s has clevis bindings: the image gets lifeboat-clevis", dev);
		}
		if (tanghost_list_may_use_tpm(out) && !h->root_clevis_tpm) {
			h->root_clevis_tpm = true;
			gen_info("%s has a clevis tpm2 or sss binding: the image gets libtss2", dev);
		}
		free(out);
		if (tang)
			gen_info("%s is bound to the Tang server %s (clevis): the image gets the "
				 "Tang unlock and the network", dev, h->tang_url);
	}
}
