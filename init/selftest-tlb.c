/*
 * cgwb.selftest=tlb-shootdown: does vfree() take its translations away from the other CPUs?
 * A task pinned to a second CPU reads a vmalloc page (its TLB now maps the address), the
 * first CPU frees the area and maps a new page, with other bytes, at the same address, and
 * the second reads again: the new bytes, or the freed page's through a stale translation.
 * QEMU's TCG keeps a TLB per virtual CPU that only invlpg and CR3 writes flush, as hardware.
 */
#include <cgwb/vmalloc.h>
#include <cgwb/sched.h>
#include <cgwb/smp.h>
#include <cgwb/string.h>
#include <cgwb/printk.h>
#include "selftest.h"

#define OLD_BYTE 0xaa
#define NEW_BYTE 0x55

struct tlb_probe {
	volatile u8 *va;
	int stage; /* 1: read it once; 2: done; 3: read it again; 4: done */
	u8 seen;
};

static void wait_stage(struct tlb_probe *p, int stage)
{
	while (__atomic_load_n(&p->stage, __ATOMIC_ACQUIRE) != stage)
		cpu_relax();
}

static void set_stage(struct tlb_probe *p, int stage)
{
	__atomic_store_n(&p->stage, stage, __ATOMIC_RELEASE);
}

static int tlb_probe_reader(void *arg)
{
	struct tlb_probe *p = arg;

	wait_stage(p, 1);
	p->seen = p->va[0];
	set_stage(p, 2);
	wait_stage(p, 3);
	p->seen = p->va[0];
	set_stage(p, 4);
	return 0;
}

/*
 * Free the area and map a new page at the same address; true if that happened. The freed
 * page is taken and kept meanwhile (*held), or the new mapping could get it back and a
 * stale translation would read the right bytes.
 */
static bool remap_at_same_address(struct tlb_probe *p, struct page **held)
{
	void *old = (void *)p->va, *fresh;
	struct page *old_page = vmalloc_to_page(old);

	vfree(old);
	*held = alloc_page(GFP_KERNEL);
	if (*held)
		memset(page_address(*held), OLD_BYTE, PAGE_SIZE);
	fresh = vmalloc(PAGE_SIZE);
	if (fresh)
		memset(fresh, NEW_BYTE, PAGE_SIZE);
	if (fresh == old && *held == old_page)
		return true;
	vfree(fresh);
	p->va = NULL;
	return false;
}

void selftest_tlb_shootdown(void)
{
	struct tlb_probe p = { .va = vmalloc(PAGE_SIZE) };
	unsigned int self = smp_processor_id(), other;
	unsigned long allowed = current->cpus_mask;
	struct task_struct *reader;
	struct page *held;

	if (num_online_cpus() < 2 || !p.va) {
		pr_notice("selftest: tlb-shootdown: skipped (%s)\n", p.va ? "one CPU" : "no memory");
		vfree((void *)p.va);
		return;
	}
	set_cpus_allowed(current, 1UL << self);
	other = self ? 0 : 1;
	memset((void *)p.va, OLD_BYTE, PAGE_SIZE);
	reader = kthread_create(tlb_probe_reader, &p, "tlb-probe");
	set_cpus_allowed(reader, 1UL << other);
	wake_up_process(reader);
	set_stage(&p, 1);
	wait_stage(&p, 2);
	if (!remap_at_same_address(&p, &held)) {
		set_stage(&p, 3);
		kthread_join(reader);
		pr_notice("selftest: tlb-shootdown: skipped (the address or page was not "
			  "reused)\n");
	} else {
		set_stage(&p, 3);
		wait_stage(&p, 4);
		kthread_join(reader);
		if (p.seen == NEW_BYTE)
			pr_notice("selftest: tlb-shootdown: ok\n");
		else
			pr_err("selftest: tlb-shootdown: CPU %u read %#x through a stale "
			       "translation\n",
			       other, p.seen);
		vfree((void *)p.va);
	}
	if (held)
		__free_page(held);
	set_cpus_allowed(current, allowed);
}
