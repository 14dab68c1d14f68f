/* rfc4173: the iSCSI root path, iscsi:[CREDS@]SERVER:PROTO:PORT:LUN:TARGET. */
#ifndef LIFEBOAT_NET_RFC4173_H
#define LIFEBOAT_NET_RFC4173_H

#include <stdbool.h>

#define ISCSI_DEFAULT_PORT 3260
/* RFC 3720 3.2.6.1: an iSCSI name is at most 223 bytes. */
#define ISCSI_NAME_MAX 224
#define ISCSI_HOST_MAX 64
#define ISCSI_SECRET_MAX 256

struct iscsi_chap {
	char username[ISCSI_SECRET_MAX];
	char password[ISCSI_SECRET_MAX];
	char in_username[ISCSI_SECRET_MAX];    /* the target's name, mutual CHAP */
	char in_password[ISCSI_SECRET_MAX];
};

/* One iSCSI target to log in to. Empty strings and 0 mean "not given". */
struct iscsi_target {
	char server[ISCSI_HOST_MAX];           /* IPv4 or IPv6 address (no brackets), or empty */
	unsigned int port;                     /* 0: ISCSI_DEFAULT_PORT */
	unsigned long long lun;
	bool lun_given;
	char name[ISCSI_NAME_MAX];             /* the target's iSCSI name (IQN, EUI) */
	unsigned int group;                    /* target portal group tag; 0: 1 */
	struct iscsi_chap chap;
};

/* Whether text is an iSCSI root path (starts with "iscsi:"). */
bool rfc4173_is_iscsi(const char *text);
/* Parse iscsi:[USER:PASS[:INUSER:INPASS]@][SERVER]:[PROTO]:[PORT]:[LUN]:TARGET
 * (RFC 4173 with dracut's credential prefix) into *t, which is cleared first.
 * The first four fields are split at ':', the rest is the target name (IQNs
 * hold colons); an IPv6 SERVER is in brackets. PROTO is empty or 6 (TCP).
 * LUN is hexadecimal, dashes allowed, as RFC 4173 writes it.
 * Returns 0, -EINVAL (malformed), -EPROTONOSUPPORT (PROTO not TCP) or
 * -ENAMETOOLONG. */
int rfc4173_parse(const char *text, struct iscsi_target *t);

#endif
