/* token: LUKS2 header copies and their clevis tokens. */
#include "clevis/token.h"

#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <openssl/evp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The binary header's fields (cryptsetup's docs/on-disk-format-luks2). */
#define LUKS2_BIN_SIZE 4096
#define LUKS2_OFF_VERSION 6
#define LUKS2_OFF_HDR_SIZE 8
#define LUKS2_OFF_CSUM_ALG 72
#define LUKS2_OFF_CSUM 448
#define LUKS2_CSUM_LEN 64
static const unsigned char magic1[6] = { 'L', 'U', 'K', 'S', 0xba, 0xbe };
static const unsigned char magic2[6] = { 'S', 'K', 'U', 'L', 0xba, 0xbe };

static uint64_t be64(const unsigned char *p)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

/* hdr_size of a header copy: the binary part and the JSON area. */
static size_t header_size(const unsigned char *bin, const unsigned char *magic)
{
	uint64_t size = be64(bin + LUKS2_OFF_HDR_SIZE);

	if (memcmp(bin, magic, sizeof(magic1)) != 0 || bin[LUKS2_OFF_VERSION] != 0 ||
	    bin[LUKS2_OFF_VERSION + 1] != 2 || size <= LUKS2_BIN_SIZE || size > TOKEN_HEADER_MAX ||
	    size % 4096)
		return 0;
	return (size_t)size;
}

int token_header_check(unsigned char *buf, size_t len, const char **json, size_t *json_len)
{
	unsigned char saved[LUKS2_CSUM_LEN], md[EVP_MAX_MD_SIZE];
	unsigned int md_len = 0;
	size_t size;
	int ok;

	if (len < LUKS2_BIN_SIZE)
		return -EINVAL;
	size = header_size(buf, magic1) ? header_size(buf, magic1) : header_size(buf, magic2);
	if (!size || size != len || strncmp((const char *)buf + LUKS2_OFF_CSUM_ALG, "sha256", 32) != 0)
		return -EINVAL;
	/* The checksum is over the whole copy with its own field zeroed. */
	memcpy(saved, buf + LUKS2_OFF_CSUM, sizeof(saved));
	memset(buf + LUKS2_OFF_CSUM, 0, sizeof(saved));
	ok = EVP_Digest(buf, len, md, &md_len, EVP_sha256(), NULL) && md_len == 32 &&
	     memcmp(md, saved, md_len) == 0;
	memcpy(buf + LUKS2_OFF_CSUM, saved, sizeof(saved));
	if (!ok)
		return -EINVAL;
	*json = (const char *)buf + LUKS2_BIN_SIZE;
	*json_len = strnlen(*json, len - LUKS2_BIN_SIZE);
	return 0;
}

/* Read the header copy at offset into a new buffer. */
static int read_copy(int fd, off_t offset, unsigned char **buf, size_t *len)
{
	unsigned char bin[LUKS2_BIN_SIZE];
	size_t size;

	if (pread(fd, bin, sizeof(bin), offset) != (ssize_t)sizeof(bin))
		return -EINVAL;
	size = header_size(bin, offset ? magic2 : magic1);
	if (!size)
		return -EINVAL;
	*buf = malloc(size + 1);
	if (!*buf)
		return -ENOMEM;
	if (pread(fd, *buf, size, offset) != (ssize_t)size) {
		free(*buf);
		return -EIO;
	}
	(*buf)[size] = '\0';
	*len = size;
	return 0;
}

/* The secondary copy sits right after the primary, whose size tells where. */
static off_t secondary_offset(int fd)
{
	unsigned char bin[LUKS2_BIN_SIZE];

	if (pread(fd, bin, sizeof(bin), 0) != (ssize_t)sizeof(bin))
		return 0;
	return (off_t)be64(bin + LUKS2_OFF_HDR_SIZE);
}

int token_read_json(const char *path, char **json, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	off_t offsets[2] = { 0, 0 };
	int r = -EINVAL;

	if (fd < 0)
		return -errno;
	offsets[1] = secondary_offset(fd);
	for (size_t i = 0; i < 2 && r < 0; i++) {
		unsigned char *buf;
		size_t size;
		const char *text;

		if (i == 1 && (offsets[1] <= 0 || offsets[1] > (off_t)TOKEN_HEADER_MAX))
			break;
		if (read_copy(fd, offsets[i], &buf, &size) < 0)
			continue;
		r = token_header_check(buf, size, &text, len);
		if (r == 0) {
			memmove(buf, text, *len);
			buf[*len] = '\0';
			*json = (char *)buf;
		} else {
			free(buf);
		}
	}
	close(fd);
	return r;
}

static int token_visit(const char *key, struct json_object *tok,
		       int (*fn)(int id, const struct clevis_jwe *jwe, void *ctx), void *ctx)
{
	struct json_object *type, *jwe_obj;
	struct clevis_jwe jwe;
	char *end;
	long id = strtol(key, &end, 10);
	int r;

	if (*end || id < 0 || id > 31 || !json_object_object_get_ex(tok, "type", &type) ||
	    !json_object_is_type(type, json_type_string) ||
	    strcmp(json_object_get_string(type), "clevis") != 0 ||
	    !json_object_object_get_ex(tok, "jwe", &jwe_obj) ||
	    jwe_parse_object(jwe_obj, &jwe) < 0)
		return 0;
	r = fn((int)id, &jwe, ctx);
	jwe_free(&jwe);
	return r;
}

int token_foreach_clevis(const char *json, size_t len,
			 int (*fn)(int id, const struct clevis_jwe *jwe, void *ctx), void *ctx)
{
	struct json_tokener *tok = json_tokener_new();
	struct json_object *root = NULL, *tokens;
	int r = -EINVAL;

	if (!tok)
		return -ENOMEM;
	if (len <= TOKEN_HEADER_MAX)
		root = json_tokener_parse_ex(tok, json, (int)len);
	json_tokener_free(tok);
	if (json_object_is_type(root, json_type_object) &&
	    json_object_object_get_ex(root, "tokens", &tokens) &&
	    json_object_is_type(tokens, json_type_object)) {
		r = 0;
		json_object_object_foreach(tokens, key, val) {
			r = token_visit(key, val, fn, ctx);
			if (r != 0)
				break;
		}
	}
	if (root)
		json_object_put(root);
	return r;
}
