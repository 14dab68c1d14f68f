# tests_shutdown.sh: the way out's rd.break=shutdown shell behind the
# init's gate (audit N3), without qemu: tests/dist/shutdown_break.py runs
# lifeboat-shutdown as PID 1 of a user, mount and pid namespace. Sourced
# by run.sh.

test_shutdown_break_gate() {
	[ -x /bin/busybox ] || { echo "no /bin/busybox (busybox-static) for the way out's shell"; return 1; }
	python3 -W ignore::DeprecationWarning "$TOP/tests/dist/shutdown_break.py" \
		"$BUILD/lifeboat-shutdown" "$T"
}
