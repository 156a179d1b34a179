/*
 * CPUs: which exist and are online, who this one is, and asking another to run a function
 * (Linux's smp_call_function_single()). A cpumask is one word: NR_CPUS is at most 64.
 */
#ifndef CGWB_SMP_H
#define CGWB_SMP_H

#include <cgwb/percpu.h>

typedef unsigned long cpumask_t;
_Static_assert(NR_CPUS <= 64, "a cpumask is one word");

extern unsigned int nr_cpu_ids; /* CPUs the machine has (started or not) */
extern cpumask_t cpu_online_mask;

static inline bool cpumask_test_cpu(unsigned int cpu, cpumask_t mask)
{
	return (mask >> cpu) & 1;
}
static inline unsigned int cpumask_weight(cpumask_t mask)
{
	unsigned int n = 0;

	for (; mask; mask &= mask - 1)
		n++;
	return n;
}
static inline bool cpu_online(unsigned int cpu)
{
	return cpumask_test_cpu(cpu, READ_ONCE(cpu_online_mask));
}
static inline unsigned int num_online_cpus(void)
{
	return cpumask_weight(READ_ONCE(cpu_online_mask));
}
#define for_each_cpu(cpu, mask)                         \
	for ((cpu) = 0; (cpu) < NR_CPUS; (cpu)++)       \
		if (!cpumask_test_cpu((cpu), (mask))) { \
		} else
#define for_each_possible_cpu(cpu) for ((cpu) = 0; (cpu) < nr_cpu_ids; (cpu)++)
#define for_each_online_cpu(cpu) for_each_cpu(cpu, READ_ONCE(cpu_online_mask))

/* Only stable where the caller cannot migrate (preemption off); else a hint. */
#define smp_processor_id() raw_smp_processor_id()

struct seq_buf;
/**
 * arch_show_cpuinfo() - /proc/cpuinfo's lines about a CPU after "processor"
 * @s: the buffer
 * @cpu: the CPU
 *
 * The platform's: vendor, model name and clock, from CPUID (the CPU that reads, which is
 * the same model as every other), and the CPU's APIC id.
 *
 * Context: process context; may sleep (@s grows).
 */
void arch_show_cpuinfo(struct seq_buf *s, unsigned int cpu);

/**
 * arch_tlb_local_flushes() - the whole-TLB flushes the CPUs did of themselves since boot
 *
 * /proc/vmstat's nr_tlb_local_flush_all (Linux counts it with CONFIG_DEBUG_TLBFLUSH): each
 * CR3 reload to drop the kernel's translations, a shootdown's received ones included, and
 * under QEMU's TCG the reload every CPU does once per 100 ms.
 *
 * Context: any context.
 * Return: the count (0 where the platform has no TLB).
 */
unsigned long arch_tlb_local_flushes(void);

/**
 * set_cpu_online() - a CPU is ready to run tasks, or no longer
 * @cpu: the CPU (the boot CPU at start-up, the others as they come up)
 * @online: its new state
 *
 * percpu_counter_batch follows the number of online CPUs.
 *
 * Context: any context.
 */
void set_cpu_online(unsigned int cpu, bool online);

#endif
