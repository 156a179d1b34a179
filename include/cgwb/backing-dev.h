/*
 * Backing devices and writeback contexts (Linux 4.2+ model).
 *
 * A backing_dev_info (bdi) per disk holds device-wide configuration and the set of its
 * writeback contexts; a bdi_writeback (wb) holds everything "per writeback stream": the dirty
 * inode lists, the flusher work, the counters and the bandwidth estimate. The root wb is
 * embedded in the bdi and serves the root cgroup; per-cgroup wbs (cgwbs) come with cgroup
 * writeback and use exactly the same code paths.
 */
#ifndef CGWB_BACKING_DEV_H
#define CGWB_BACKING_DEV_H

#include <cgwb/bitops.h>
#include <cgwb/list.h>
#include <cgwb/spinlock.h>
#include <cgwb/mutex.h>
#include <cgwb/workqueue.h>
#include <cgwb/writeback.h>
#include <cgwb/xarray.h>
#include <cgwb/flex_proportions.h>
#include <cgwb/fs.h>
#include <cgwb/blkdev.h>
#include <cgwb/percpu_counter.h>
#include <cgwb/bug.h>

struct inode;
struct mem_cgroup;
struct blkcg;
struct gendisk;

enum wb_stat_item {
	WB_RECLAIMABLE, /* dirty pages of this wb's inodes */
	WB_WRITEBACK,   /* pages under writeback */
	WB_DIRTIED,     /* pages dirtied (history) */
	WB_WRITTEN,     /* pages written (history) */
	NR_WB_STAT_ITEMS,
};

/* wb->state bits */
enum wb_state {
	WB_registered,        /* accepts work */
	WB_writeback_running, /* the flusher is busy */
	WB_has_dirty_io,      /* b_dirty/b_io/b_more_io not all empty */
	WB_start_all,         /* a "write everything" request is pending */
};

#define BDI_CAP_WRITEBACK (1U << 0)      /* pages are dirty-accounted and written back */
#define BDI_CAP_WRITEBACK_ACCT (1U << 1) /* pages under writeback are counted in WB_WRITEBACK */
#define BDI_CAP_STRICTLIMIT (1U << 2)

#define WB_BW_WINDOW 8

/* 100 MB/s in pages per second: the first estimate of a new wb's bandwidth */
#define INIT_BW (100 << (20 - PAGE_SHIFT))

struct backing_dev_info;

struct bdi_writeback {
	struct backing_dev_info *bdi;
	unsigned long state;
	unsigned long last_old_flush; /* last periodic (kupdate) pass */

	spinlock_t list_lock;          /* the lists below and inode->i_wb changes */
	struct list_head b_dirty;      /* newest first, by dirtied_when */
	struct list_head b_io;         /* selected for this pass, consumed from the tail */
	struct list_head b_more_io;    /* need another pass */
	struct list_head b_dirty_time; /* only lazy timestamps dirty */
	struct list_head b_attached;   /* clean inodes still owned (cgwbs only) */

	struct percpu_counter stat[NR_WB_STAT_ITEMS]; /* read off by < wb_stat_error() */
	long writeback_inodes; /* inodes with pages under writeback; atomic (Linux's atomic_t):
				  changed under each inode's own i_pages lock */

	unsigned long bw_time_stamp; /* bandwidth estimation checkpoints */
	unsigned long dirtied_stamp;
	unsigned long written_stamp;
	unsigned long write_bandwidth; /* pages/s */
	unsigned long avg_write_bandwidth;
	/* completions over the last 8 estimator intervals (dirty_bandwidth_seconds policy) */
	struct wb_bw_sample {
		unsigned long time, written;
	} bw_window[WB_BW_WINDOW];
	unsigned int bw_window_head;            /* the oldest sample */
	unsigned long dirty_ratelimit;          /* per-task dirty rate at the setpoint, pages/s */
	unsigned long balanced_dirty_ratelimit; /* the last estimate it moves toward */
	int dirty_exceeded; /* over its share and its domain over thresh: check often */
	long last_pause;    /* jiffies: the last balance_dirty_pages() sleep */
	/*
	 * A dirty-throttling policy's, which it alone sets (mm/dirty-policy*.c): a counter
	 * of its own that the wb's dirty + writeback pages go to as well (wb_stat_mod()), or
	 * NULL, and the wb's place in one list of the policy's, with a mark it keeps there.
	 */
	struct percpu_counter *policy_pages;
	struct list_head policy_node;
	int policy_mark;

