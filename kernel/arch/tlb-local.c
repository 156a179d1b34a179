/*
 * A CPU's flush of its own whole TLB: a CR3 reload (the kernel maps nothing global), counted
 * for /proc/vmstat. Alone in its file so that every flusher can call it without joining a
 * circle of calls.
 */
#include <cgwb/smp.h>
#include "x86.h"

static unsigned long tlb_local_flushes;

void flush_tlb_local(void)
{
	write_cr3(read_cr3());
	__atomic_add_fetch(&tlb_local_flushes, 1, __ATOMIC_RELAXED);
}

unsigned long arch_tlb_local_flushes(void)
{
	return __atomic_load_n(&tlb_local_flushes, __ATOMIC_RELAXED);
}
