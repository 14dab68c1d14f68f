/* dmname: map /dev/mapper/NAME and /dev/VG/LV to device-mapper names, and back to a VG. */
#include "common/dmname.h"

#include <errno.h>
#include <string.h>

/* Append s to out at *n with '-' doubled, as LVM names its dm devices. */
static int append_escaped(char *out, size_t size, size_t *n, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		size_t need = s[i] == '-' ? 2 : 1;

		if (*n + need >= size)
			return -ENAMETOOLONG;
		out[(*n)++] = s[i];
		if (s[i] == '-')
			out[(*n)++] = '-';
	}
	out[*n] = '\0';
	return 0;
}

int dmname_from_path(const char *path, char *out, size_t size)
{
	const char *slash = strchr(path, '/');
	size_t n = 0;
	int r;

	if (!slash || slash == path || !slash[1] || strchr(slash + 1, '/') || size == 0)
		return -EINVAL;
	if (strncmp(path, "mapper/", 7) == 0) {
		if (strlen(slash + 1) >= size)
			return -ENAMETOOLONG;
		strcpy(out, slash + 1);
		return 0;
	}
	/* /dev/disk/... and the like are not volume groups. */
	if (strncmp(path, "disk/", 5) == 0)
		return -EINVAL;
	r = append_escaped(out, size, &n, path, (size_t)(slash - path));
	if (r == 0 && n + 1 < size) {
		out[n++] = '-';
		out[n] = '\0';
	} else if (r == 0) {
		r = -ENAMETOOLONG;
	}
	if (r == 0)
		r = append_escaped(out, size, &n, slash + 1, strlen(slash + 1));
	return r;
}

int dmname_lvm_vg(const char *dm_name, char *vg, size_t size)
{
	size_t n = 0;

	for (const char *p = dm_name; *p; p++) {
		if (*p == '-' && p[1] != '-')
			return n && p[1] ? 0 : -EINVAL;
		if (n + 1 >= size)
			return -ENAMETOOLONG;
		vg[n++] = *p;
		vg[n] = '\0';
		if (*p == '-')
			p++;    /* a doubled '-' stands for one */
	}
	return -EINVAL;
}
