/* exitrd: the shutdown environment's contract. The generator puts the
 * way-out program into the image at SHUTDOWN_IMAGE_PATH; the init copies it
 * to EXITRD_PROGRAM before switch_root, where systemd's shutdown looks for
 * it (and where a non-systemd init's last script runs it). */
#ifndef LIFEBOAT_EXITRD_H
#define LIFEBOAT_EXITRD_H

/* In the image: lifeboat-shutdown, a static program (no libraries to copy). */
#define SHUTDOWN_IMAGE_PATH "/usr/lib/lifeboat/lifeboat-shutdown"
/* On the running system (systemd's names). */
#define EXITRD_DIR "/run/initramfs"
#define EXITRD_PROGRAM EXITRD_DIR "/shutdown"
/* The mark that this boot's root needs the way out (dracut's name). */
#define EXITRD_NEED_MARK EXITRD_DIR "/.need_shutdown"

#endif
