/* iscsi_conf: which iSCSI target and initiator name the command line, DHCP,
 * the firmware and the image say to use (pure: no I/O but reading a file). */
#ifndef LIFEBOAT_NET_ISCSI_CONF_H
#define LIFEBOAT_NET_ISCSI_CONF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/layout.h"
#include "net/iscsi/rfc4173.h"
#include "net/net.h"

/* The host's initiator name, put into the image by `lifeboat build --iscsi`. */
#define ISCSI_INITIATOR_FILE LAYOUT_ISCSI_INITIATOR
/* The prefix of a generated initiator name (RFC 3720 3.2.6.3.1 iqn. form:
 * a date the naming authority owned the domain, then the domain reversed). */
#define ISCSI_GENERATED_PREFIX "iqn.2026-01.org.lifeboat:"

/* The target from the command line (netroot=, root=, rd.iscsi.target.*:
 * a->root.from) or, when those name none, from root_path (DHCP option 17; may be NULL), with
 * rd.iscsi.username= and the other CHAP parameters over what the root path
 * says. Defaults filled in: port 3260, portal group 1. The server may stay
 * empty (the caller knows DHCP's). Returns 0, or -errno with what is wrong
 * and what to write instead in why (never a secret). */
int iscsi_conf_target(const struct net_request *a, const char *root_path,
		      struct iscsi_target *t, char *why, size_t why_size);
/* Most netroot=iscsi:... words a boot logs in to (portals of one LUN). */
#define ISCSI_PORTALS_MAX 8
/* dracut's several netroot=iscsi:... words (the root's LUN through several
 * portals, grouped by multipath): each parsed into t[] as
 * iscsi_conf_target does one. Returns how many (0 when the command line
 * names fewer than two: the one target of iscsi_conf_target is the root),
 * or -errno with the word that is wrong in why (never a secret). */
int iscsi_conf_portals(const struct net_request *a, struct iscsi_target *t, size_t max,
		       char *why, size_t why_size);
/* Apply rd.iscsi.username= and the other CHAP parameters over t's. */
void iscsi_conf_chap(const struct net_request *a, struct iscsi_target *t);
/* Wipe rd.iscsi.password=, rd.iscsi.in.password= and the rd.iscsi.param=
 * words that set a password once the login is done:
 * the kernel keeps the session's secrets, PID 1 need not. */
void iscsi_conf_forget(struct iscsi_args *a);
/* The initiator name: rd.iscsi.initiator=, else the firmware's (may be
 * NULL or empty), else the InitiatorName= of file, else one made from mac
 * (stable across boots, so the target's ACL can name it). */
void iscsi_conf_initiator(const struct net_request *a, const char *firmware, const char *file,
			  const uint8_t mac[6], char *out, size_t size);
#endif
