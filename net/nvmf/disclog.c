/* disclog: read and parse an NVMe over Fabrics discovery log page. */
#include "net/nvmf/disclog.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include <linux/nvme_ioctl.h>

/* Offsets of the header and of an entry (NVMe over Fabrics 1.1, figure 38-39). */
#define HDR_GENCTR 0
#define HDR_NUMREC 8
#define ENT_TRTYPE 0
#define ENT_ADRFAM 1
#define ENT_SUBTYPE 2
#define ENT_PORTID 4
#define ENT_CNTLID 6
#define ENT_TRSVCID 32
#define ENT_SUBNQN 256
#define ENT_TRADDR 512

#define OPC_GET_LOG_PAGE 0x02
#define LID_DISCOVERY 0x70
/* libnvme reads a log page in transfers of this size; a discovery
 * controller's MDTS may be small. */
#define XFER_MAX 4096
/* Re-reads of a page whose generation counter moved. */
#define READ_TRIES 10

static uint64_t le64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static uint16_t le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

int nvmf_disclog_header(const uint8_t *page, size_t len, uint64_t *genctr, uint64_t *numrec)
{
	if (len < NVMF_DISCLOG_RECORD)
		return -EINVAL;
	*genctr = le64(page + HDR_GENCTR);
	*numrec = le64(page + HDR_NUMREC);
	return 0;
}

/* A field of size bytes, padded with spaces or NULs (the spec says spaces,
 * Linux's target sends NULs): the text before the padding into out. */
static bool string_take(const uint8_t *field, size_t size, char *out)
{
	size_t n = size;
	bool ok = true;

	while (n > 0 && (field[n - 1] == ' ' || field[n - 1] == '\0'))
		n--;
	for (size_t i = 0; i < n; i++) {
		uint8_t c = field[i];

		ok &= c > ' ' && c < 0x7f && c != ',' && c != '=';
		out[i] = ok ? (char)c : '?';
	}
	out[n] = '\0';
	return ok && n > 0;
}

int nvmf_disclog_entry(const uint8_t *page, size_t len, uint64_t i, struct nvmf_disclog_entry *e)
{
	/* Whole records in page, the header's included. */
	size_t records = len / NVMF_DISCLOG_RECORD;
	const uint8_t *p;
	bool ok;

	if (records == 0 || i >= records - 1)
		return -ERANGE;
	p = page + NVMF_DISCLOG_RECORD * (i + 1);
	memset(e, 0, sizeof(*e));
	e->trtype = p[ENT_TRTYPE];
	e->adrfam = p[ENT_ADRFAM];
	e->subtype = p[ENT_SUBTYPE];
	e->portid = le16(p + ENT_PORTID);
	e->cntlid = le16(p + ENT_CNTLID);
	ok = string_take(p + ENT_TRSVCID, sizeof(e->trsvcid) - 1, e->trsvcid);
	ok &= string_take(p + ENT_TRADDR, sizeof(e->traddr) - 1, e->traddr);
	ok &= string_take(p + ENT_SUBNQN, sizeof(e->subnqn) - 1, e->subnqn);
	e->strings_ok = ok;
	return 0;
}

bool nvmf_disclog_usable(const struct nvmf_disclog_entry *e)
{
	return e->trtype == NVMF_DISCLOG_TRTYPE_TCP && e->subtype == NVMF_DISCLOG_SUBTYPE_NVME &&
	       (e->adrfam == NVMF_DISCLOG_ADRFAM_IPV4 || e->adrfam == NVMF_DISCLOG_ADRFAM_IPV6) &&
	       e->strings_ok;
}

/* len bytes of the page from offset off, in transfers the controller takes. */
static int log_get(int fd, uint8_t *buf, size_t len, uint64_t off)
{
	while (len > 0) {
		uint32_t n = len > XFER_MAX ? XFER_MAX : (uint32_t)len;
		uint32_t numd = n / 4 - 1;
		struct nvme_admin_cmd cmd = {
			.opcode = OPC_GET_LOG_PAGE,
			.addr = (uint64_t)(uintptr_t)buf,
			.data_len = n,
			.cdw10 = LID_DISCOVERY | (numd & 0xffff) << 16,
			.cdw11 = numd >> 16,
			.cdw12 = (uint32_t)off,
			.cdw13 = (uint32_t)(off >> 32),
		};
		int r = ioctl(fd, NVME_IOCTL_ADMIN_CMD, &cmd);

		/* A positive answer is an NVMe status, not an errno. */
		if (r != 0)
			return r < 0 ? -errno : -EIO;
		buf += n;
		off += n;
		len -= n;
	}
	return 0;
}

/* One reading: the header, then the page with as many records as it says. */
static int read_once(int fd, uint8_t **page, size_t *len, uint64_t *genctr)
{
	uint8_t hdr[NVMF_DISCLOG_RECORD];
	uint64_t numrec;
	uint8_t *buf;
	int r = log_get(fd, hdr, sizeof(hdr), 0);

	if (r < 0)
		return r;
	nvmf_disclog_header(hdr, sizeof(hdr), genctr, &numrec);
	if (numrec > NVMF_DISCLOG_RECORDS_MAX)
		numrec = NVMF_DISCLOG_RECORDS_MAX;
	*len = NVMF_DISCLOG_RECORD * (size_t)(numrec + 1);
	buf = malloc(*len);
	if (!buf)
		return -ENOMEM;
	r = log_get(fd, buf, *len, 0);
	if (r < 0) {
		free(buf);
		return r;
	}
	*page = buf;
	return 0;
}

int nvmf_disclog_read(int fd, uint8_t **page, size_t *len)
{
	uint8_t hdr[NVMF_DISCLOG_RECORD];
	uint64_t genctr, again, numrec;

	for (int i = 0; i < READ_TRIES; i++) {
		int r = read_once(fd, page, len, &genctr);

		if (r < 0)
			return r;
		/* The page is whole when its header still has the counter it had
		 * before (nvme-cli reads it the same way). */
		r = log_get(fd, hdr, sizeof(hdr), 0);
		if (r == 0)
			nvmf_disclog_header(hdr, sizeof(hdr), &again, &numrec);
		if (r == 0 && again == genctr && le64(*page) == genctr)
			return 0;
		free(*page);
		*page = NULL;
		if (r < 0)
			return r;
	}
	return -EAGAIN;
}
