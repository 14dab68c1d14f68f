/* filewrite: one value into a kernel attribute (sysfs, procfs). */
#ifndef LIFEBOAT_FILEWRITE_H
#define LIFEBOAT_FILEWRITE_H

/* Write value to the existing file path in one write(2), as the kernel's
 * attributes want it. Returns 0 or -errno. */
int file_write_value(const char *path, const char *value);

#endif
