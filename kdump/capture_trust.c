/* capture_trust: what the capture takes from the crashed kernel's own data
 * after checking it, and the one message for each thing it refuses. The
 * crashed kernel's memory may be the reason it crashed: a corrupt PT_LOAD
 * is left out, a VMCOREINFO whose sizes do not fit its structures turns
 * page filtering or the kernel log off; the dump is saved all the same. */
#include <errno.h>
#include <string.h>

#include "bootlib/log.h"
#include "kdump/capture.h"
#include "kdump/pagefilter.h"
#include "kdump/printk.h"
#include "kdump/vmcoreinfo_check.h"

#define VMCORE "/proc/vmcore"

void capture_trust_core(struct capture *cap)
{
	const struct core_load *l = &cap->core.first_skipped;
	unsigned level = cap->conf.level;
	char why[256];

	if (cap->have_vi)
		elfcore_limit_phys(&cap->core, vmcoreinfo_phys_bits(&cap->vi));
	if (cap->core.loads_skipped)
		log_warn("kdump: %s: %zu PT_LOAD range(s) of its ELF header are corrupt (the first: "
			 "physical 0x%llx, 0x%llx bytes, file offset 0x%llx: past the file's end, more "
			 "file than memory, beyond %u-bit physical addresses, or reaching beyond %u "
			 "times the memory the core holds); that memory is left out of the dump, the "
			 "rest is saved", VMCORE, cap->core.loads_skipped,
			 (unsigned long long)l->paddr, (unsigned long long)l->memsz,
			 (unsigned long long)l->offset, cap->core.phys_bits, ELFCORE_SPARSE_RATIO);
	if (cap->have_vi && (level & ~(unsigned)DL_ZERO) &&
	    vmcoreinfo_check_filter(&cap->vi, why, sizeof(why)) == -EINVAL)
		log_warn("kdump: %s: %s; no page is left out by its kind (dump level %u saves as "
			 "level %u would: a larger dump)", VMCORE, why, level, level & DL_ZERO);
}

void capture_read_dmesg(struct capture *cap)
{
	char why[256] = "";
	int r;

	if (!cap->have_vi)
		return;
	r = vmcoreinfo_check_printk(&cap->vi, why, sizeof(why));
	if (r == 0)
		r = printk_read(&cap->core, &cap->vi, &cap->dmesg, &cap->dmesg_len);
	if (r == 0)
		return;
	if (why[0])
		log_warn("kdump: %s: %s; the kernel log is not extracted (no vmcore-dmesg.txt), the "
			 "dump is saved", VMCORE, why);
	else if (r == -EINVAL)
		log_warn("kdump: %s: the crashed kernel's printk ring is inconsistent (its ids or "
			 "sizes); the kernel log is not extracted (no vmcore-dmesg.txt), the dump is "
			 "saved", VMCORE);
	else
		log_warn("kdump: %s: reading the crashed kernel's printk ring failed: %s; no "
			 "vmcore-dmesg.txt, the dump is saved", VMCORE, strerror(-r));
}
