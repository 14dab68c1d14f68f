/* fidostate: the state file, text lines "KEY VALUE" (see fidostate.h). */
#include "tests/softfido/fidostate.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/softfido/fidocrypto.h"

int fidostate_fresh(struct fidostate *s)
{
	memset(s, 0, sizeof(*s));
	s->pin_retries = FIDOSTATE_PIN_RETRIES;
	return fidocrypto_random(s->master, sizeof(s->master));
}

static int hex_in(const char *hex, uint8_t *out, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned v;

		if (sscanf(hex + 2 * i, "%2x", &v) != 1)
			return -1;
		out[i] = (uint8_t)v;
	}
	return hex[2 * len] == '\0' || hex[2 * len] == '\n' ? 0 : -1;
}

static void hex_out(FILE *f, const char *key, const uint8_t *data, size_t len)
{
	fprintf(f, "%s ", key);
	for (size_t i = 0; i < len; i++)
		fprintf(f, "%02x", data[i]);
	fputc('\n', f);
}

static int parse_line(struct fidostate *s, const char *line, int *have_master)
{
	unsigned long v;

	if (!strncmp(line, "master ", 7)) {
		*have_master = 1;
		return hex_in(line + 7, s->master, sizeof(s->master));
	}
	if (!strncmp(line, "pin ", 4)) {
		s->pin_set = 1;
		return hex_in(line + 4, s->pin_hash, sizeof(s->pin_hash));
	}
	if (sscanf(line, "counter %lu", &v) == 1) {
		s->counter = (uint32_t)v;
		return 0;
	}
	if (sscanf(line, "retries %lu", &v) == 1 && v <= FIDOSTATE_PIN_RETRIES) {
		s->pin_retries = (int)v;
		return 0;
	}
	return line[0] == '#' || line[0] == '\n' ? 0 : -1;
}

int fidostate_load(struct fidostate *s, const char *path)
{
	char line[256];
	int have_master = 0, bad = 0;
	FILE *f = fopen(path, "re");

	if (!f && errno != ENOENT)
		return -1;
	if (fidostate_fresh(s) < 0 || !(s->path = strdup(path))) {
		if (f)
			fclose(f);
		return -1;
	}
	if (!f)
		return fidostate_save(s);
	while (!bad && fgets(line, sizeof(line), f))
		bad = parse_line(s, line, &have_master) < 0;
	fclose(f);
	if (bad || !have_master) {
		fprintf(stderr, "softfido: %s: not a softfido state file\n", path);
		return -1;
	}
	return 0;
}

int fidostate_save(const struct fidostate *s)
{
	char tmp[4096];
	FILE *f;
	int ok;

	if (!s->path)
		return 0;
	if (snprintf(tmp, sizeof(tmp), "%s.tmp", s->path) >= (int)sizeof(tmp) ||
	    !(f = fopen(tmp, "we")))
		return -1;
	fprintf(f, "# softfido state: a test authenticator's secrets\n");
	hex_out(f, "master", s->master, sizeof(s->master));
	fprintf(f, "counter %lu\nretries %d\n", (unsigned long)s->counter, s->pin_retries);
	if (s->pin_set)
		hex_out(f, "pin", s->pin_hash, sizeof(s->pin_hash));
	ok = fflush(f) == 0 && fsync(fileno(f)) == 0;
	ok = fclose(f) == 0 && ok;
	if (!ok || rename(tmp, s->path) < 0) {
		unlink(tmp);
		return -1;
	}
	return 0;
}

void fidostate_free(struct fidostate *s)
{
	free(s->path);
	memset(s, 0, sizeof(*s));
}
