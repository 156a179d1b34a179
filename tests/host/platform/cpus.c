/* Virtual CPUs for per-CPU data (host.h): the possible CPUs and which one the caller acts as. */
#include <cgwb/smp.h>
#include <cgwb/irqflags.h>
#include <cgwb/bug.h>
#include "host.h"

void host_set_nr_cpus(unsigned int n)
{
	BUG_ON(n == 0 || n > NR_CPUS || raw_smp_processor_id() >= n);
	nr_cpu_ids = n;
}

void host_set_cpu(unsigned int cpu)
{
	BUG_ON(cpu >= nr_cpu_ids);
	/* a lock held, or an interrupt that could fire, would see its CPU change under it */
	BUG_ON(preempt_count() != 0 || irqs_disabled());
	__pcpu_hot_write(cpu_number, cpu);
}
