/* multicall: the init binary run under another name. The rescue shell's
 * modprobe is the init itself (rescue/modprobe.h): the image carries no
 * second program, and the modprobe reads the command line as the init
 * does (init/bootargs.c). */
#ifndef LIFEBOAT_INIT_MULTICALL_H
#define LIFEBOAT_INIT_MULTICALL_H

/* When argv[0]'s base name is another program's (modprobe), run it and
 * return its exit status; otherwise return -1 at once, for the boot. */
int multicall_run(int argc, char **argv);

#endif
