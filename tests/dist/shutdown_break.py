#!/usr/bin/env python3
"""shutdown_break.py: rd.break=shutdown's shell in the way out passes the
init's gate (audit N3). lifeboat-shutdown runs as PID 1 of a user, mount and
pid namespace, chrooted into a way out laid out as the init leaves it
(shutdown/leave.c): the program, a static busybox as bin/sh, the mark of
the init's decision, --rescue-auth's hash (0600), and no library: the way
out links libcrypt. /proc/cmdline always says rd.break=shutdown: the way out
must not take it from there. The console and the kernel log are one pty
this script answers on.

Usage: shutdown_break.py LIFEBOAT-SHUTDOWN SCRATCH-DIR; prints what failed
and exits 1, or exits 0."""
import crypt
import os
import pty
import re
import select
import shutil
import sys
import time

PASSWORD = "Break-Pass-7"
SHELL_MARK = "BREAK-SHELL-$((6*7))"
SHELL_SEEN = "BREAK-SHELL-42"
DONE = "the way out is done"


def make_root(root, program, mark, auth):
    shutil.rmtree(root, ignore_errors=True)
    for d in ("bin", "dev", "proc", "sys/block", "run", "oldroot"):
        os.makedirs(f"{root}/{d}")
    shutil.copy(program, f"{root}/shutdown")
    shutil.copy("/bin/busybox", f"{root}/bin/sh")
    for name in ("console", "kmsg"):
        open(f"{root}/dev/{name}", "w").close()
    if mark:
        open(f"{root}/.break_shutdown", "w").close()
    if auth:
        os.makedirs(f"{root}/etc/lifeboat", mode=0o700)
        fd = os.open(f"{root}/etc/lifeboat/rescue-auth", os.O_WRONLY | os.O_CREAT, 0o600)
        os.write(fd, (crypt.crypt(PASSWORD, crypt.mksalt(crypt.METHOD_SHA512)) + "\n").encode())
        os.close(fd)


def run(root, answers):
    """Run the way out; answers: (regex, line) in order. Returns the output."""
    with open(f"{root}.cmdline", "w") as f:
        f.write("BOOT_IMAGE=/vmlinuz root=/dev/mapper/vg-root rd.break=shutdown\n")
    inner = (f"mount -t proc proc {root}/proc && mount --bind {root}.cmdline {root}/proc/cmdline && "
             f"mount --bind $(tty) {root}/dev/console && mount --bind $(tty) {root}/dev/kmsg && "
             f"exec chroot {root} /shutdown reboot")
    pid, fd = pty.fork()
    if pid == 0:
        # --kill-child: the namespace ends with unshare, a shell that waits included.
        os.execvp("timeout", ["timeout", "-k", "5", "60", "unshare", "--kill-child", "-Urmpf",
                              "--mount-proc", "sh", "-c", inner])
    out, at = "", 0
    deadline = time.time() + 60
    while time.time() < deadline:
        if select.select([fd], [], [], 0.5)[0]:
            try:
                data = os.read(fd, 4096)
            except OSError:
                break
            if not data:
                break
            out += data.decode(errors="replace")
        if answers and re.search(answers[0][0], out[at:]):
            at = len(out)
            time.sleep(0.2)
            os.write(fd, (answers.pop(0)[1] + "\n").encode())
    os.waitpid(pid, 0)
    return out


def check(name, out, want, not_want):
    bad = [f"lacks '{w}'" for w in want if not re.search(w, out)]
    bad += [f"has '{w}'" for w in not_want if re.search(w, out)]
    if bad:
        print(f"{name}: " + "; ".join(bad) + "\n--- its console ---\n" + out[-3000:])
    return not bad


def main():
    program, scratch = os.path.abspath(sys.argv[1]), sys.argv[2]
    root = f"{scratch}/wayout"
    ok = True
    # --rescue-auth: three wrong passwords, no shell, the way out goes on.
    make_root(root, program, mark=True, auth=True)
    out = run(root, [("Give root password", "wrong-1"), ("Give root password", "wrong-2"),
                     ("Give root password", "wrong-3"), (r"no shell", f"echo {SHELL_MARK}")])
    ok &= check("wrong passwords", out, ["Login incorrect", "the root password was refused", DONE],
                 [SHELL_SEEN, PASSWORD])
    # The right one opens the shell, before anything is taken down.
    make_root(root, program, mark=True, auth=True)
    out = run(root, [("Give root password", PASSWORD), ("# ", f"echo {SHELL_MARK}"),
                     (SHELL_SEEN, "exit")])
    ok &= check("the password", out, [SHELL_SEEN, DONE], ["Login incorrect"])
    # No mark: the init did not decide rd.break=shutdown; /proc/cmdline's word opens nothing.
    make_root(root, program, mark=False, auth=False)
    out = run(root, [("# ", f"echo {SHELL_MARK}")])
    ok &= check("no mark", out, [DONE], [SHELL_SEEN, "Give root password"])
    # An image without --rescue-auth: the shell opens as the init's would.
    make_root(root, program, mark=True, auth=False)
    out = run(root, [("# ", f"echo {SHELL_MARK}"), (SHELL_SEEN, "exit")])
    ok &= check("no password in the image", out, [SHELL_SEEN, DONE], ["Give root password"])
    shutil.rmtree(root, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
