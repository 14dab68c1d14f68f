/* tang: a Tang server's two requests over the image's HTTP client
 * (bootlib/http.c): GET URL/adv and POST URL/rec/KID (the blinded key of
 * the McCallum-Relyea exchange, clevis/mr.c). Tang's protocol has no TLS
 * of its own: what travels is a blinded key, so plain HTTP is what
 * clevis's tang pin binds and what this takes. */
#ifndef LIFEBOAT_CLEVIS_TANG_H
#define LIFEBOAT_CLEVIS_TANG_H

#include <stddef.h>

#include "bootlib/http.h"

/* A URL, as a binding may hold one, and what is appended to it. */
#define TANG_URL_MAX 1024

/* A Tang server, as mr_recover's exchanger. */
struct tang_server {
	const char *url;             /* the binding's: http://HOST[:PORT][/PATH], or without http:// */
	int timeout_ms;              /* the whole exchange's */
	int status;                  /* the last answer's HTTP status; 0 when none came */
	char why[HTTP_WHY_MAX + 64]; /* what failed, once it did */
};

/* The URL of path ("/adv", "/rec/KID") on the server at base: http://
 * added when base has no scheme, its trailing '/' dropped. Returns 0, or
 * -EINVAL when base is another scheme's, or has a blank or control
 * character in it; -ENAMETOOLONG when out is too small. */
int tang_url(const char *base, const char *path, char *out, size_t size);

/* mr_exchange_fn: POST request (a JWK) to the server's /rec/KID; the JWK
 * it answered into reply. Returns 0 or -errno, ctx's why saying what
 * failed (the server named by the caller). */
int tang_exchange(const char *kid, const char *request, char *reply, size_t size, void *ctx);

/* GET the server's advertisement (a JWS) into adv. Returns 0 or -errno,
 * s->why saying what failed. */
int tang_adv(struct tang_server *s, char *adv, size_t size);

#endif
