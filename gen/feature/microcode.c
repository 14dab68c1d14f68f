/* microcode: collect x86 early microcode into the uncompressed first archive. */
#include "gen/feature/microcode.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/strv.h"
#include "gen/feature/feature.h"
#include "gen/gen_report.h"

#define FW_DIRS_DEFAULT "/lib/firmware/updates:/lib/firmware"

/* Per vendor: where the distributions install its files, which of them
 * belong in the blob, and the name the kernel's early loader looks for. */
struct ucode_vendor {
	const char *vendor;
	const char *subdir;
	const char *suffix;      /* only files ending so ("" for all) */
	const char *blob;
};

static const struct ucode_vendor vendors[] = {
	{ "GenuineIntel", "intel-ucode", "",     "kernel/x86/microcode/GenuineIntel.bin" },
	{ "AuthenticAMD", "amd-ucode",   ".bin", "kernel/x86/microcode/AuthenticAMD.bin" },
};

#define N_VENDORS (sizeof(vendors) / sizeof(vendors[0]))

/* "key\t: value" -> value, for the first line starting with key. */
static const char *cpuinfo_value(const char *text, size_t len, const char *key, size_t *vlen)
{
	const char *end = text + len;
	size_t klen = strlen(key);

	for (const char *line = text; line < end;) {
		const char *nl = memchr(line, '\n', (size_t)(end - line));
		const char *stop = nl ? nl : end;
		const char *p = line + klen;

		if ((size_t)(stop - line) > klen && strncmp(line, key, klen) == 0 &&
		    (*p == ' ' || *p == '\t' || *p == ':')) {
			while (p < stop && (*p == ' ' || *p == '\t'))
				p++;
			if (p < stop && *p == ':') {
				for (p++; p < stop && *p == ' '; p++)
					;
				*vlen = (size_t)(stop - p);
				return p;
			}
		}
		if (!nl)
			break;
		line = nl + 1;
		if (line < end && *line == '\n')
			break;      /* a blank line ends the first processor */
	}
	return NULL;
}

static int cpuinfo_number(const char *text, size_t len, const char *key, unsigned int *out)
{
	size_t vlen = 0;
	const char *v = cpuinfo_value(text, len, key, &vlen);
	unsigned long n = 0;

	if (!v)
		return -ENOENT;
	if (vlen == 0 || vlen > 9)
		return -EINVAL;
	for (size_t i = 0; i < vlen; i++) {
		if (v[i] < '0' || v[i] > '9')
			return -EINVAL;
		n = n * 10 + (unsigned long)(v[i] - '0');
	}
	*out = (unsigned int)n;
	return 0;
}

int microcode_cpuinfo_parse(const char *text, size_t len, struct cpu_id *cpu)
{
	size_t vlen = 0;
	const char *vendor = cpuinfo_value(text, len, "vendor_id", &vlen);
	int r;

	if (!vendor)
		return -ENOENT;
	if (vlen == 0 || vlen >= sizeof(cpu->vendor))
		return -EINVAL;
	memcpy(cpu->vendor, vendor, vlen);
	cpu->vendor[vlen] = '\0';
	r = cpuinfo_number(text, len, "cpu family", &cpu->family);
	if (r == 0)
		r = cpuinfo_number(text, len, "model", &cpu->model);
	if (r == 0)
		r = cpuinfo_number(text, len, "stepping", &cpu->stepping);
	return r;
}

int microcode_host_name(const struct cpu_id *cpu, char *out, size_t size)
{
	int n;

	if (strcmp(cpu->vendor, "GenuineIntel") == 0)
		n = snprintf(out, size, "intel-ucode/%02x-%02x-%02x", cpu->family, cpu->model, cpu->stepping);
	else if (strcmp(cpu->vendor, "AuthenticAMD") == 0 && cpu->family >= 0x15)
		n = snprintf(out, size, "amd-ucode/microcode_amd_fam%02xh.bin", cpu->family);
	else if (strcmp(cpu->vendor, "AuthenticAMD") == 0)
		n = snprintf(out, size, "amd-ucode/microcode_amd.bin");
	else
		return -ENOTSUP;
	return n > 0 && (size_t)n < size ? 0 : -ENAMETOOLONG;
}

