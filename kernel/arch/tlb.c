/*
 * Kernel TLB shootdown. vfree() clears the page table entries of an area, but every CPU that
 * touched it may still hold the old translations in its TLB: were the pages freed (and the
 * addresses given to the next vmalloc()) before those go, a stale entry on another CPU would
 * read or write a page that now belongs to someone else. So the unmapping CPU flushes its
 * own entries, sends INVALIDATE_TLB_VECTOR to every other online CPU and waits until each has
 * reloaded CR3 (which drops every non-global entry; the vmalloc window's are not global), and
 * only then are the pages freed.
 *
 * The waiting CPU spins with interrupts on, and so does one waiting for the shootdown lock:
 * two CPUs shooting down at once each take the other's IPI while they wait, so neither
 * waits forever. Calling it with interrupts off could deadlock, and is refused.
 */
#include <cgwb/mm.h>
#include <cgwb/smp.h>
#include <cgwb/spinlock.h>
#include <cgwb/irqflags.h>
#include <cgwb/bug.h>
#include "x86.h"

static DEFINE_SPINLOCK(tlb_shootdown_lock);
static unsigned int tlb_shootdown_pending;

static void invalidate_tlb_interrupt(void *unused)
{
	(void)unused;
	flush_tlb_local();
	__atomic_fetch_sub(&tlb_shootdown_pending, 1, __ATOMIC_RELEASE);
}

void flush_tlb_kernel_range(u64 start, u64 end)
{
	for (u64 va = start; va < end; va += PAGE_SIZE)
		invlpg(va);
	if (num_online_cpus() == 1)
		return;
	if (WARN_ON_ONCE(irqs_disabled()))
		return;
	spin_lock(&tlb_shootdown_lock);
	cpumask_t others = READ_ONCE(cpu_online_mask) & ~(1UL << smp_processor_id());
	unsigned int cpu;

	__atomic_store_n(&tlb_shootdown_pending, cpumask_weight(others), __ATOMIC_RELAXED);
	for_each_cpu(cpu, others) apic_send_ipi(cpu_to_apic_id(cpu), INVALIDATE_TLB_VECTOR);
	while (__atomic_load_n(&tlb_shootdown_pending, __ATOMIC_ACQUIRE))
		cpu_relax();
	spin_unlock(&tlb_shootdown_lock);
}

void tlb_init(void)
{
	BUG_ON(register_vector(INVALIDATE_TLB_VECTOR, invalidate_tlb_interrupt, NULL));
}
