/* ls: `lifeboat ls IMAGE`, list what an initramfs holds, like lsinitramfs -l. */
#ifndef LIFEBOAT_LS_H
#define LIFEBOAT_LS_H

/* argv[0] is the command name ("ls"), argv[1] the image. Prints one line per
 * entry (mode, links, size, path, "-> target" or "=> first link"), then the
 * embedded /etc/lifeboat/build.conf if there is one, then the kernel modules.
 * Returns the exit status: 0, or 1 after reporting why. */
int ls_main(int argc, char **argv);

#endif