/* Append the whole file to buf; -errno on a read error. */
static int file_append(const char *path, char **buf, size_t *len)
{
	FILE *f = fopen(path, "rbe");
	char chunk[65536];
	size_t n;
	int r = 0;

	if (!f)
		return -errno;
	while (r == 0 && (n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
		char *grown = realloc(*buf, *len + n);

		if (!grown) {
			r = -ENOMEM;
			break;
		}
		memcpy(grown + *len, chunk, n);
		*buf = grown;
		*len += n;
	}
	if (r == 0 && ferror(f))
		r = -EIO;
	fclose(f);
	return r;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every regular file of dir ending in suffix, sorted: the same blob from
 * the same files whatever readdir's order. */
static int dir_files(const char *dir, const char *suffix, struct strv *out)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	size_t slen = strlen(suffix);
	int r = 0;

	if (!d)
		return -errno;
	while (r == 0 && (de = readdir(d))) {
		size_t nlen = strlen(de->d_name);
		char *path;
		struct stat st;

		if (de->d_name[0] == '.' || nlen < slen || strcmp(de->d_name + nlen - slen, suffix) != 0)
			continue;
		if (asprintf(&path, "%s/%s", dir, de->d_name) < 0) {
			r = -ENOMEM;
			break;
		}
		if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
			r = strv_push(out, path);
		free(path);
	}
	closedir(d);
	if (r == 0 && out->len > 1)
		qsort(out->items, out->len, sizeof(out->items[0]), name_cmp);
	return r;
}

/* The files of one vendor in the first firmware directory that has its
 * subdirectory: all of them, or the one named by host (may be absent). */
static int vendor_files(const struct ucode_vendor *v, const char *fwdirs, const char *host,
			struct strv *out)
{
	char *dirs = strdup(fwdirs), *save = NULL;
	int r = -ENOENT;

	if (!dirs)
		return -ENOMEM;
	for (char *dir = strtok_r(dirs, ":", &save); dir && r == -ENOENT; dir = strtok_r(NULL, ":", &save)) {
		char path[4096];
		struct stat st;

		snprintf(path, sizeof(path), "%s/%s", dir, host ? host : v->subdir);
		if (host && stat(path, &st) == 0 && S_ISREG(st.st_mode))
			r = strv_push(out, path);
		else if (!host && stat(path, &st) == 0 && S_ISDIR(st.st_mode))
			r = dir_files(path, v->suffix, out);
	}
	free(dirs);
	return r == -ENOENT ? 0 : r;
}

static int vendor_add(struct image *early, const struct ucode_vendor *v, const char *fwdirs,
		      const char *host, size_t *added)
{
	struct strv files = STRV_INIT;
	char *blob = NULL;
	size_t len = 0;
	int r = vendor_files(v, fwdirs, host, &files);

	for (size_t i = 0; r == 0 && i < files.len; i++) {
		r = file_append(files.items[i], &blob, &len);
		if (r < 0)
			gen_error("cannot read microcode %s: %s", files.items[i], strerror(-r));
		else
			gen_info("microcode %s: %s", files.items[i], host ? "this machine's CPU" : "--microcode all");
	}
	if (r == 0 && len > 0) {
		r = image_add_data(early, v->blob, blob, len, 0644);
		(*added)++;
	}
	free(blob);
	strv_free(&files);
	return r;
}

int microcode_add(struct image *early, const struct cpu_id *cpu, const char *fwdirs, size_t *added)
{
	char host[128];
	int r = 0;

	*added = 0;
	if (!fwdirs)
		fwdirs = FW_DIRS_DEFAULT;
	for (size_t i = 0; r == 0 && i < N_VENDORS; i++) {
		if (cpu && strcmp(cpu->vendor, vendors[i].vendor) != 0)
			continue;
		if (cpu && microcode_host_name(cpu, host, sizeof(host)) < 0)
			continue;
		r = vendor_add(early, &vendors[i], fwdirs, cpu ? host : NULL, added);
	}
	return r;
}

static int cpuinfo_load(const char *path, struct cpu_id *cpu)
{
	char *text = NULL;
	size_t len = 0;
	int r = file_append(path, &text, &len);

	if (r == 0)
		r = microcode_cpuinfo_parse(text ? text : "", len, cpu);
	free(text);
	return r;
}

int microcode_early(enum microcode_mode mode, bool host_only, const char *fwdirs,
		    const char *cpuinfo, struct image **out)
{
	struct cpu_id cpu;
	struct image *early;
	size_t added = 0;
	int r;

	*out = NULL;
	if (mode == MICROCODE_NONE)
		return 0;
	host_only = host_only && mode == MICROCODE_AUTO;
	if (host_only && cpuinfo_load(cpuinfo, &cpu) < 0) {
		gen_info("microcode: no x86 processor identity in %s; none added", cpuinfo);
		return 0;
	}
	early = image_new();
	if (!early)
		return -ENOMEM;
	r = microcode_add(early, host_only ? &cpu : NULL, fwdirs, &added);
	if (r == 0 && added == 0)
		gen_info("microcode: none found for %s in %s", host_only ? cpu.vendor : "any processor",
			 fwdirs ? fwdirs : FW_DIRS_DEFAULT);
	if (r < 0 || added == 0) {
		image_free(early);
		return r;
	}
	*out = early;
	return 0;
}

static bool microcode_wanted(const struct build_ctx *c)
{
	return c->opts->microcode != MICROCODE_NONE;
}

/* Host-only images in auto mode take this CPU's, read from /proc/cpuinfo. */
static int microcode_add_files(struct build_ctx *c)
{
	return microcode_early(c->opts->microcode, c->host != NULL, c->opts->firmware_dirs,
			       "/proc/cpuinfo", &c->early);
}

const struct feature microcode_feature = {
	.name = "microcode",
	.wanted = microcode_wanted,
	.add_files = microcode_add_files,
};
