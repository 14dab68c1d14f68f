/* live_url: root=live:URL read once: an http:// or https:// image, its
 * file name (for the checksum file's line) and the checksum file's URL. */
#ifndef LIFEBOAT_NET_LIVE_LIVE_URL_H
#define LIFEBOAT_NET_LIVE_LIVE_URL_H

#include <stdbool.h>
#include <stddef.h>

#define LIVE_URL_MAX 512
#define LIVE_URL_PREFIX "live:"

struct live_url {
	char url[LIVE_URL_MAX];       /* the image's URL, without "live:" */
	char sum_url[LIVE_URL_MAX];   /* URL.sha256: beside the image, before any ?query */
	/* Both as messages and the timeline show them: a ?query (a signed
	 * URL's token) is left out, "?..." in its place. */
	char shown[LIVE_URL_MAX];
	char sum_shown[LIVE_URL_MAX];
	char name[128];               /* the image's file name: root.squashfs */
	bool https;
};

/* root= starts with live: (dracut's word for a live image). */
bool live_url_is_live(const char *root);
/* Read root=live:URL into out. Returns 0, or -EINVAL when the URL is not
 * http:// or https://, has no host, no file name, a fragment, a space or a
 * control character, or is too long; -EPROTONOSUPPORT for another scheme. */
int live_url_parse(const char *root, struct live_url *out);

#endif
