/* live_hash: SHA-256 by libcrypto's EVP interface, opened at run time. */
#include "net/live/live_hash.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <openssl/sha.h>

#include "bootlib/dlsyms.h"

_Static_assert(SHA256_LEN == SHA256_DIGEST_LENGTH, "a live image's hash is SHA-256's digest");

#define S(name, field) DLSYMS_ENTRY(struct live_hash_fn, name, field)
static const struct dlsyms_entry crypto_symbols[] = {
	S("EVP_MD_CTX_new", ctx_new),
	S("EVP_MD_CTX_free", ctx_free),
	S("EVP_sha256", sha256),
	S("EVP_DigestInit_ex", init),
	S("EVP_DigestUpdate", update),
	S("EVP_DigestFinal_ex", final),
};
#undef S

int live_hash_start(struct live_hash *h, const char *soname, char *why, size_t why_size)
{
	struct live_hash_fn fn;

	memset(h, 0, sizeof(*h));
	/* Which of the two it was matters to no caller: the image lacks it. */
	if (dlsyms_load(soname, crypto_symbols, sizeof(crypto_symbols) / sizeof(crypto_symbols[0]), &fn,
			sizeof(fn), why, why_size) < 0)
		return -ELIBACC;
	h->fn = fn;
	h->ctx = fn.ctx_new();
	if (!h->ctx) {
		snprintf(why, why_size, "%s: no memory for a digest", soname);
		return -ENOMEM;
	}
	if (fn.init(h->ctx, fn.sha256(), NULL) != 1) {
		snprintf(why, why_size, "%s will not start a SHA-256 digest", soname);
		return -EIO;
	}
	return 0;
}

void live_hash_restart(struct live_hash *h)
{
	/* A context initialised again forgets what it was given. */
	h->failed = h->fn.init(h->ctx, h->fn.sha256(), NULL) != 1;
}

void live_hash_update(struct live_hash *h, const void *data, size_t len)
{
	if (!h->failed && h->fn.update(h->ctx, data, len) != 1)
		h->failed = true;
}

int live_hash_final(struct live_hash *h, uint8_t out[SHA256_LEN])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int len = 0;

	if (h->failed || h->fn.final(h->ctx, md, &len) != 1 || len != SHA256_LEN)
		return -EIO;
	memcpy(out, md, SHA256_LEN);
	return 0;
}

void live_hash_free(struct live_hash *h)
{
	if (h->ctx)
		h->fn.ctx_free(h->ctx);
	h->ctx = NULL;
}
