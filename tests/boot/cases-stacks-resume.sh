# cases-stacks-resume.sh: what the block stacks write before the resume
# decision (sourced by run.sh). md and LVM are assembled in the resume
# wait, before the kernel has been told whether to restore a hibernated
# system; that system still owns their disks, so nothing may be written to
# them until the decision. Measured on the disks themselves: the member
# images are compared byte for byte before and after a boot that is
# stopped in the resume wait.

MD_SUPER=$TOP/tests/boot/md-super.py

# The stacks image (cases-stacks.sh) with the mdadm.conf a host-only image
# of the LVM-on-md root carries (gen/host/stackhost.c): its ARRAY line makes
# mdadm trust the array as this host's and start it read-write when
# complete (a generic image, without it, starts a foreign array read-auto
# by itself). Made once per run.
stacks_mdconf_image() {
	local conf=$WORK/mdadm.conf

	printf 'ARRAY /dev/md/1 metadata=1.2 UUID=%s\n' "$(md_uuid "$UUID_MD_LVM")" >"$conf.$BASHPID" &&
		mv "$conf.$BASHPID" "$conf" || return 1
	IMG_MDCONF=$(cached_image stacks-mdconf --generic --block-stacks --add-binaries /usr/sbin/e2fsck \
		--add-files "$conf:/etc/mdadm/mdadm.conf") || { echo "$IMG_MDCONF"; return 1; }
}

# md_dirty_copy NAME: the case's copy of a member of the LVM-on-md stack
# (cases-stacks.sh), its superblock marked not cleanly shut down, as a
# hibernated system leaves an array it was using.
md_dirty_copy() {
	local disk
	disk=$(stack_copy "$1") && python3 "$MD_SUPER" dirty "$disk" >&2 && echo "$disk"
}

# stop_in_resume_wait PATTERN...: once the console has shown each PATTERN
# in turn, and 5 s more for anything that would write, stop the machine
# (rescue_start'ed with resume= naming a device that never comes), still in
# the resume wait.
stop_in_resume_wait() {
	local p rc=0
	for p in "$@"; do
		expect "$p" 200 || { rc=1; break; }
	done
	[ $rc -ne 0 ] || sleep 5
	[ $rc -ne 0 ] || ! grep -q 'did not appear within' "$CASE_DIR/console.log" ||
		{ echo "the resume wait ended before the disks were measured"; rc=1; }
	monitor quit
	rescue_stop "$rc"
	return $rc
}

# The LVM-on-md root's stack, as a host-only image assembles it, with resume= naming a device that never comes:
# the boot waits in the resume decision for rd.resume.timeout while md
# assembles the array and LVM activates its volume group. Once both are
# there (the root's filesystem probed on the LV) the machine is stopped,
# still before the decision; the member disks must be as they were.
case_stacks_nothing_written_before_resume() {
	local a b sums
	stacks_setup && stacks_mdconf_image || return 1
	a=$(md_dirty_copy mdlvm-a) && b=$(md_dirty_copy mdlvm-b) || return 1
	sums=$(cat "$a" "$b" | sha256sum)
	python3 "$MD_SUPER" show "$a" >"$CASE_DIR/super-before.txt"
	QEMU_TIMEOUT=300 rescue_start "$IMG_MDCONF" "root=UUID=$UUID_MD_LVM_FS rd.md.uuid=$UUID_MD_LVM \
rd.lvm.vg=lbmvg resume=UUID=$UUID_GONE rd.resume.timeout=60 rd.timeout=120 rd.break=mount" \
		$(virtio_disk "$a") $(virtio_disk "$b")
	stop_in_resume_wait 'raid1:md[0-9]*: active with 2 out of 2 mirrors' \
		'lvm [a-z]*change -ay.* after /dev/md[0-9]* appeared.*: done' || return 1
	python3 "$MD_SUPER" show "$a" >"$CASE_DIR/super-after.txt"
	[ "$(cat "$a" "$b" | sha256sum)" = "$sums" ] ||
		{ echo "the member disks were written before the resume decision: superblock $(cat "$CASE_DIR/super-before.txt") became $(cat "$CASE_DIR/super-after.txt")"; return 1; }
}

# After the decision the array is writable: the same dirty stack, booted
# through the resume wait (the device never comes) with a read-write root;
# the mount's first write makes the array read-write, md resyncs it, and
# the root's init runs.
case_stacks_writable_after_resume() {
	local a b decided resync
	stacks_setup && stacks_mdconf_image || return 1
	a=$(md_dirty_copy mdlvm-a) && b=$(md_dirty_copy mdlvm-b) || return 1
	QEMU_TIMEOUT=300 boot_qemu "$CASE_DIR/console.log" "$KERNEL" "$IMG_MDCONF" \
		"root=UUID=$UUID_MD_LVM_FS rd.md.uuid=$UUID_MD_LVM rd.lvm.vg=lbmvg rw \
resume=UUID=$UUID_GONE rd.resume.timeout=3 rd.timeout=120" $(virtio_disk "$a") $(virtio_disk "$b")
	assert_root_reached "$CASE_DIR/console.log" &&
	assert_log "$CASE_DIR/console.log" 'did not appear within' &&
	assert_log "$CASE_DIR/console.log" 'md: resync of RAID array md' || return 1
	decided=$(grep -n 'did not appear within' "$CASE_DIR/console.log" | head -n 1 | cut -d: -f1)
	resync=$(grep -n 'md: resync of RAID array md' "$CASE_DIR/console.log" | head -n 1 | cut -d: -f1)
	[ "$resync" -gt "$decided" ] ||
		{ echo "md resynced the array (console line $resync) before the resume decision (line $decided)"; return 1; }
}

