/* Virtual CPUs for per-CPU data (host.h): the possible CPUs and which one the caller acts as. */
#include <cgwb/smp.h>
#include <cgwb/irqflags.h>
#include <cgwb/bug.h>
#include <cgwb/rcupdate.h>
#include "host.h"

void host_set_nr_cpus(unsigned int n)
{
	BUG_ON(n == 0 || n > NR_CPUS || raw_smp_processor_id() >= n);
	nr_cpu_ids = n;
}

void host_set_cpu(unsigned int cpu)
{
	BUG_ON(cpu >= nr_cpu_ids || host_smp_on); /* with real virtual CPUs, run a task there */
	/* a lock held, or an interrupt that could fire, would see its CPU change under it */
	BUG_ON(preempt_count() != 0 || irqs_disabled());
	__pcpu_hot_write(cpu_number, cpu);
}

void host_rcu_cpu_online(unsigned int cpu, bool online)
{
	BUG_ON(cpu == 0 || cpu >= nr_cpu_ids);
	/* not cpu_online_mask: the scheduler would queue tasks on a CPU that never runs them */
	if (online)
		__atomic_fetch_or(&rcu_parked_cpus, 1UL << cpu, __ATOMIC_SEQ_CST);
	else
		__atomic_fetch_and(&rcu_parked_cpus, ~(1UL << cpu), __ATOMIC_SEQ_CST);
}

void host_rcu_quiescent(unsigned int cpu)
{
	unsigned int me = raw_smp_processor_id();

	host_set_cpu(cpu);
	local_irq_disable(); /* as the scheduler reports: interrupts off */
	rcu_note_context_switch();
	local_irq_enable();
	host_set_cpu(me);
}
