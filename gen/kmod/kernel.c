/* kernel: which kernel an image is for, and where its modules are. */
#include "gen/kmod/kernel.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "gen/gen_report.h"

/* Places a versioned modules directory may sit, relative to a base: the
 * base itself, a lib/modules tree (Debian before merged /usr, Fedora's
 * INSTALL_MOD_PATH output) or a /usr/lib/modules tree (Arch, new SUSE). */
static const char *const layouts[] = { "%s/%s", "%s/lib/modules/%s", "%s/usr/lib/modules/%s" };

static int has_modules_dep(const char *dir)
{
	char path[4096];
	int n = snprintf(path, sizeof(path), "%s/modules.dep", dir);

	return n > 0 && (size_t)n < sizeof(path) && access(path, R_OK) == 0;
}

/* first_layout 1 skips "the base itself", meaningless for the host's "/". */
static int find_in(const char *base, size_t first_layout, const char *kver, char *out, size_t size)
{
	for (size_t i = first_layout; i < sizeof(layouts) / sizeof(layouts[0]); i++) {
		snprintf(out, size, layouts[i], base, kver);
		if (has_modules_dep(out))
			return 0;
	}
	return -ENOENT;
}

/* With --kmoddir and no --kver: the tree must hold exactly one version. */
static int only_version(const char *kmoddir, char *kver, size_t size)
{
	static const char *const subdirs[] = { "", "/lib/modules", "/usr/lib/modules" };

	for (size_t i = 0; i < sizeof(subdirs) / sizeof(subdirs[0]); i++) {
		char dir[4096], probe[4400];
		struct dirent *de;
		DIR *d;
		int n = 0;

		snprintf(dir, sizeof(dir), "%s%s", kmoddir, subdirs[i]);
		d = opendir(dir);
		if (!d)
			continue;
		while ((de = readdir(d))) {
			snprintf(probe, sizeof(probe), "%s/%s", dir, de->d_name);
			if (de->d_name[0] != '.' && has_modules_dep(probe) && n++ == 0)
				snprintf(kver, size, "%s", de->d_name);
		}
		closedir(d);
		if (n == 1)
			return 0;
		if (n > 1) {
			gen_error("%s holds modules for several kernels; choose one with --kver", dir);
			return -EINVAL;
		}
	}
	if (has_modules_dep(kmoddir)) {
		const char *slash = strrchr(kmoddir, '/');

		snprintf(kver, size, "%s", slash ? slash + 1 : kmoddir);
		return 0;
	}
	gen_error("no kernel modules tree (modules.dep) found in %s; give the directory "
		  "'make modules_install INSTALL_MOD_PATH=...' wrote, and run depmod there", kmoddir);
	return -ENOENT;
}

int kernel_find(const char *kver, const char *kmoddir, char *kver_out, size_t kver_size,
		char *moddir_out, size_t moddir_size)
{
	struct utsname u;
	int r;

	if (kver) {
		snprintf(kver_out, kver_size, "%s", kver);
	} else if (kmoddir) {
		r = only_version(kmoddir, kver_out, kver_size);
		if (r < 0)
			return r;
	} else {
		uname(&u);
		snprintf(kver_out, kver_size, "%s", u.release);
	}
	if (kmoddir) {
		if (find_in(kmoddir, 0, kver_out, moddir_out, moddir_size) == 0)
			return 0;
		if (has_modules_dep(kmoddir)) {
			snprintf(moddir_out, moddir_size, "%s", kmoddir);
			return 0;
		}
		gen_error("no modules for kernel %s in %s (looked for modules.dep); check "
			  "--kver, or run depmod -b on that tree", kver_out, kmoddir);
		return -ENOENT;
	}
	if (find_in("", 1, kver_out, moddir_out, moddir_size) == 0)
		return 0;
	gen_error("unknown kernel version %s: no /lib/modules/%s or /usr/lib/modules/%s; "
		  "install that kernel's modules, or name another with --kver (ls /lib/modules)",
		  kver_out, kver_out, kver_out);
	return -ENOENT;
}

int kernel_list(const char *kmoddir, struct strv *versions)
{
	static const char *const subdirs[] = { "/lib/modules", "/usr/lib/modules" };
	int r = 0;

	for (size_t i = 0; r == 0 && i < sizeof(subdirs) / sizeof(subdirs[0]); i++) {
		char dir[4096], probe[4400];
		struct dirent *de;
		DIR *d;

		snprintf(dir, sizeof(dir), "%s%s", kmoddir ? kmoddir : "", subdirs[i]);
		d = opendir(dir);
		if (!d)
			continue;
		while (r == 0 && (de = readdir(d))) {
			snprintf(probe, sizeof(probe), "%s/%s", dir, de->d_name);
			if (de->d_name[0] != '.' && has_modules_dep(probe))
				r = strv_push_unique(versions, de->d_name);
		}
		closedir(d);
	}
	strv_sort(versions);
	return r;
}