# merge_pending FILE: the snapshot merge into lbsvg/data (cases-stacks.sh's
# lvmmerge disk) has not run: data's first block still says AFTER-SNAPSHOT,
# which the merge overwrites with the snapshot's BEFORE-SNAPSHOT.
merge_pending() {
	grep -q -a AFTER-SNAPSHOT "$1"
}

# A volume group with a snapshot merge pending (the lvmmerge disk: root and
# swap linear, data an origin whose merge waits for its next activation),
# resume= naming a device that never comes. In the resume wait the linear
# volumes are activated and data is held: the machine is stopped there and
# the disk is byte for byte as it was, the merge still pending. dm_snapshot
# is loaded from the start (rd.driver.pre=), as a kernel with it built in
# has it, so only the hold keeps the merge from starting.
case_stacks_lvm_merge_held_before_resume() {
	local disk sums
	stacks_setup || return 1
	disk=$(stack_copy lvmmerge)
	merge_pending "$disk" || { echo "the lvmmerge disk has no merge pending"; return 1; }
	sums=$(sha256sum < "$disk")
	QEMU_TIMEOUT=300 rescue_start "$IMG_STACKS" "root=/dev/mapper/lbsvg-root rd.driver.pre=dm_snapshot \
resume=UUID=$UUID_GONE rd.resume.timeout=60 rd.timeout=120 rd.break=mount" $(virtio_disk "$disk")
	stop_in_resume_wait 'lvm [a-z]*change -ay.* after /dev/vda appeared.*: done' || return 1
	merge_pending "$disk" ||
		{ echo "the snapshot merge into lbsvg/data ran before the resume decision"; return 1; }
	[ "$(sha256sum < "$disk")" = "$sums" ] ||
		{ echo "the lvmmerge disk was written before the resume decision"; return 1; }
}

# The same disk with resume= naming the swap volume (no image in it): the
# swap is found in the resume wait (linear volumes are activated then), the
# decision is no resume, and only then data is activated: its merge runs
# (dm_snapshot loaded by the init) and the root on the same group is
# reached.
case_stacks_lvm_merge_after_resume() {
	local disk log=$CASE_DIR/console.log
	stacks_setup || return 1
	disk=$(stack_copy lvmmerge)
	boot_qemu "$log" "$KERNEL" "$IMG_STACKS" \
		"root=/dev/mapper/lbsvg-root resume=/dev/mapper/lbsvg-swap rd.timeout=90" $(virtio_disk "$disk")
	assert_root_reached "$log" &&
	assert_before "$log" 'resume: /dev/dm-[0-9]* at page 0: swap without a hibernation image' \
		'lvm vgchange -ay after the resume decision: done' || return 1
	! merge_pending "$disk" || { echo "the snapshot merge into lbsvg/data did not run after the resume decision"; return 1; }
}

# Hibernation into a swap volume of the group with a merge pending, and
# resume from it: boot 1 activates only the swap (rd.lvm.lv=) and
# hibernates into it; boot 2 names no volume, so the whole group is
# looked at in the resume wait: the swap (linear) is found and the image
# restored, data is held, and the resumed system finds the merge still
# pending. dm_snapshot is loaded from the start in boot 2, so only the hold
# keeps the merge from starting under the resumed kernel.
case_stacks_lvm_resume_swap_merge_held() {
	local root=$CASE_DIR/root.img disk token log swap=/dev/mapper/lbsvg-swap
	stacks_setup || return 1
	token=$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')
	hib_root "$root" || return 1
	disk=$(stack_copy lvmmerge)
	log=$CASE_DIR/boot1.log
	boot_qemu "$log" "$KERNEL" "$IMG_STACKS" "root=UUID=$UUID_HIBROOT rw resume=$swap \
rd.lvm.lv=lbsvg/swap rd.timeout=90 lbtest.hibernate=1 lbtest.swap=$swap lbtest.token=$token" \
		$(virtio_disk "$root") $(virtio_disk "$disk")
	assert_log "$log" "HIB-TEST: HIBERNATING 1 $token" &&
	assert_log "$log" "PM: hibernation: Image saving done\|PM: Image saving done" &&
	merge_pending "$disk" || { echo "boot 1 did not hibernate with the merge pending ($log)"; return 1; }
	log=$CASE_DIR/boot2.log
	boot_qemu "$log" "$KERNEL" "$IMG_STACKS" "root=UUID=$UUID_HIBROOT resume=$swap \
rd.driver.pre=dm_snapshot rd.timeout=90" $(virtio_disk "$root") $(virtio_disk "$disk")
	assert_log "$log" "resume: restoring the hibernation image on /dev/dm-" &&
	assert_log "$log" "HIB-TEST: RESUMED 1 $token rc=0" &&
	assert_not_log "$log" "lvm vgchange -ay after the resume decision" || return 1
	merge_pending "$disk" || { echo "the snapshot merge into lbsvg/data ran before the resume"; return 1; }
	assert_root_intact "$root" "before-hibernate $token|after-resume $token 1|"
}
