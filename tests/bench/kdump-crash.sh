#!/bin/bash
# kdump-crash.sh [DUMP_DIR]: the crash utility on a real dump saved by
# lifeboat, in both formats: DUMP_DIR/vmcore (kdump-compressed) and
# DUMP_DIR/vmcore.elf (filtered ELF), as the kdump_disk boot case leaves
# them (default build/boot-tests/cases/kdump_disk). Runs `crash -s VMLINUX
# FILE` with sys, log, bt, ps, kmem -i, and a walk of the task list, keeps
# each transcript beside the dump (crash-vmcore.txt, crash-vmcore.elf.txt)
# and checks: sys names the kernel release, log has the marker the test
# wrote before the crash, bt shows the sysrq crash path, ps lists the
# crashing init, the task list holds every thread (nr_threads) and the idle
# task: the filter kept all the task structs.
#
# Not part of `make test`: it needs the kernel's debug symbols (an 859 MB
# package). Get them and crash, unpacked outside the repository:
#   mkdir -p /var/tmp/lbdbg && cd /var/tmp/lbdbg
#   apt-get download crash libsnappy1v5 linux-image-$(uname -r)-dbg
#   dpkg -x crash_*.deb crash; dpkg -x libsnappy1v5_*.deb snappy
#   dpkg -x linux-image-*-dbg_*.deb dbg
# LBDBG=DIR says where (default /var/tmp/lbdbg); KVER the dumped kernel.
set -u
cd "$(dirname "$0")/../.."
dir=${1:-build/boot-tests/cases/kdump_disk}
dbg=${LBDBG:-/var/tmp/lbdbg}
kver=${KVER:-$(ls /boot/vmlinuz-* | sed 's|^/boot/vmlinuz-||' | sort -V | tail -n 1)}
crash=$dbg/crash/usr/bin/crash
[ -x "$crash" ] || crash=$(command -v crash) || { echo "kdump-crash: no crash in $dbg/crash or PATH; see the top of $0"; exit 1; }
vmlinux=$dbg/dbg/usr/lib/debug/boot/vmlinux-$kver
[ -r "$vmlinux" ] || { echo "kdump-crash: no $vmlinux: unpack linux-image-$kver-dbg (see the top of $0)"; exit 1; }
export LD_LIBRARY_PATH=$dbg/snappy/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
marker=$(grep -o -m1 'KDUMP-MARKER-[0-9a-z]*' "$dir/vmcore-dmesg.txt" 2>/dev/null) ||
	{ echo "kdump-crash: no marker in $dir/vmcore-dmesg.txt: is $dir a kdump_disk case directory?"; exit 1; }

# check FILE WHAT PATTERN: the transcript shows PATTERN.
check() {
	if grep -Eq -- "$3" "$1"; then
		echo "  ok: $2"
	else
		echo "  FAILED: $2 (no '$3' in $1)"
		failed=1
	fi
}

failed=0
printf 'sys\nlog\nbt\nps\nkmem -i\np nr_threads\nlist task_struct.tasks -h init_task\nquit\n' > "$dir/crash.cmds"
for f in vmcore vmcore.elf; do
	out=$dir/crash-$f.txt
	echo "crash -s $vmlinux $dir/$f"
	start=$(date +%s.%N)
	timeout 600 "$crash" -s -i "$dir/crash.cmds" "$vmlinux" "$dir/$f" >"$out" 2>&1
	echo "  exit status $?, $(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }') s"
	check "$out" "sys: release $kver" "RELEASE: $kver"
	check "$out" "log: the marker $marker" "$marker"
	check "$out" "bt: the sysrq crash" "sysrq_handle_crash"
	check "$out" "ps: the crashing init" "^> +1 .* init$"
	check "$out" "kmem -i: memory totals" "TOTAL MEM"
	threads=$(sed -n 's/^nr_threads = \$[0-9]* = \([0-9]*\)$/\1/p' "$out")
	tasks=$(sed -n '/^nr_threads = /,$p' "$out" | grep -cE '^[0-9a-f]{16}$')
	check "$out" "the task list: $tasks tasks, nr_threads ${threads:-?} and the idle task" \
		"^nr_threads = .* = $((tasks - 1))\$"
	grep -E "^(WARNING|crash:)" "$out" | sort -u | sed 's/^/  crash said: /'
done
exit $failed
