/*
 * The CPUs: their hot per-CPU words and which are online (portable: the host simulator is
 * CPU 0 alone; the kernel's bring-up, kernel/arch/smpboot.c, adds the others).
 */
#include <cgwb/smp.h>
#include <cgwb/bug.h>
#include <cgwb/percpu_counter.h>

struct pcpu_hot pcpu_hot[NR_CPUS];
unsigned int nr_cpu_ids = 1;
cpumask_t cpu_online_mask = 1; /* the boot CPU */

void set_cpu_online(unsigned int cpu, bool online)
{
	BUG_ON(cpu >= NR_CPUS);
	if (online)
		__atomic_fetch_or(&cpu_online_mask, 1UL << cpu, __ATOMIC_SEQ_CST);
	else
		__atomic_fetch_and(&cpu_online_mask, ~(1UL << cpu), __ATOMIC_SEQ_CST);
	percpu_counter_compute_batch();
}
