/*
 * Node-wide page counters and VM event counters (portable).
 *
 * The page counters are per CPU, as Linux's vm_node_stat_diff: a CPU adds into its own
 * small difference and folds it into the shared count only when it passes the threshold,
 * so a page dirtied, written or cleaned on any CPU touches that CPU's cache line and not
 * one counter that every CPU writes. The shared count alone (global_node_page_state(),
 * what the dirty limits read, as Linux) is off by up to threshold x CPUs per item; the
 * snapshot adds the differences (the /proc files, and tests). Linux folds the differences
 * every second and when a CPU idles; here nothing folds them but their own updates, which
 * is why the /proc files show snapshots.
 */
#include <cgwb/vmstat.h>
#include <cgwb/mm.h>
#include <cgwb/memcontrol.h>
#include <cgwb/irqflags.h>
#include <cgwb/smp.h>
#include <cgwb/bug.h>

static long vm_node_stat[NR_VM_NODE_STAT_ITEMS];
static unsigned long vm_events[NR_VM_EVENT_ITEMS];

/* A CPU's differences on a cache line of its own. */
struct per_cpu_nodestat {
	s8 vm_node_stat_diff[NR_VM_NODE_STAT_ITEMS];
} __aligned(64);
static DEFINE_PER_CPU(struct per_cpu_nodestat, per_cpu_nodestats);

/* 0 until refresh_node_stat_thresholds(): every update folds, the counts are exact. */
static int stat_threshold;

static const char *const node_stat_names[NR_VM_NODE_STAT_ITEMS] = {
	[NR_FILE_PAGES] = "nr_file_pages",
	[NR_FILE_DIRTY] = "nr_dirty",
	[NR_WRITEBACK] = "nr_writeback",
	[NR_DIRTIED] = "nr_dirtied",
	[NR_WRITTEN] = "nr_written",
	[NR_ACTIVE_FILE] = "nr_active_file",
	[NR_INACTIVE_FILE] = "nr_inactive_file",
	[NR_UNEVICTABLE] = "nr_unevictable",
	[NR_SHMEM] = "nr_shmem",
};

static const char *const vm_event_names[NR_VM_EVENT_ITEMS] = {
	[PGPGIN] = "pgpgin",
	[PGPGOUT] = "pgpgout",
	[PGSCAN] = "pgscan",
	[PGSTEAL] = "pgsteal",
	[PGACTIVATE] = "pgactivate",
	[PGDEACTIVATE] = "pgdeactivate",
	[PGREFILL] = "pgrefill",
	[PGFAULT_UNUSED] = "pgfault",
	[WORKINGSET_UNUSED] = "workingset_refault_file",
	[PGROTATED] = "pgrotated",
	[DROP_PAGECACHE] = "drop_pagecache",
};

static int fls_ul(unsigned long x)
{
	return x ? (int)(64 - __builtin_clzl(x)) : 0;
}

/*
 * Linux's calculate_normal_threshold(): more CPUs and more memory, fewer folds; never
 * more than 125 (the differences are s8).
 */
void refresh_node_stat_thresholds(void)
{
	unsigned long mem = totalram_pages >> (27 - PAGE_SHIFT); /* in 128 MiB */
	int t = 2 * fls_ul(num_online_cpus()) * (1 + fls_ul(mem));

	WRITE_ONCE(stat_threshold, min(t, 125));
}

/* Interrupts off: IO completions count pages from interrupt handlers. */
void mod_node_page_state(enum node_stat_item item, long delta)
{
	struct per_cpu_nodestat *pcp;
	long t = READ_ONCE(stat_threshold);
	unsigned long flags;
	long x;

	local_irq_save(flags);
	pcp = this_cpu_ptr(&per_cpu_nodestats);
	x = pcp->vm_node_stat_diff[item] + delta;
	if (x > t || x < -t) {
		__atomic_add_fetch(&vm_node_stat[item], x, __ATOMIC_RELAXED);
		x = 0;
	}
	pcp->vm_node_stat_diff[item] = (s8)x;
	local_irq_restore(flags);
}

/*
 * The shared count and every CPU's difference: exact at rest; while CPUs fold, a
 * difference may be seen both before and after its fold, or neither.
 */
long global_node_page_state_signed(enum node_stat_item item)
{
	long x = READ_ONCE(vm_node_stat[item]);
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		x += READ_ONCE(per_cpu(per_cpu_nodestats, cpu).vm_node_stat_diff[item]);
	return x;
}

unsigned long global_node_page_state_snapshot(enum node_stat_item item)
{
	long x = global_node_page_state_signed(item);

	return x > 0 ? (unsigned long)x : 0;
}

/* The differences may have the shared count below 0 for a while. */
unsigned long global_node_page_state(enum node_stat_item item)
{
	long x = READ_ONCE(vm_node_stat[item]);

	return x > 0 ? (unsigned long)x : 0;
}

void count_vm_events(enum vm_event_item item, unsigned long n)
{
	__atomic_add_fetch(&vm_events[item], n, __ATOMIC_RELAXED);
}

unsigned long global_vm_event(enum vm_event_item item)
{
	return READ_ONCE(vm_events[item]);
}

const char *node_stat_name(enum node_stat_item item)
{
	return node_stat_names[item];
}

const char *vm_event_name(enum vm_event_item item)
{
	return vm_event_names[item];
}

void mod_page_state(struct page *page, enum node_stat_item item, long delta)
{
	mod_node_page_state(item, delta);
	mem_cgroup_mod_page_state(page, item, delta);
}
