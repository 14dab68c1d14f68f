/* iscsistart: one login to an iSCSI target with open-iscsi's iscsistart. */
#ifndef LIFEBOAT_NET_ISCSISTART_H
#define LIFEBOAT_NET_ISCSISTART_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "common/layout.h"
#include "net/iscsi/rfc4173.h"

#define ISCSISTART_PATH LAYOUT_ISCSISTART

/* Run iscsistart for t as initiator, with each NAME=VALUE of params
 * (NULL-terminated; NULL: none) as an -P option, killing it after
 * timeout_ms. Returns 0
 * when the session is up (or was already), -ETIMEDOUT when killed, -ENOENT
 * when the program is missing, -EIO with *status the status it reported
(or its exit status) otherwise. Its output goes on to stderr.
 * Secrets go to it on its command line (no other process runs to see it)
 * and are never logged. */
int iscsistart_login(const struct iscsi_target *t, const char *initiator,
		     const char *const *params, unsigned int timeout_ms, int *status);
/* The status in iscsistart's "initiator reported error (N - ...)" line, or
 * -1 when line is not one. */
int iscsistart_reported_status(const char *line);

/* iscsistart's output, split into lines as it comes, each passed on to
 * echo (may be NULL) and checked for the status line. */
#define ISCSISTART_LINE_MAX 512
struct iscsistart_output {
	char line[ISCSISTART_LINE_MAX];   /* the line so far; longer ones are cut */
	size_t len;
	int reported;                     /* the last status reported, 0 if none */
};
void iscsistart_output_feed(struct iscsistart_output *o, const char *buf, size_t len, FILE *echo);
/* The output ended: a last line without its newline counts too. */
void iscsistart_output_end(struct iscsistart_output *o, FILE *echo);
/* What an exit status of iscsistart means, for a message. */
const char *iscsistart_status_text(int status);
/* Whether trying again may help: a connection refused or timed out (the
 * target may be starting), not a login the target refused. */
bool iscsistart_status_transient(int status);

#endif
