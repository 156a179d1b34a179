/*
 * /proc/cpuinfo and /proc/stat: the CPUs, and the time each spent busy and idle, in Linux's
 * layouts (stat's times in USER_HZ ticks). Everything here runs in the kernel, so a CPU's
 * busy time is all "system".
 */
#include <cgwb/pseudofs.h>
#include <cgwb/sched.h>
#include <cgwb/smp.h>
#include <cgwb/jiffies.h>
#include <cgwb/string.h>
#include "proc.h"

#define USER_HZ 100

static int cpuinfo_show(struct seq_buf *s, void *private)
{
	unsigned int cpu;

	(void)private;
	for_each_online_cpu(cpu)
	{
		seq_printf(s, "processor\t: %u\n", cpu);
		arch_show_cpuinfo(s, cpu);
		seq_puts(s, "\n");
	}
	return 0;
}

static u64 to_user_hz(u64 ns)
{
	return ns / (NSEC_PER_SEC / USER_HZ);
}

static void stat_cpu_line(struct seq_buf *s, const char *name, u64 busy_ns, u64 idle_ns)
{
	seq_printf(s, "%s 0 0 %llu %llu 0 0 0 0 0 0\n", name, to_user_hz(busy_ns),
		   to_user_hz(idle_ns));
}

static int stat_show(struct seq_buf *s, void *private)
{
	u64 now = ktime_get_ns(), busy[NR_CPUS], idle[NR_CPUS], all_busy = 0, all_idle = 0;
	unsigned int cpu;
	char name[8];

	(void)private;
	for_each_online_cpu(cpu)
	{
		idle[cpu] = min(cpu_idle_time_ns(cpu), now);
		busy[cpu] = now - idle[cpu];
		all_busy += busy[cpu];
		all_idle += idle[cpu];
	}
	stat_cpu_line(s, "cpu ", all_busy, all_idle);
	for_each_online_cpu(cpu)
	{
		snprintf(name, sizeof(name), "cpu%u", cpu);
		stat_cpu_line(s, name, busy[cpu], idle[cpu]);
	}
	seq_printf(s, "ctxt %llu\n", nr_context_switches());
	seq_printf(s, "btime %llu\n", (ktime_get_real_ns() - now) / NSEC_PER_SEC);
	seq_printf(s, "procs_running %u\n", nr_running());
	return 0;
}

void proc_cpus_init(struct pseudo_node *root)
{
	pseudo_create_file(root, "cpuinfo", 0444, cpuinfo_show, NULL, NULL);
	pseudo_create_file(root, "stat", 0444, stat_show, NULL, NULL);
}
