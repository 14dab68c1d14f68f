/* nbft: parse the firmware's NVMe Boot Firmware Table (net/nvmf/nbft.h). */
#include "net/nvmf/nbft.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Byte offsets of the specification's figures. */
#define HEADER_LEN 64          /* the ACPI header's 36, then the NBFT's own */
#define H_LENGTH 4
#define H_MAJOR 8
#define H_HEAP_OFFSET 36
#define H_HEAP_LENGTH 40
#define CONTROL_USED 48        /* through the discovery list's count */
#define C_FLAGS 6
#define C_HDESC 8              /* offset (4) and length (2), as a heap reference */
#define C_HFIO 16
#define C_HFIL 20
#define C_NUM_HFI 23
#define C_SSNSO 24
#define C_SSNSL 28
#define C_NUM_SSNS 31
#define HOST_USED 24           /* id, flags, host ID, host NQN reference */
#define HFI_USED 22            /* through the transport info reference */
#define HFI_TRINFO 16
#define TCP_USED 53            /* through the gateway */
#define SSNS_USED 60           /* through the subsystem NQN reference */
#define ID_CONTROL 1
#define ID_HOST 2
#define ID_HFI 3
#define ID_SSNS 4
#define ID_HFI_TRINFO 7
#define VALID 0x01
#define TCP_DHCP 0x04          /* HFI transport flags: the address came from DHCP */
#define SSNS_SECURITY 0x04     /* SSNS flags: a security profile is named */

/* The table with its checked length; every read goes through it. */
struct tbl {
	const uint8_t *p;
	uint64_t len;
	uint64_t heap, heap_len;
};

static bool span_ok(const struct tbl *b, uint64_t off, uint64_t n)
{
	return off <= b->len && n <= b->len - off;
}

static uint16_t le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* A heap object reference at ref (offset 4, length 2): its bytes, wholly
 * inside the heap, or NULL (*n 0 when the reference is empty). */
static const uint8_t *heap_obj(const struct tbl *b, const uint8_t *ref, size_t *n)
{
	uint64_t off = le32(ref), len = le16(ref + 4);

	*n = 0;
	if (len == 0 || off < b->heap || off - b->heap > b->heap_len ||
	    len > b->heap_len - (off - b->heap))
		return NULL;
	*n = (size_t)len;
	return b->p + off;
}

/* A heap string (up to its first NUL, or its length) into out: printable,
 * without the separators of the kernel's option string. false when
 * absent, too long or not so. */
static bool heap_string(const struct tbl *b, const uint8_t *ref, char *out, size_t size)
{
	size_t n, i;
	const uint8_t *s = heap_obj(b, ref, &n);

	out[0] = '\0';
	if (!s)
		return false;
	for (i = 0; i < n && s[i]; i++)
		if (s[i] <= ' ' || s[i] >= 0x7f || s[i] == ',' || s[i] == '=')
			return false;
	if (i == 0 || i >= size)
		return false;
	memcpy(out, s, i);
	out[i] = '\0';
	return true;
}

/* A 16-byte address (IPv4 mapped into IPv6) as text; all zero is "". */
static void addr_text(const uint8_t a[16], char *out, bool *v6)
{
	static const uint8_t mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };
	static const uint8_t zero[16];

	out[0] = '\0';
	*v6 = false;
	if (memcmp(a, zero, 16) == 0)
		return;
	if (memcmp(a, mapped, 12) == 0) {
		inet_ntop(AF_INET, a + 12, out, NVMF_NBFT_ADDR_MAX);
		return;
	}
	*v6 = true;
	inet_ntop(AF_INET6, a, out, NVMF_NBFT_ADDR_MAX);
}

static void uuid_text(const uint8_t id[16], char out[37])
{
	static const uint8_t zero[16];
	char *o = out;

	out[0] = '\0';
	if (memcmp(id, zero, 16) == 0)
		return;
	for (int i = 0; i < 16; i++) {
		o += sprintf(o, "%02x", id[i]);
		if (i == 3 || i == 5 || i == 7 || i == 9)
			*o++ = '-';
	}
}

static int fail(char *why, size_t n, const char *text)
{
	snprintf(why, n, "%s", text);
	return -EINVAL;
}

/* The header: signature, length, revision, checksum, the heap inside. */
static int header_check(struct tbl *b, char *why, size_t n)
{
	uint8_t sum = 0;

	if (b->len < HEADER_LEN + CONTROL_USED || memcmp(b->p, "NBFT", 4) != 0)
		return fail(why, n, "not an NBFT table (signature or size)");
	if (le32(b->p + H_LENGTH) > b->len || le32(b->p + H_LENGTH) < HEADER_LEN + CONTROL_USED)
		return fail(why, n, "its length field is beyond the file or too short");
	b->len = le32(b->p + H_LENGTH);
	for (uint64_t i = 0; i < b->len; i++)
		sum = (uint8_t)(sum + b->p[i]);
	if (sum != 0)
		return fail(why, n, "its checksum is wrong");
	if (b->p[H_MAJOR] != 1)
		return fail(why, n, "its major revision is not 1 (NVMe Boot Specification 1.x)");
	b->heap = le32(b->p + H_HEAP_OFFSET);
	b->heap_len = le32(b->p + H_HEAP_LENGTH);
	if (!span_ok(b, b->heap, b->heap_len))
		return fail(why, n, "its heap lies outside the table");
	return 0;
}

