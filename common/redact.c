/* redact: kernel command lines with their secrets (iSCSI CHAP) replaced, for logs and reports. */
#include "common/redact.h"

#include <stdbool.h>
#include <string.h>

/* Parameters whose whole value is a secret. */
static const char *const secret_params[] = { "rd.iscsi.password=", "rd.iscsi.in.password=" };
/* Parameters whose value is a root path that may hold USER:PASSWORD@. */
static const char *const path_params[] = { "netroot=iscsi:", "root=iscsi:" };

/* The length of the secret that starts word at a parameter's value, and where. */
static size_t secret_span(const char *word, size_t len, size_t *start)
{
	for (size_t i = 0; i < sizeof(secret_params) / sizeof(secret_params[0]); i++) {
		size_t n = strlen(secret_params[i]);

		if (len >= n && strncmp(word, secret_params[i], n) == 0) {
			*start = n;
			return len - n;
		}
	}
	for (size_t i = 0; i < sizeof(path_params) / sizeof(path_params[0]); i++) {
		size_t n = strlen(path_params[i]);
		const char *at = NULL;

		if (len < n || strncmp(word, path_params[i], n) != 0)
			continue;
		for (const char *p = word + n; p < word + len; p++)
			at = *p == '@' ? p : at;
		if (at) {
			*start = n;
			return (size_t)(at - word) - n;
		}
	}
	return 0;
}

/* A word's length as the kernel splits them: quotes group spaces. */
static size_t word_len(const char *p)
{
	bool quoted = false;
	size_t n = 0;

	for (; p[n] && (quoted || !strchr(" \t\n", p[n])); n++)
		quoted ^= p[n] == '"';
	return n;
}

bool redact_has_secrets(const char *cmdline)
{
	char out[4096];

	redact_cmdline(cmdline, out, sizeof(out));
	return strcmp(out, cmdline) != 0;
}

void redact_cmdline(const char *cmdline, char *out, size_t size)
{
	size_t o = 0;
	const char *p = cmdline;

	while (*p && o + 1 < size) {
		size_t len = word_len(p), start = 0;
		size_t secret = secret_span(p, len, &start);

		for (size_t i = 0; i < len && o + 1 < size; i++)
			if (!secret || i < start || i >= start + secret)
				out[o++] = p[i];
			else if (i == start)
				out[o++] = '*';
		p += len;
		while ((*p == ' ' || *p == '\t' || *p == '\n') && o + 1 < size)
			out[o++] = *p++;
	}
	out[o] = '\0';
}
