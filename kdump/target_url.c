/* target_url: a URL target (http, https, ftp, sftp, scp), not built yet. */
#include <errno.h>

#include "init/log.h"
#include "kdump/capture.h"

int target_url_save(struct capture *cap, const char *spec)
{
	(void)cap;
	log_error("kdump: target %s: URL targets are not supported by this image yet; use a "
		  "filesystem target", spec);
	return -EOPNOTSUPP;
}