static int host_read(const struct tbl *b, const uint8_t *ctl, struct nvmf_nbft *t, char *why,
		     size_t n)
{
	uint64_t off = le32(ctl + C_HDESC);
	const uint8_t *h;

	if (off == 0)
		return 0;
	if (!span_ok(b, off, HOST_USED))
		return fail(why, n, "its host descriptor lies outside the table");
	h = b->p + off;
	if (h[0] != ID_HOST || !(h[1] & VALID))
		return 0;
	uuid_text(h + 2, t->host_id);
	/* A host NQN the kernel could not take is as good as none. */
	heap_string(b, h + 18, t->host_nqn, sizeof(t->host_nqn));
	return 0;
}

/* The list at control's offset field: count descriptors of step bytes,
 * each needing used bytes. NULL when it does not fit in the table. */
static const uint8_t *list_at(const struct tbl *b, const uint8_t *ctl, int off_field,
			      int len_field, unsigned int count, size_t used, size_t *step)
{
	uint64_t off = le32(ctl + off_field);

	*step = le16(ctl + len_field);
	if (count == 0)
		return b->p;
	if (*step < used || !span_ok(b, off, (uint64_t)*step * count))
		return NULL;
	return b->p + off;
}

static bool tcp_info_read(const struct tbl *b, const uint8_t *d, struct nvmf_nbft_hfi *h)
{
	size_t n;
	const uint8_t *ti = heap_obj(b, d + HFI_TRINFO, &n);
	bool v6;

	if (!ti || n < TCP_USED || ti[0] != ID_HFI_TRINFO || ti[2] != NVMF_NBFT_TRTYPE_TCP ||
	    !(ti[6] & VALID))
		return false;
	h->dhcp = ti[6] & TCP_DHCP;
	memcpy(h->mac, ti + 11, 6);
	h->vlan = le16(ti + 17) & 0x0fff;
	addr_text(ti + 20, h->addr, &h->ipv6);
	h->prefix = ti[36];
	addr_text(ti + 37, h->gateway, &v6);
	/* A static address needs its prefix, in its family's range, and a
	 * gateway of its family. */
	if (!h->dhcp && (!h->addr[0] || h->prefix == 0 || h->prefix > (h->ipv6 ? 128 : 32)))
		return false;
	if (h->gateway[0] && h->addr[0] && v6 != h->ipv6)
		return false;
	return true;
}

static void hfis_read(const struct tbl *b, const uint8_t *ctl, struct nvmf_nbft *t)
{
	unsigned int count = ctl[C_NUM_HFI];
	size_t step;
	const uint8_t *list = list_at(b, ctl, C_HFIO, C_HFIL, count, HFI_USED, &step);

	if (!list) {
		t->dropped += count;
		return;
	}
	for (unsigned int i = 0; i < count; i++) {
		const uint8_t *d = list + (size_t)i * step;
		struct nvmf_nbft_hfi *h = &t->hfi[t->n_hfi];

		if (d[0] != ID_HFI || !(d[2] & VALID))
			continue;
		if (t->n_hfi == NVMF_NBFT_HFI_MAX) {
			t->dropped++;
			continue;
		}
		memset(h, 0, sizeof(*h));
		h->index = d[1];
		h->trtype = d[3];
		if (h->trtype == NVMF_NBFT_TRTYPE_TCP && !tcp_info_read(b, d, h)) {
			t->dropped++;
			continue;
		}
		t->n_hfi++;
	}
}

/* The subsystem's address: 16 bytes (libnvme's reading of the spec), or
 * the address as text (some firmware's). */
static bool traddr_read(const struct tbl *b, const uint8_t *ref, char *out)
{
	size_t n;
	const uint8_t *a = heap_obj(b, ref, &n);
	unsigned char bin[16];
	bool v6;

	if (a && n == 16) {
		addr_text(a, out, &v6);
		return out[0] != '\0';
	}
	return heap_string(b, ref, out, NVMF_NBFT_ADDR_MAX) &&
	       (inet_pton(AF_INET, out, bin) == 1 || inet_pton(AF_INET6, out, bin) == 1);
}

