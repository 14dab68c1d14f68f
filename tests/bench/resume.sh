#!/bin/bash
# resume.sh: what a resume check costs a normal boot. Boots the generic image
# N times with a plain swap disk and resume= naming it, and N times without
# resume=, and prints the median time from the init's start to the root
# mount (its timeline). Uses the images of a boot test run:
#   JOBS=1 WORK=build/boot-x tests/boot/run.sh resume_plain_swap
#   WORK=build/boot-x tests/bench/resume.sh [N]
set -u
source "$(dirname "$0")/../boot/lib.sh"
KVER=${KVER:-$(newest_kernel)}
KERNEL=/boot/vmlinuz-$KVER
IMG_GENERIC=$WORK/generic.img
N=${1:-3}
CASE_DIR=$WORK/bench-resume
source "$(dirname "$0")/../boot/cases.sh"
source "$(dirname "$0")/../boot/cases-resume.sh"

mkdir -p "$CASE_DIR"
cp --sparse=always "$WORK/disks/ext4.img" "$CASE_DIR/root.img"
hib_swap "$CASE_DIR/swap.img" "$UUID_PLAINSWAP" || exit 1

# The init's start to its root mount, seconds, from one boot's timeline.
start_to_mounted() {
	tr -d '\r' < "$1" | awk '/^LIFEBOAT-TEST: timeline .* start/ { s = $3 }
		/^LIFEBOAT-TEST: timeline .* mounted / { printf "%.3f\n", $3 - s }'
}

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

for mode in without with; do
	for i in $(seq "$N"); do
		extra=""
		[ $mode = with ] && extra="resume=UUID=$UUID_PLAINSWAP"
		hib_boot "$CASE_DIR/$mode-$i.log" "root=UUID=$UUID_EXT4 $extra" "$CASE_DIR/root.img" "$CASE_DIR/swap.img"
		start_to_mounted "$CASE_DIR/$mode-$i.log"
	done > "$CASE_DIR/$mode.times"
	echo "$mode resume=: start -> mounted median $(median < "$CASE_DIR/$mode.times") s (runs: $(tr '\n' ' ' < "$CASE_DIR/$mode.times"))"
done
