/*
 * The emulator's TLB size. QEMU's TCG keeps a software TLB per virtual CPU and sizes it only
 * when the guest flushes it (accel/tcg/cputlb.c, tlb_mmu_resize_locked()): at a full flush
 * it doubles when more than 70 % of it was in use since the last resize and shrinks when
 * less than 30 % was for a whole 100 ms window. It starts at 256 entries, 1 MiB of address
 * space. Linux reloads CR3 at every switch between programs, so the TLB follows its working
 * set; cgwb's kernel tasks share one address space and hardly ever flush, so it keeps the
 * size the boot's few flushes left (as small as 64 entries) and every workload that touches
 * more than that many pages pays a page walk in QEMU for most of its accesses.
 *
 * So, under TCG only (CPUID's hypervisor leaf reads "TCGTCGTCGTCG"), each CPU reloads CR3
 * from its tick once per resize window. A reload costs the refill of the entries in use;
 * a window is long enough that this stays far below what a TLB of the wrong size costs.
 * On real hardware and under KVM nothing happens.
 */
#include <cgwb/jiffies.h>
#include <cgwb/printk.h>
#include <cgwb/percpu.h>
#include <cgwb/smp.h>
#include <cgwb/string.h>
#include "x86.h"

#define TCG_TLB_WINDOW (HZ / 10) /* QEMU's resize window: 100 ms */

static bool under_tcg;
static DEFINE_PER_CPU(unsigned long, tcg_tlb_next_flush);

static bool running_under_tcg(void)
{
	u32 a, b, c, d;
	char sig[12];

	cpuid(1, 0, &a, &b, &c, &d);
	if (!(c & (1U << 31))) /* no hypervisor */
		return false;
	cpuid(0x40000000, 0, &a, &b, &c, &d);
	memcpy(sig, &b, 4);
	memcpy(sig + 4, &c, 4);
	memcpy(sig + 8, &d, 4);
	return memcmp(sig, "TCGTCGTCGTCG", sizeof(sig)) == 0;
}

void tcg_tlb_init(void)
{
	under_tcg = running_under_tcg();
	if (under_tcg)
		pr_info("tcg: each CPU flushes its TLB every %d ms, for QEMU to size its own\n",
			TCG_TLB_WINDOW * 1000 / HZ);
}

/* From each CPU's tick, interrupts off; now is jiffies. */
void tcg_tlb_tick(unsigned long now)
{
	unsigned long *next = &per_cpu(tcg_tlb_next_flush, raw_smp_processor_id());

	if (!under_tcg || time_before(now, *next))
		return;
	*next = now + TCG_TLB_WINDOW;
	flush_tlb_local();
}