	spinlock_t work_lock; /* work_list and the arming of dwork */
	struct list_head work_list;
	struct delayed_work dwork;    /* the flusher */
	struct delayed_work bw_dwork; /* bandwidth refresh after writeback ends */

	/* cgroup writeback (cgwbs; the root wb has memcg/blkcg of the root) */
	long refcnt; /* cgwbs only (the root wb is not counted): references | WB_REF_DEAD */
	struct work_struct release_work;
	struct rcu_head rcu; /* freed a grace period after its release (RCU lookups) */
	struct mem_cgroup *memcg;
	struct blkcg *blkcg;
	struct list_head bdi_node; /* on bdi->wb_list */
	struct list_head memcg_node;
	struct list_head blkcg_node;
	struct list_head offline_node;
	struct fprop_local completions;       /* share of writeback completions, global domain */
	struct fprop_local memcg_completions; /* the same in its memcg's domain */
	unsigned long id;                     /* a small number for /sys/kernel/debug output */
};

struct backing_dev_info {
	u64 id;                    /* unique, never reused */
	struct list_head bdi_list; /* all bdis */
	char dev_name[32];         /* "254:0" */
	unsigned int capabilities;
	unsigned int min_ratio, max_ratio; /* share of the dirty threshold, BDI_RATIO_SCALE units */
	unsigned long max_prop_frac;       /* FPROP_FRAC_BASE x max_ratio / 100 % */
	/* sum of avg_write_bandwidth over wbs with dirty IO: each wb adds and takes its own part
	 * under its list_lock, so the sum changes atomically (Linux's atomic_long_t) */
	unsigned long tot_write_bandwidth;
	struct bdi_writeback wb;  /* the root wb */
	struct list_head wb_list; /* root first, then cgwbs (cgwb_lock) */
	struct xarray cgwb_tree;  /* memcg css id -> live cgwb (cgwb_lock; RCU to read) */
	struct rw_semaphore wb_switch_rwsem;
	bool wb_audit; /* record the attribution audit (fs/fs-writeback-audit.c) */
	struct gendisk *disk;
	int refcnt;
	struct timer_list laptop_mode_wb_timer; /* laptop mode: writeback after the last IO */
};

extern struct backing_dev_info noop_backing_dev_info; /* ramfs, pseudo filesystems */
extern struct workqueue_struct *bdi_wq;               /* the flushers' workqueue */

/**
 * bdi_alloc() - allocate a backing device, with its root wb
 *
 * It can write back and account dirty pages (BDI_CAP_WRITEBACK, BDI_CAP_WRITEBACK_ACCT),
 * with no min_ratio and a max_ratio of 100 %, and one reference.
 *
 * Context: process context; may sleep.
 * Return: the bdi, or NULL without memory.
 */
struct backing_dev_info *bdi_alloc(void);
/**
 * bdi_register() - name a backing device and make it known
 * @bdi: the bdi from bdi_alloc()
 * @fmt: the printf format of its name ("254:0")
 * @...: the format's arguments
 *
 * It gets its id (never reused) and goes on the list of bdis; its root wb may take work
 * from then on.
 *
 * Context: process context; never sleeps.
 * Return: 0.
 */
int bdi_register(struct backing_dev_info *bdi, const char *fmt, ...) __printf(2, 3);
void bdi_unregister(struct backing_dev_info *bdi);
void bdi_put(struct backing_dev_info *bdi);
/**
 * for_each_bdi() - call a function for each registered backing device
 * @fn: called with each bdi and @arg
 * @arg: passed to @fn
 *
 * The list is walked without bdi_lock: a bdi unregistered meanwhile is not expected (the
 * disks are never removed).
 *
 * Context: any context; @fn's own.
 */
void for_each_bdi(void (*fn)(struct backing_dev_info *, void *), void *arg);
/**
 * bdi_get_by_id() - find a backing device by its id
 * @id: the id (bdi->id)
 *
 * Unlike Linux's, no reference is taken, and the list is walked without bdi_lock, as
 * for_each_bdi().
 *
 * Context: any context; never sleeps.
 * Return: the bdi, or NULL.
 */
struct backing_dev_info *bdi_get_by_id(u64 id);
/**
 * backing_dev_init() - start the backing devices
 *
 * The flushers' workqueue (bdi_wq, "writeback", unbound), the no-op bdi of filesystems
 * without a device, and cgroup writeback's own state.
 *
 * Context: boot, once (storage_init()).
 */
