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
	NR_ANON_MAPPED, /* programs' private pages (sys/memory.c): charged, never reclaimed */
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
	PGFAULT, /* programs' page faults */
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
/**
 * global_node_page_state() - a page counter, the cheap read
 * @item: the counter
 *
 * The shared count alone: off by up to CPUs x threshold, and exact a second after the
 * updates stop (what the dirty limits use, as Linux's).
 *
 * Context: any context.
 * Return: the count, 0 while the CPUs' differences have it below 0.
 */
unsigned long global_node_page_state(enum node_stat_item item);
/**
 * global_node_page_state_snapshot() - a page counter, every CPU's difference added
 * @item: the counter
 *
 * For the /proc files and checks that compare counters at one instant; exact at rest.
 *
 * Context: any context.
 * Return: the count, 0 if the sum is below 0.
 */
unsigned long global_node_page_state_snapshot(enum node_stat_item item);
/* The snapshot, signed: for checks that counters never go negative. */
long global_node_page_state_signed(enum node_stat_item item);
/**
 * refresh_node_stat_thresholds() - size the counters' fold threshold to the machine
 *
 * Linux's calculate_normal_threshold(): more CPUs and more memory, fewer folds (at most
 * 125). The first call, once the CPUs are up (storage_init()), also starts the background
 * folds and the fold of a CPU about to idle.
 *
 * Context: process context; may sleep (the first call).
 */
void refresh_node_stat_thresholds(void);
/* A CPU about to idle folds its differences (interrupts off), as Linux's quiet_vmstat(). */
void quiet_vmstat(void);
/* Jiffies between a CPU's background folds (Linux's vm.stat_interval; HZ). */
extern unsigned int sysctl_stat_interval;
/**
 * count_vm_events() - add to an event counter (/proc/vmstat)
 * @item: the counter
 * @n: how many events
 *
 * One atomic count for all CPUs (Linux keeps one per CPU and sums them when read).
 *
 * Context: any context; never sleeps.
 */
void count_vm_events(enum vm_event_item item, unsigned long n);
/**
 * global_vm_event() - an event counter (/proc/vmstat)
 * @item: the counter
 *
 * Context: any context.
 * Return: the count.
 */
unsigned long global_vm_event(enum vm_event_item item);
/**
 * node_stat_name() - a page counter's name in /proc/vmstat
 * @item: the counter
 *
 * Context: any context.
 * Return: the name ("nr_dirty"...), static.
 */
const char *node_stat_name(enum node_stat_item item);
/**
 * vm_event_name() - an event counter's name in /proc/vmstat
 * @item: the counter
 *
 * Context: any context.
 * Return: the name ("pgscan"...), static.
 */
const char *vm_event_name(enum vm_event_item item);

/**
 * mod_page_state() - count a page-state change of a page
 * @page: the page
 * @item: the counter (NR_FILE_DIRTY, NR_WRITEBACK...)
 * @delta: the change
 *
 * The node counter and, if the page is charged, its memcg's counter (page->memcg).
 *
 * Context: any context; the caller holds the page's mapping i_pages lock or otherwise
 * serialises against the page's state changes; never sleeps.
 */
void mod_page_state(struct page *page, enum node_stat_item item, long delta);

#endif
