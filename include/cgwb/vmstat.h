/*
 * Memory statistics: node-wide page counters (/proc/meminfo, /proc/vmstat) and event
 * counters. Page-state counters change together with the per-wb and per-memcg ones at each
 * page transition (see include/cgwb/pagemap.h).
 */
#ifndef CGWB_VMSTAT_H
#define CGWB_VMSTAT_H

#include <cgwb/types.h>

struct page;

enum node_stat_item {
	NR_FILE_PAGES, /* page cache pages */
	NR_FILE_DIRTY,
	NR_WRITEBACK,
	NR_DIRTIED, /* pages dirtied since boot */
	NR_WRITTEN, /* pages written since boot */
	NR_ACTIVE_FILE,
	NR_INACTIVE_FILE,
	NR_UNEVICTABLE, /* ramfs/tmpfs pages */
	NR_SHMEM,
	NR_ANON_MAPPED, /* programs' private pages (sys/mm.c): charged, never reclaimed */
	NR_VM_NODE_STAT_ITEMS,
};

enum vm_event_item {
	PGPGIN,  /* KiB read from disk */
	PGPGOUT, /* KiB written to disk */
	PGSCAN,  /* pages scanned by reclaim */
	PGSTEAL, /* pages reclaimed */
	PGACTIVATE,
	PGDEACTIVATE,
	PGREFILL,
	PGFAULT_UNUSED,
	WORKINGSET_UNUSED,
	PGROTATED,
	DROP_PAGECACHE,
	NR_VM_EVENT_ITEMS,
};

/*
 * The page counters are per CPU (mm/vmstat.c): the cheap read is off by up to
 * CPUs x threshold (what the dirty limits use, as Linux's) and exact a second after the
 * updates stop (background folds); the snapshot adds every CPU's difference (the /proc
 * files; exact at rest).
 */
void mod_node_page_state(enum node_stat_item item, long delta);
unsigned long global_node_page_state(enum node_stat_item item);
unsigned long global_node_page_state_snapshot(enum node_stat_item item);
/* The snapshot, signed: for checks that counters never go negative. */
long global_node_page_state_signed(enum node_stat_item item);
/* The CPUs or the memory changed: the fold threshold follows (CPUs up, at storage start). */
void refresh_node_stat_thresholds(void);
/* A CPU about to idle folds its differences (interrupts off), as Linux's quiet_vmstat(). */
void quiet_vmstat(void);
/* Jiffies between a CPU's background folds (Linux's vm.stat_interval; HZ). */
extern unsigned int sysctl_stat_interval;
void count_vm_events(enum vm_event_item item, unsigned long n);
unsigned long global_vm_event(enum vm_event_item item);
const char *node_stat_name(enum node_stat_item item);
const char *vm_event_name(enum vm_event_item item);

/*
 * A page-state change of page: the node counter and, once memory cgroups exist, the
 * counter of the page's memcg (page->memcg). Callers hold the page's mapping i_pages lock
 * or otherwise serialise against the page's state changes.
 */
void mod_page_state(struct page *page, enum node_stat_item item, long delta);

#endif