void backing_dev_init(void);

static inline bool bdi_cap_writeback(const struct backing_dev_info *bdi)
{
	return bdi->capabilities & BDI_CAP_WRITEBACK;
}

/*
 * The bdi's guaranteed (min) and capped (max) share of the dirty threshold, as in Linux's
 * /sys/class/bdi knobs: -EINVAL out of 0..100 %, when min would pass max, or when the sum of
 * every bdi's min_ratio would reach 100 %. Ratios in BDI_RATIO_SCALE units; bytes are turned
 * into ratios of the current global dirty threshold.
 */
extern unsigned int bdi_min_ratio; /* sum over bdis */
/**
 * bdi_set_min_ratio() - set a backing device's guaranteed share (min_ratio)
 * @bdi: the bdi
 * @min_ratio: the share of the dirty threshold, in percent
 *
 * Context: any context; takes the ratios' irq-safe lock; never sleeps.
 * Return: 0, or -EINVAL out of 0..100 %, above the bdi's max_ratio, or when the sum of
 * every bdi's min_ratio would reach 100 %.
 */
int bdi_set_min_ratio(struct backing_dev_info *bdi, unsigned int min_ratio);
/**
 * bdi_set_max_ratio() - set a backing device's capped share (max_ratio)
 * @bdi: the bdi
 * @max_ratio: the share of the dirty threshold, in percent
 *
 * Its share of the writeback completions is capped there too (max_prop_frac).
 *
 * Context: any context; takes the ratios' irq-safe lock; never sleeps.
 * Return: 0, or -EINVAL out of 0..100 % or below the bdi's min_ratio.
 */
int bdi_set_max_ratio(struct backing_dev_info *bdi, unsigned int max_ratio);
/**
 * bdi_set_min_ratio_no_scale() - bdi_set_min_ratio() in BDI_RATIO_SCALE units
 * @bdi: the bdi
 * @min_ratio: the share, 100 % being 100 x BDI_RATIO_SCALE (the min_ratio_fine file)
 *
 * Context: any context; never sleeps.
 * Return: 0, or -EINVAL as bdi_set_min_ratio().
 */
int bdi_set_min_ratio_no_scale(struct backing_dev_info *bdi, unsigned int min_ratio);
/**
 * bdi_set_max_ratio_no_scale() - bdi_set_max_ratio() in BDI_RATIO_SCALE units
 * @bdi: the bdi
 * @max_ratio: the share, 100 % being 100 x BDI_RATIO_SCALE (the max_ratio_fine file)
 *
 * Context: any context; never sleeps.
 * Return: 0, or -EINVAL as bdi_set_max_ratio().
 */
int bdi_set_max_ratio_no_scale(struct backing_dev_info *bdi, unsigned int max_ratio);
/**
 * bdi_set_min_bytes() - set min_ratio from a size (the min_bytes file)
 * @bdi: the bdi
 * @min_bytes: the size, turned into a ratio of the current global dirty threshold
 *
 * Context: any context; never sleeps.
 * Return: 0, or -EINVAL for a size above the threshold or as bdi_set_min_ratio().
 */
int bdi_set_min_bytes(struct backing_dev_info *bdi, u64 min_bytes);
/**
 * bdi_set_max_bytes() - set max_ratio from a size (the max_bytes file)
 * @bdi: the bdi
 * @max_bytes: the size, turned into a ratio of the current global dirty threshold
 *
 * Context: any context; never sleeps.
 * Return: 0, or -EINVAL for a size above the threshold or as bdi_set_max_ratio().
 */
int bdi_set_max_bytes(struct backing_dev_info *bdi, u64 max_bytes);
/**
 * bdi_get_min_bytes() - min_ratio as a size of the current global dirty threshold
 * @bdi: the bdi
 *
 * Context: any context; never sleeps.
 * Return: the size in bytes.
 */
u64 bdi_get_min_bytes(struct backing_dev_info *bdi);
/**
 * bdi_get_max_bytes() - max_ratio as a size of the current global dirty threshold
 * @bdi: the bdi
 *
 * Context: any context; never sleeps.
 * Return: the size in bytes.
 */
