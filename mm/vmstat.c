/*
 * Node-wide page counters and VM event counters (portable).
 *
 * The page counters are per CPU, as Linux's vm_node_stat_diff: a CPU adds into its own
 * small difference and folds it into the shared count only when it passes the threshold,
 * so a page dirtied, written or cleaned on any CPU touches that CPU's cache line and not
 * one counter that every CPU writes. The shared count alone (global_node_page_state(),
 * what the dirty limits read, as Linux) is off by up to threshold x CPUs per item; the
 * snapshot adds the differences (the /proc files, and tests).
 *
 * Differences also fold in the background, as Linux's vmstat_update() and quiet_vmstat(): a
 * per-CPU delayed work every sysctl_stat_interval (a second) folds its CPU's, and a CPU
 * about to idle folds its own. So the shared count is off by at most threshold x CPUs, by
 * differences at most a second old, and exact a second after the updates stop. The works
 * start with the threshold (before it every update folds). A difference changes only by
 * compare-and-exchange (an update) or exchange (a fold), as Linux's mod_node_state(), so
 * neither an interrupt handler's update nor a task's that moved to another CPU between
 * finding its difference and changing it is lost, and nothing turns interrupts off.
 * The snapshot readers keep adding the differences: the /proc files, wbtop and the
 * simulator's counter checks compare these counts exactly with others at any instant.
 */
#include <cgwb/vmstat.h>
#include <cgwb/mm.h>
#include <cgwb/memcontrol.h>
#include <cgwb/smp.h>
#include <cgwb/bug.h>
#include <cgwb/workqueue.h>
#include <cgwb/jiffies.h>

static long vm_node_stat[NR_VM_NODE_STAT_ITEMS];
static unsigned long vm_events[NR_VM_EVENT_ITEMS];

/* A CPU's differences on a cache line of its own. */
struct per_cpu_nodestat {
	s8 vm_node_stat_diff[NR_VM_NODE_STAT_ITEMS];
} __aligned(64);
static DEFINE_PER_CPU(struct per_cpu_nodestat, per_cpu_nodestats);

/* 0 until refresh_node_stat_thresholds(): every update folds, the counts are exact. */
static int stat_threshold;

unsigned int sysctl_stat_interval = HZ; /* jiffies between a CPU's background folds */

struct vmstat_work {
	struct delayed_work dwork;
	unsigned int cpu;
};
static DEFINE_PER_CPU(struct vmstat_work, vmstat_work);
static struct workqueue_struct *vmstat_wq;

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
	[NR_ANON_MAPPED] = "nr_anon_pages",
};

static const char *const vm_event_names[NR_VM_EVENT_ITEMS] = {
	[PGPGIN] = "pgpgin",
	[PGPGOUT] = "pgpgout",
	[PGSCAN] = "pgscan",
	[PGSTEAL] = "pgsteal",
	[PGACTIVATE] = "pgactivate",
	[PGDEACTIVATE] = "pgdeactivate",
	[PGREFILL] = "pgrefill",
	[PGFAULT] = "pgfault",
	[WORKINGSET_UNUSED] = "workingset_refault_file",
	[PGROTATED] = "pgrotated",
	[DROP_PAGECACHE] = "drop_pagecache",
};

static int fls_ul(unsigned long x)
{
	return x ? (int)(64 - __builtin_clzl(x)) : 0;
}

/*
 * Fold cpu's differences into the shared counts: on cpu, or for a CPU that runs no tasks
 * (the host platform's virtual CPUs) by whoever runs its work.
 */
static void fold_cpu_diffs(unsigned int cpu)
{
	struct per_cpu_nodestat *pcp = per_cpu_ptr(&per_cpu_nodestats, cpu);

	WARN_ON_ONCE(cpu != raw_smp_processor_id() && cpu_online(cpu));
	for (int i = 0; i < NR_VM_NODE_STAT_ITEMS; i++) {
		s8 x = __atomic_exchange_n(&pcp->vm_node_stat_diff[i], 0, __ATOMIC_RELAXED);

		if (x)
			__atomic_add_fetch(&vm_node_stat[i], x, __ATOMIC_RELAXED);
	}
}

/* Every second on each CPU, as Linux's before its shepherd: cgwb has no tickless idle to spare. */
static void vmstat_update(struct work_struct *work)
{
	struct vmstat_work *vw = container_of(to_delayed_work(work), struct vmstat_work, dwork);

	fold_cpu_diffs(vw->cpu);
	queue_delayed_work_on((int)vw->cpu, vmstat_wq, &vw->dwork, READ_ONCE(sysctl_stat_interval));
}

static void start_vmstat_work(unsigned int cpu)
{
	struct vmstat_work *vw = per_cpu_ptr(&vmstat_work, cpu);

	vw->cpu = cpu;
	INIT_DELAYED_WORK(&vw->dwork, vmstat_update);
	queue_delayed_work_on((int)cpu, vmstat_wq, &vw->dwork, READ_ONCE(sysctl_stat_interval));
}

static void start_vmstat_updates(void)
{
	unsigned int cpu;

	vmstat_wq = alloc_workqueue("vmstat", WQ_MEM_RECLAIM, 1);
	BUG_ON(!vmstat_wq);
	for_each_possible_cpu(cpu) start_vmstat_work(cpu);
}

/* This CPU is about to idle (interrupts off): leave nothing behind for a second. */
void quiet_vmstat(void)
{
	fold_cpu_diffs(raw_smp_processor_id());
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
	if (!vmstat_wq) {
		/* differences can build up from now on */
		start_vmstat_updates();
		register_cpu_idle_hook(quiet_vmstat);
	}
}

/* Safe from interrupt handlers (IO completions count pages there): see the opening. */
void mod_node_page_state(enum node_stat_item item, long delta)
{
	s8 *diff = &this_cpu_ptr(&per_cpu_nodestats)->vm_node_stat_diff[item];
	long t = READ_ONCE(stat_threshold), x;
	s8 old = READ_ONCE(*diff);
	bool fold;

	do {
		x = old + delta;
		fold = x > t || x < -t;
	} while (!__atomic_compare_exchange_n(diff, &old, fold ? 0 : (s8)x, false, __ATOMIC_RELAXED,
					      __ATOMIC_RELAXED));
	if (fold)
		__atomic_add_fetch(&vm_node_stat[item], x, __ATOMIC_RELAXED);
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
