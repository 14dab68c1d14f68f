/* timeline_cmd: `lifeboat timeline [FILE] [--svg OUT]`, the boot timeline
 * the init left in /run/initramfs/timeline as a table or a picture. */
#ifndef LIFEBOAT_TIMELINE_CMD_H
#define LIFEBOAT_TIMELINE_CMD_H

/* argv[0] is "timeline". Returns the exit status: 0, 1 (reported), 2 usage. */
int timeline_cmd_main(int argc, char **argv);

#endif