u64 bdi_get_max_bytes(struct backing_dev_info *bdi);
/**
 * bdi_set_strict_limit() - throttle on the bdi's own share even while the domain runs free
 * @bdi: the bdi
 * @strict_limit: 1 on (BDI_CAP_STRICTLIMIT, FUSE's in Linux), 0 off
 *
 * Context: process context (the strict_limit file); never sleeps.
 * Return: 0, or -EINVAL for another value.
 */
int bdi_set_strict_limit(struct backing_dev_info *bdi, unsigned int strict_limit);

/* ---------------------------------------------------------------- counters */
/*
 * Per-CPU counters, as Linux's: an update folds into the shared count once a CPU's part
 * reaches WB_STAT_BATCH pages, so wb_stat() may be off by up to wb_stat_error() (pages
 * parked on every CPU) and may even have gone below 0 for a while (read as 0).
 * wb_stat_sum() adds every CPU's part: readers comparing with a bound that is not large
 * against the error use it (Linux's rule: when the bound is < 2 x wb_stat_error()).
 */
#define WB_STAT_BATCH (8 * (1 + ilog2(nr_cpu_ids)))

/* The most wb_stat() can be off by: every CPU's part just under the batch. */
static inline unsigned long wb_stat_error(void)
{
	return nr_cpu_ids * (unsigned long)WB_STAT_BATCH;
}

static inline void wb_stat_mod(struct bdi_writeback *wb, enum wb_stat_item item, s64 amount)
{
	struct percpu_counter *policy_pages;

	percpu_counter_add_batch(&wb->stat[item], amount, WB_STAT_BATCH);
	if (item == WB_RECLAIMABLE || item == WB_WRITEBACK) {
		policy_pages = READ_ONCE(wb->policy_pages);
		if (policy_pages)
			percpu_counter_add_batch(policy_pages, amount, WB_STAT_BATCH);
	}
	/* a count never below 0 leaves the shared one at most the CPUs' parts below it */
	WARN_ON_ONCE(percpu_counter_read(&wb->stat[item]) < -(s64)wb_stat_error());
}
static inline s64 wb_stat(const struct bdi_writeback *wb, enum wb_stat_item item)
{
	return percpu_counter_read_positive(&wb->stat[item]);
}
static inline s64 wb_stat_sum(struct bdi_writeback *wb, enum wb_stat_item item)
{
	return percpu_counter_sum_positive(&wb->stat[item]);
}
/* Writeback completion of n pages: WB_WRITTEN and the completion shares. */
void __wb_writeout_add(struct bdi_writeback *wb, long n);

/* ---------------------------------------------------------------- state */
static inline bool wb_has_dirty_io(const struct bdi_writeback *wb)
{
	return test_bit(WB_has_dirty_io, &wb->state);
}
bool bdi_has_dirty_io(struct backing_dev_info *bdi);
static inline bool writeback_in_progress(const struct bdi_writeback *wb)
{
	return test_bit(WB_writeback_running, &wb->state);
}

/**
 * wb_wakeup() - run a wb's flusher now
 * @wb: the wb; nothing is done once it is shut down (not WB_registered)
 *
 * Context: any context; takes @wb->work_lock (irq-safe); never sleeps.
 */
void wb_wakeup(struct bdi_writeback *wb);
/**
 * wb_wakeup_delayed() - run a wb's flusher after dirty_writeback_interval
 * @wb: the wb; nothing is done once it is shut down
 *
 * An earlier arming is kept: a late dirtier never postpones the flusher.
 *
 * Context: any context; takes @wb->work_lock (irq-safe); never sleeps.
 */
void wb_wakeup_delayed(struct bdi_writeback *wb);

/* The bdi an inode's pages are written to: its disk's for a block device inode. */
static inline struct backing_dev_info *inode_to_bdi(struct inode *inode)
{
	struct super_block *sb = inode->i_sb;

	if (!sb)
		return &noop_backing_dev_info;
	if (sb->s_iflags & SB_I_BDEV)
		return inode->i_bdev->bd_disk->bdi;
	return sb->s_bdi ? sb->s_bdi : &noop_backing_dev_info;
}

/* ---------------------------------------------------------------- inode <-> wb */
/**
 * inode_to_wb() - the wb that writes an inode back
 * @inode: the inode
 *
 * No reference is taken: the inode's own keeps its wb, but a switch may replace it at any
 * time. A caller that updates the wb's counts holds the i_pages lock or uses
 * unlocked_inode_to_wb_begin(); one that keeps the wb takes a reference (wb_get()).
 *
 * Context: any context; never sleeps.
 * Return: the inode's wb, attached on its first dirtying; its bdi's root wb before that.
 */
