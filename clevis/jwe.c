/* jwe: parsing Clevis JWEs with json-c (the library cryptsetup already
 * brings into the image). */
#include "clevis/jwe.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/base64.h"

/* Decode the base64url text [text, text + len), at most max characters,
 * into a new buffer. */
static int decode_new(const char *text, size_t len, size_t max, unsigned char **out,
		      size_t *out_len)
{
	unsigned char *buf;
	long n;

	if (len > max)
		return -EINVAL;
	buf = malloc(len ? len : 1);
	if (!buf)
		return -ENOMEM;
	n = base64_decode(BASE64_URL, text, len, buf, len);
	if (n < 0) {
		free(buf);
		return -EINVAL;
	}
	*out = buf;
	*out_len = (size_t)n;
	return 0;
}

static int decode_fixed(const char *text, size_t len, unsigned char *out, size_t size,
			size_t *out_len)
{
	long n = base64_decode(BASE64_URL, text, len, out, size);

	if (n <= 0)
		return -EINVAL;
	*out_len = (size_t)n;
	return 0;
}

/* The protected header: kept as text (the AAD) and decoded as JSON. */
static int header_set(struct clevis_jwe *out, const char *text, size_t len)
{
	unsigned char *json;
	size_t json_len;
	int r = decode_new(text, len, JWE_HEADER_MAX, &json, &json_len);
	struct json_tokener *tok;

	if (r < 0)
		return r;
	out->protected_b64 = strndup(text, len);
	tok = json_tokener_new();
	if (out->protected_b64 && tok)
		out->header = json_tokener_parse_ex(tok, (const char *)json, (int)json_len);
	if (tok)
		json_tokener_free(tok);
	free(json);
	if (!out->protected_b64)
		return -ENOMEM;
	return json_object_is_type(out->header, json_type_object) ? 0 : -EINVAL;
}

/* iv, ciphertext and tag; the encrypted key must be empty (ECDH-ES is a
 * direct key agreement: clevis's tang pin never wraps a key). */
static int parts_set(struct clevis_jwe *out, const char *const part[4], const size_t len[4])
{
	if (len[0] != 0)
		return -EINVAL;
	if (decode_fixed(part[1], len[1], out->iv, sizeof(out->iv), &out->iv_len) < 0 ||
	    decode_fixed(part[3], len[3], out->tag, sizeof(out->tag), &out->tag_len) < 0)
		return -EINVAL;
	return decode_new(part[2], len[2], JWE_PART_MAX * 2, &out->ciphertext, &out->ciphertext_len);
}

int jwe_parse_compact(const char *text, size_t len, struct clevis_jwe *out)
{
	const char *part[5] = { NULL };
	size_t plen[5] = { 0 }, n = 0;
	const char *p = text, *end = text + len;
	int r;

	memset(out, 0, sizeof(*out));
	while (end > text && (end[-1] == '\n' || end[-1] == '\r'))
		end--;
	while (n < 5) {
		const char *dot = memchr(p, '.', (size_t)(end - p));

		part[n] = p;
		plen[n] = (size_t)((dot ? dot : end) - p);
		n++;
		if (!dot)
			break;
		p = dot + 1;
	}
	if (n != 5 || memchr(part[4], '.', plen[4]))
		return -EINVAL;
	r = header_set(out, part[0], plen[0]);
	if (r == 0)
		r = parts_set(out, part + 1, plen + 1);
	if (r < 0)
		jwe_free(out);
	return r;
}

static const char *member_string(struct json_object *o, const char *key, size_t *len)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	*len = (size_t)json_object_get_string_len(v);
	return json_object_get_string(v);
}

int jwe_parse_object(struct json_object *jwe, struct clevis_jwe *out)
{
	static const char *const keys[4] = { "encrypted_key", "iv", "ciphertext", "tag" };
	const char *part[4], *prot;
	size_t plen[4], prot_len;
	int r;

	memset(out, 0, sizeof(*out));
	prot = member_string(jwe, "protected", &prot_len);
	if (!prot)
		return -EINVAL;
	for (size_t i = 0; i < 4; i++) {
		part[i] = member_string(jwe, keys[i], &plen[i]);
		/* A missing encrypted_key is an empty one. */
		if (!part[i] && i == 0) {
			part[i] = "";
			plen[i] = 0;
		}
		if (!part[i])
			return -EINVAL;
	}
	r = header_set(out, prot, prot_len);
	if (r == 0)
		r = parts_set(out, part, plen);
	if (r < 0)
		jwe_free(out);
	return r;
}

int jwe_copy(const struct clevis_jwe *src, struct clevis_jwe *dst)
{
	*dst = *src;
	dst->protected_b64 = strdup(src->protected_b64);
	dst->ciphertext = malloc(src->ciphertext_len ? src->ciphertext_len : 1);
	dst->header = NULL;
	if (!dst->protected_b64 || !dst->ciphertext) {
		jwe_free(dst);
		return -ENOMEM;
	}
	memcpy(dst->ciphertext, src->ciphertext, src->ciphertext_len);
	/* The header is read only: shared, counted. */
	dst->header = json_object_get(src->header);
	return 0;
}

void jwe_free(struct clevis_jwe *jwe)
{
	free(jwe->protected_b64);
	if (jwe->ciphertext)
		explicit_bzero(jwe->ciphertext, jwe->ciphertext_len);
	free(jwe->ciphertext);
	if (jwe->header)
		json_object_put(jwe->header);
	memset(jwe, 0, sizeof(*jwe));
}

static struct json_object *path_get(struct json_object *o, const char *const *keys)
{
	for (; o && *keys; keys++)
		if (!json_object_object_get_ex(o, *keys, &o))
			return NULL;
	return o;
}

static const char *path_string(const struct clevis_jwe *jwe, const char *const *keys)
{
	struct json_object *v = path_get(jwe->header, keys);

	return json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
}

const char *jwe_pin(const struct clevis_jwe *jwe)
{
	static const char *const keys[] = { "clevis", "pin", NULL };

	return path_string(jwe, keys);
}

const char *jwe_tang_url(const struct clevis_jwe *jwe)
{
	static const char *const keys[] = { "clevis", "tang", "url", NULL };

	return path_string(jwe, keys);
}

static const char *first_tang_at(const struct clevis_jwe *jwe, int depth, char *out, size_t size)
{
	static const char *const shares_path[] = { "clevis", "sss", "jwe", NULL };
	const char *pin = jwe_pin(jwe), *url = NULL;
	struct json_object *shares;

	if (pin && strcmp(pin, "tang") == 0 && jwe_tang_url(jwe)) {
		snprintf(out, size, "%s", jwe_tang_url(jwe));
		return out;
	}
	shares = path_get(jwe->header, shares_path);
	if (!pin || strcmp(pin, "sss") != 0 || depth >= JWE_DEPTH_MAX ||
	    !json_object_is_type(shares, json_type_array))
		return NULL;
	for (size_t i = 0; !url && i < json_object_array_length(shares); i++) {
		const char *text = json_object_get_string(json_object_array_get_idx(shares, i));
		struct clevis_jwe child;

		if (!text || jwe_parse_compact(text, strlen(text), &child) < 0)
			continue;
		url = first_tang_at(&child, depth + 1, out, size);
		jwe_free(&child);
	}
	return url;
}

const char *jwe_first_tang_url(const struct clevis_jwe *jwe, char *out, size_t size)
{
	return first_tang_at(jwe, 0, out, size);
}