static bool ssns_read(const struct tbl *b, const uint8_t *d, struct nvmf_nbft_ssns *s)
{
	memset(s, 0, sizeof(*s));
	s->index = le16(d + 1);
	s->secured = le16(d + 3) & SSNS_SECURITY;
	s->trtype = d[5];
	s->nsid = le32(d + 24);
	s->hfi = d[46];
	if (!traddr_read(b, d + 10, s->traddr) || !heap_string(b, d + 54, s->nqn, sizeof(s->nqn)))
		return false;
	if (!heap_string(b, d + 16, s->trsvcid, sizeof(s->trsvcid)))
		snprintf(s->trsvcid, sizeof(s->trsvcid), "4420");
	return strspn(s->trsvcid, "0123456789") == strlen(s->trsvcid);
}

static void ssnss_read(const struct tbl *b, const uint8_t *ctl, struct nvmf_nbft *t)
{
	unsigned int count = ctl[C_NUM_SSNS];
	size_t step;
	const uint8_t *list = list_at(b, ctl, C_SSNSO, C_SSNSL, count, SSNS_USED, &step);

	if (!list) {
		t->dropped += count;
		return;
	}
	for (unsigned int i = 0; i < count; i++) {
		const uint8_t *d = list + (size_t)i * step;

		if (d[0] != ID_SSNS || !(le16(d + 3) & VALID))
			continue;
		if (t->n_ssns == NVMF_NBFT_SSNS_MAX || !ssns_read(b, d, &t->ssns[t->n_ssns]))
			t->dropped++;
		else
			t->n_ssns++;
	}
}

int nvmf_nbft_parse(const uint8_t *table, size_t len, struct nvmf_nbft *t, char *why, size_t n)
{
	struct tbl b = { table, len, 0, 0 };
	const uint8_t *ctl = table + HEADER_LEN;
	int r;

	memset(t, 0, sizeof(*t));
	r = header_check(&b, why, n);
	if (r < 0)
		return r;
	if (ctl[0] != ID_CONTROL || !(ctl[C_FLAGS] & VALID)) {
		snprintf(why, n, "its control descriptor is not valid: the firmware connected nothing");
		return -ENOENT;
	}
	r = host_read(&b, ctl, t, why, n);
	if (r < 0)
		return r;
	hfis_read(&b, ctl, t);
	ssnss_read(&b, ctl, t);
	return 0;
}

/* The whole file (a sysfs file's size says nothing: read to its end). */
static int file_slurp(const char *path, uint8_t **buf, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t cap = 4096;

	*len = 0;
	*buf = NULL;
	if (fd < 0)
		return -errno;
	*buf = malloc(cap);
	while (*buf) {
		if (*len == cap) {
			uint8_t *more = cap < NVMF_NBFT_SIZE_MAX ? realloc(*buf, cap * 2) : NULL;

			if (!more)
				break;
			*buf = more;
			cap *= 2;
		}
		ssize_t got = read(fd, *buf + *len, cap - *len);

		if (got <= 0) {
			close(fd);
			return got < 0 ? -errno : 0;
		}
		*len += (size_t)got;
	}
	close(fd);
	return *buf ? -EFBIG : -ENOMEM;
}

int nvmf_nbft_load(const char *path, struct nvmf_nbft *t, char *why, size_t n)
{
	uint8_t *buf;
	size_t len;
	int r = file_slurp(path, &buf, &len);

	memset(t, 0, sizeof(*t));
	if (r == 0)
		r = nvmf_nbft_parse(buf, len, t, why, n);
	else
		snprintf(why, n, "reading it failed: %s", strerror(-r));
	free(buf);
	return r;
}

const struct nvmf_nbft_hfi *nvmf_nbft_hfi_find(const struct nvmf_nbft *t, uint8_t index)
{
	for (size_t i = 0; i < t->n_hfi; i++)
		if (t->hfi[i].index == index)
			return &t->hfi[i];
	return NULL;
}

/* NBFT is table 0, NBFTk table k; anything else is no table. */
static int table_number(const char *name)
{
	char *end;
	long k;

	if (strncmp(name, "NBFT", 4) != 0)
		return -1;
	if (!name[4])
		return 0;
	if (name[4] < '1' || name[4] > '9')
		return -1;
	k = strtol(name + 4, &end, 10);
	return *end || k > 99 ? -1 : (int)k;
}

size_t nvmf_nbft_find(const char *dir, char paths[][256], size_t n)
{
	bool seen[100] = { false };
	struct dirent *e;
	DIR *d = opendir(dir);
	size_t found = 0;

	if (!d)
		return 0;
	while ((e = readdir(d)) != NULL) {
		int k = table_number(e->d_name);

		if (k >= 0)
			seen[k] = true;
	}
	closedir(d);
	for (int k = 0; k < 100 && found < n; k++)
		if (seen[k])
			snprintf(paths[found++], 256, k ? "%s/NBFT%d" : "%s/NBFT", dir, k);
	return found;
}