struct bdi_writeback *inode_to_wb(const struct inode *inode);
/**
 * inode_attach_wb() - give an inode a wb if it has none (Linux's __inode_attach_wb())
 * @inode: the inode
 * @page: the page being dirtied, whose memcg picks the wb; NULL for the current task's
 *
 * The root wb if cgroup writeback does not apply to the inode or the memcg's wb cannot be
 * made (always correct, merely unattributed). Racing attachers: the first one wins.
 *
 * Context: any task context; allocates with GFP_ATOMIC; never sleeps.
 */
void inode_attach_wb(struct inode *inode, struct page *page);
/**
 * inode_detach_wb() - drop an inode's wb reference, at eviction
 * @inode: the inode, being freed
 *
 * Context: process context; never sleeps.
 */
void inode_detach_wb(struct inode *inode);

/*
 * A wb page-count update that does not hold the mapping's i_pages lock (clearing dirty for
 * IO, cancelling, redirtying), as Linux: an RCU read-side section around it, and the lock
 * taken only while a switch is pending (I_WB_SWITCH). A switch's second phase runs a grace
 * period after I_WB_SWITCH was set and holds the lock while it moves the counts and i_wb,
 * so no update lands on the old wb after its counts moved (fs/fs-writeback-switch.c).
 */
struct wb_lock_cookie {
	bool locked;
	unsigned long flags;
};

static inline struct bdi_writeback *unlocked_inode_to_wb_begin(struct inode *inode,
							       struct wb_lock_cookie *cookie)
{
	rcu_read_lock();
	cookie->flags = 0; /* only _end() reads it, and only if locked: for the compiler */
	cookie->locked = __atomic_load_n(&inode->i_state, __ATOMIC_ACQUIRE) & I_WB_SWITCH;
	if (unlikely(cookie->locked))
		xa_lock_irqsave(&inode->i_mapping->i_pages, cookie->flags);
	return inode_to_wb(inode);
}

static inline void unlocked_inode_to_wb_end(struct inode *inode, struct wb_lock_cookie *cookie)
{
	if (unlikely(cookie->locked))
		xa_unlock_irqrestore(&inode->i_mapping->i_pages, cookie->flags);
	rcu_read_unlock();
}

/* The inodes on a wb's lists (mm/backing-dev.c), counted under its list_lock. */
struct wb_lists {
	unsigned long dirty, io, more_io, dirty_time;
};
/**
 * wb_count_lists() - count the inodes on a wb's lists
 * @wb: the wb
 * @n: set to the counts of its dirty, io, more_io and dirty_time lists
 *
 * Context: any context where @wb->list_lock may be taken (not held); never sleeps.
 */
void wb_count_lists(struct bdi_writeback *wb, struct wb_lists *n);

/* cgwb reference counting: no-ops on the root wb. */
/**
 * wb_get() - take a reference on a writeback context
 * @wb: the wb, on which the caller holds a reference already (or that it found where one
 *      is held for it); a no-op on the root wb
 *
 * Context: any context; never sleeps.
 */
void wb_get(struct bdi_writeback *wb);
/**
 * wb_put() - drop a reference on a writeback context
 * @wb: the wb; a no-op on the root wb
 *
 * The last reference of a killed cgwb queues its release (the cgwb_release workqueue); it
 * is freed a grace period later, for lockless lookups.
 *
 * Context: any context; never sleeps.
 */
void wb_put(struct bdi_writeback *wb);
/* A reference unless the wb was killed or released; lockless (under RCU if wb may be freed). */
bool wb_tryget(struct bdi_writeback *wb);
static inline bool wb_is_root(const struct bdi_writeback *wb)
{
	return wb == &wb->bdi->wb;
}
/*
 * A cgwb's reference count and its death in one word, Linux's percpu_ref as one atomic: the
 * kill (taking it out of cgwb_tree) sets WB_REF_DEAD, after which wb_tryget() fails although
 * the wb lives on for the inodes that still hold it; the last wb_put() releases it. One word,
 * so a lockless lookup's tryget either wins before the kill or fails, never in between.
 */
#define WB_REF_DEAD (1L << 62)
static inline bool wb_dying(const struct bdi_writeback *wb)
{
	return __atomic_load_n(&wb->refcnt, __ATOMIC_RELAXED) & WB_REF_DEAD;
}

