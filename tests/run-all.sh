#!/bin/bash
# run-all.sh: everything `make test` runs, with one closing "N passed, N failed".
#   unit tests, the fake-root cases, the unit tests again under ASan/UBSan, cppcheck, the layer
#   check, the distribution tests, the Debian package, qemu boot tests
set -u
cd "$(dirname "$0")/.."
total_pass=0 total_fail=0

count() {   # count NAME LOGFILE: add the suite's closing "N passed, N failed"
	local line p f
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$2" | tail -n 1)
	if [ -z "$line" ]; then
		echo "== $1: no result line; counted as one failure"
		total_fail=$((total_fail + 1))
		return
	fi
	p=${line%% passed*}
	f=${line#*, }; f=${f%% failed*}
	echo "== $1: $line"
	total_pass=$((total_pass + p))
	total_fail=$((total_fail + f))
}

mkdir -p build/logs
echo "== unit tests"
tests/run-unit.sh build/tests 2>&1 | tee build/logs/unit.log
count "unit" build/logs/unit.log

echo "== fake-root cases (tests/fakeroot/: the plan, the device wait, the unlock order)"
tests/run-unit.sh build/tests/fakeroot 2>&1 | tee build/logs/fakeroot.log
count "fakeroot" build/logs/fakeroot.log

echo "== unit tests under ASan/UBSan"
make -s -j"$(nproc)" asan-unit 2>&1 | tee build/logs/asan.log
count "unit (ASan/UBSan)" build/logs/asan.log

echo "== cppcheck"
if make -s cppcheck > build/logs/cppcheck.log 2>&1; then
	echo "1 passed, 0 failed" >> build/logs/cppcheck.log
else
	cat build/logs/cppcheck.log
	echo "0 passed, 1 failed" >> build/logs/cppcheck.log
fi
count "cppcheck" build/logs/cppcheck.log

echo "== layers (docs/architecture.md's include rules)"
make -s check-layers 2>&1 | tee build/logs/layers.log
count "layers" build/logs/layers.log

echo "== exported names carry their file's prefix (tests/layers/prefixes.py)"
python3 tests/layers/prefixes.py build/obj > build/logs/prefixes.log 2>&1
if grep -q '^prefixes: 0 of ' build/logs/prefixes.log; then
	echo "1 passed, 0 failed" >> build/logs/prefixes.log
else
	cat build/logs/prefixes.log
	echo "0 passed, 1 failed" >> build/logs/prefixes.log
fi
count "prefixes" build/logs/prefixes.log

echo "== distribution fit (timeline, layouts, microcode, man pages, completion, kernel hooks)"
tests/dist/run.sh 2>&1 | tee build/logs/dist.log
count "dist" build/logs/dist.log

echo "== Debian package (in a throwaway Debian 12 root)"
tests/deb/run.sh 2>&1 | tee build/logs/deb.log
count "deb" build/logs/deb.log

# Beside the boot tests: it mostly waits on the archive and dpkg, and
# the boot tests leave cores idle while their cases wait.
echo "== the same Debian package in a throwaway Debian 13 root (beside the boot tests; its lines below)"
tests/deb/run.sh --no-build --suite trixie >build/logs/deb13.log 2>&1 &
deb13=$!

echo "== qemu boot tests"
tests/boot/run.sh 2>&1 | tee build/logs/boot.log
count "boot" build/logs/boot.log

wait "$deb13"
echo "== the Debian 13 package test's lines"
cat build/logs/deb13.log
count "deb (Debian 13)" build/logs/deb13.log

echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
