/* Node-wide page counters and VM event counters (portable). */
#include <cgwb/vmstat.h>
#include <cgwb/mm.h>
#include <cgwb/memcontrol.h>
#include <cgwb/irqflags.h>
#include <cgwb/bug.h>

static long node_stat[NR_VM_NODE_STAT_ITEMS];
static unsigned long vm_events[NR_VM_EVENT_ITEMS];

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

void mod_node_page_state(enum node_stat_item item, long delta)
{
	__atomic_add_fetch(&node_stat[item], delta, __ATOMIC_RELAXED);
}

long global_node_page_state_signed(enum node_stat_item item)
{
	return READ_ONCE(node_stat[item]);
}

unsigned long global_node_page_state(enum node_stat_item item)
{
	long v = READ_ONCE(node_stat[item]);

	if (WARN_ON_ONCE(v < 0))
		return 0;
	return (unsigned long)v;
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