/* ---------------------------------------------------------------- cgroup writeback (mm/backing-dev-cgwb.c) */
/**
 * wb_get_lookup() - the live wb of a memcg on a device
 * @bdi: the device
 * @memcg: the memcg
 *
 * Lockless (RCU). A wb made for the memcg's former io cgroup does not count: the controller
 * moved, and wb_get_create() makes a new one.
 *
 * Context: any context; never sleeps.
 * Return: the wb with a reference (the root wb, not counted, for the root memcg), or NULL
 * if there is none or it was killed.
 */
struct bdi_writeback *wb_get_lookup(struct backing_dev_info *bdi, struct mem_cgroup *memcg);
/**
 * wb_get_create() - the live wb of a memcg on a device, created if needed
 * @bdi: the device
 * @memcg: the memcg
 * @gfp: how to allocate a new wb
 *
 * A new wb pins its memcg, its io cgroup (and that one online: blkcg_pin_online()) and the
 * device.
 *
 * Context: as kmalloc() with @gfp (GFP_ATOMIC where the caller may not sleep).
 * Return: the wb with a reference, or NULL if it cannot be made (no memory, the device
 * unregistered, or a cgroup dying).
 */
struct bdi_writeback *wb_get_create(struct backing_dev_info *bdi, struct mem_cgroup *memcg,
				    gfp_t gfp);
/**
 * bdi_wb_next() - the next wb of a device, for bdi_for_each_wb()
 * @bdi: the device
 * @pos: the current wb, whose reference is dropped here; NULL to start
 *
 * The root wb first, then the cgwbs, killed ones included (they still write their
 * inodes). A loop left early must wb_put() the wb it stopped at.
 *
 * Context: any context; takes cgwb_lock (irq-safe); never sleeps.
 * Return: the next wb with a reference (the root wb is not counted), or NULL at the end.
 */
struct bdi_writeback *bdi_wb_next(struct backing_dev_info *bdi, struct bdi_writeback *pos);
#define bdi_for_each_wb(wb, bdi) for (wb = bdi_wb_next(bdi, NULL); wb; wb = bdi_wb_next(bdi, wb))
/**
 * wb_memcg() - the memory cgroup a wb serves
 * @wb: the wb
 *
 * Context: any context.
 * Return: the memcg (root_mem_cgroup for the root wb); the wb's reference keeps it.
 */
struct mem_cgroup *wb_memcg(const struct bdi_writeback *wb);
/**
 * wb_blkcg() - the io cgroup a wb's IO is charged to
 * @wb: the wb
 *
 * Context: any context.
 * Return: the blkcg (blkcg_root for the root wb); the wb's reference keeps it.
 */
struct blkcg *wb_blkcg(const struct bdi_writeback *wb);
/**
 * wb_memcg_offline() - a memory cgroup goes offline: its wbs die
 * @memcg: the memcg
 *
 * Each wb is killed (no longer found by lookups; it lives on for its inodes), and the
 * switch of their clean inodes to the nearest live ancestor's wb is queued.
 *
 * Context: process context (the css offline callback); never sleeps.
 */
void wb_memcg_offline(struct mem_cgroup *memcg);
/**
 * wb_blkcg_offline() - an io cgroup goes offline: its wbs die
 * @blkcg: the blkcg
 *
 * Their memcgs live on: each inode moves to its memcg's new wb at its next writeback
 * round (wbc_attach_and_unlock_inode()), as in Linux.
 *
 * Context: process context (the css offline callback); never sleeps.
 */
void wb_blkcg_offline(struct blkcg *blkcg);
/**
 * cgwb_schedule_cleanup() - queue the switch of killed wbs' remaining clean inodes
 *
 * After an offline, and whenever a killed wb becomes clean; the work runs on system_wq
 * (cleanup_offline_cgwb()).
 *
 * Context: any context; never sleeps.
 */
void cgwb_schedule_cleanup(void);
/* cgwbs that exist now (live and dying), for tests and debug files. */
unsigned long nr_cgwbs(void);
void cgwb_init(void);
/**
 * inode_cgwb_enabled() - does writeback of an inode go per cgroup?
 * @inode: the inode
 *
 * Context: any context.
 * Return: true on a device with writeback and a filesystem that supports it
 * (SB_I_CGROUPWB).
 */
bool inode_cgwb_enabled(struct inode *inode);

#endif
