/*
 * Writeback control: how much to write and how, the cgroup side of a writeback round
 * (wbc_attach_and_unlock_inode ... wbc_detach_inode) with foreign-owner detection and inode
 * wb switching, the flusher's entry points, the wb_domains, the dirty limits others read,
 * the dirty-throttling policies and the dirty-memory sysctls. The control law's internals
 * are mm/'s own (mm/internal.h).
 */
#ifndef CGWB_WRITEBACK_H
#define CGWB_WRITEBACK_H

#include <cgwb/types.h>
#include <cgwb/timer.h>
#include <cgwb/spinlock.h>
#include <cgwb/flex_proportions.h>
#include <cgwb/wait.h>
#include <cgwb/jiffies.h>
#include <cgwb/mm.h>

struct inode;
struct page;
struct bio;
struct super_block;
struct bdi_writeback;
struct backing_dev_info;
struct address_space;
struct mem_cgroup;
struct seq_buf;

enum writeback_sync_modes {
	WB_SYNC_NONE, /* best effort: skip busy pages and inodes */
	WB_SYNC_ALL,  /* data integrity: write and wait for everything dirty at the start */
};

enum wb_reason {
	WB_REASON_BACKGROUND,
	WB_REASON_VMSCAN,
	WB_REASON_SYNC,
	WB_REASON_PERIODIC,
	WB_REASON_LAPTOP_TIMER,
	WB_REASON_FS_FREE_SPACE,
	WB_REASON_FORKER_THREAD,
	WB_REASON_FOREIGN_FLUSH,
	WB_REASON_MAX,
};
const char *wb_reason_name(enum wb_reason reason);

struct writeback_control {
	long nr_to_write;   /* pages left to write in this round */
	long pages_skipped; /* pages not written (locked buffers...) */
	loff_t range_start, range_end;
	enum writeback_sync_modes sync_mode;
	unsigned for_kupdate : 1;
	unsigned for_background : 1;
	unsigned tagged_writepages : 1;
	unsigned for_reclaim : 1;
	unsigned range_cyclic : 1;
	unsigned for_sync : 1;
	unsigned no_cgroup_owner : 1;

	/* cgroup writeback: the wb the inode is written under, and foreign-owner voting */
	struct bdi_writeback *wb;
	struct inode *inode;
	int wb_id;       /* css id of wb's memcg */
	int wb_lcand_id; /* last round's winner */
	int wb_tcand_id; /* this round's Boyer-Moore candidate */
	size_t wb_bytes;
	size_t wb_lcand_bytes;
	size_t wb_tcand_bytes;
	size_t wb_round_bytes;  /* everything written this round (the opt-in fast switch) */
	unsigned frn_clear : 1; /* opt-in: clearly another group's already; a best-effort
				    * round ends here so that it switches (write_cache_pages) */
	/* opt-in: a sync pass that another follows if it leaves an inode to a switch
	 * (sync_inodes_sb): a clear round may end it too, as a best-effort one */
	unsigned frn_pass_repeats : 1;
};

#define WBC_RANGE_WHOLE(wbc) ((wbc)->range_start == 0 && (wbc)->range_end == LLONG_MAX)

/**
 * wbc_init_bio() - charge a writeback bio to the io cgroup of the wb being written
 * @wbc: the writeback control, attached to an inode (wbc_attach_and_unlock_inode())
 * @bio: the bio about to carry the wb's pages, not submitted yet
 *
 * The bio's blkcg becomes the wb's, in place of any it had: the IO that writes the pages
 * back is then charged to the group that owns the inode's writeback, not to the flusher.
 * No reference is taken here; submit_bio() takes the bio's own. Does nothing when @wbc is
 * not attached to a wb.
 *
 * Context: any context; never sleeps.
 */
void wbc_init_bio(struct writeback_control *wbc, struct bio *bio);
/**
 * wbc_account_cgroup_owner() - count bytes written for a page's memory cgroup
 * @wbc: the writeback control of this round
 * @page: a page (or the page of a block) just added to a writeback bio
 * @bytes: how many of its bytes that bio writes
 *
 * Feeds the foreign-owner vote of the round (wbc_detach_inode() decides it) and, when the
 * device's audit is on, the attribution audit. Pages of a dying memcg do not vote. Linux
 * before 5.3 called it wbc_account_io().
 *
 * Context: the page is locked or under writeback (its memcg is stable); never sleeps.
 */
void wbc_account_cgroup_owner(struct writeback_control *wbc, struct page *page, size_t bytes);
/* Attach wbc to inode for one writeback round (takes a wb reference) and drop i_lock. */
void wbc_attach_and_unlock_inode(struct writeback_control *wbc, struct inode *inode);
/**
 * wbc_attach_fdatawrite_inode() - attach a writeback control to an inode's wb
 * @wbc: the writeback control of a round outside the flusher (fsync, filemap_fdatawrite)
 * @inode: the inode to write
 *
 * As wbc_attach_and_unlock_inode(), for callers that do not hold @inode->i_lock: the inode
 * is given a wb first if it has none (the current task's memcg's), then @wbc takes a
 * reference on it. wbc_detach_inode() ends the round.
 *
 * Context: process context; takes and drops @inode->i_lock; never sleeps.
 */
void wbc_attach_fdatawrite_inode(struct writeback_control *wbc, struct inode *inode);
/**
 * wbc_detach_inode() - end a writeback round of an inode
 * @wbc: the writeback control attached by wbc_attach_and_unlock_inode() or
 *       wbc_attach_fdatawrite_inode()
 *
 * Folds the round's bytes into the inode's foreign-owner history and, when another memcg
 * has clearly been writing the inode, queues a switch of the inode to that memcg's wb
 * (inode_switch_wbs()). Then drops the wb reference the attach took. Does nothing when
 * @wbc is not attached.
 *
 * Context: any context; never sleeps (the switch itself runs from a worker).
 */
void wbc_detach_inode(struct writeback_control *wbc);

/*
 * The two halves of the vote, apart from the pages and the switch so that unit tests can
 * feed them numbers: wbc_account_owner_id() counts bytes written for memcg id (what
 * wbc_account_cgroup_owner does once it knows the page's memcg), wbc_foreign_verdict()
 * folds the round into the inode's i_wb_frn_* history at bandwidth bw (pages/s) and returns
 * the memcg id the inode should switch to, or 0 (what wbc_detach_inode decides).
 */
void wbc_account_owner_id(struct writeback_control *wbc, int id, size_t bytes);
int wbc_foreign_verdict(struct writeback_control *wbc, struct inode *inode, unsigned long bw);

/*
 * Opt-in faster detection (off by default; /proc/sys/vm/dirty_foreign_fast_switch): switch
 * after one round that is clearly foreign (a best-effort round ends as soon as it is), but
 * never back to the group the inode just left without a stronger majority than Linux's
 * (see wbc_foreign_verdict).
 */
extern unsigned int vm_dirty_foreign_fast_switch;

/*
 * The attribution audit (fs/fs-writeback-audit.c), opt-in per device: bytes written back per inode
 * and owner cgroup, and how many were charged to another group.
 */
void wb_audit_account(struct writeback_control *wbc, struct mem_cgroup *memcg, size_t bytes);
/**
 * wb_audit_show() - print the attribution audit's records of a device
 * @s: the buffer to print into
 * @bdi: the device
 *
 * One line per recorded inode and owner: inode number, cgroup id, bytes written and bytes
 * charged to another group; a last line says when records were reused for lack of room.
 *
 * Context: process context; may sleep (@s grows).
 * Return: 0, or -ENOMEM if @s could not grow (the output is then truncated).
 */
int wb_audit_show(struct seq_buf *s, struct backing_dev_info *bdi);
/**
 * wb_audit_enable() - start or stop the attribution audit of a device
 * @bdi: the device
 * @on: true to start recording (the device's old records are cleared), false to stop
 *
 * Context: any context; takes the audit's irq-safe lock; never sleeps.
 */
void wb_audit_enable(struct backing_dev_info *bdi, bool on);

/* Counts queued works of one request; the waiter drops the initial 1 and waits for 0. */
struct wb_completion {
	int cnt;
	wait_queue_head_t *waitq;
};

#define DEFINE_WB_COMPLETION(cmpl, wq) struct wb_completion cmpl = { .cnt = 1, .waitq = (wq) }

/*
 * One request to a wb's flusher (Linux keeps it private to fs/fs-writeback.c; here the
 * writeback trace events, mm/trace-writeback.c, read its fields too).
 */
struct wb_writeback_work {
	long nr_pages;
	struct super_block *sb;
	enum writeback_sync_modes sync_mode;
	unsigned tagged_writepages : 1;
	unsigned for_kupdate : 1;
	unsigned range_cyclic : 1;
	unsigned for_background : 1;
	unsigned for_sync : 1;
	unsigned auto_free : 1; /* kfree'd when done */
	enum wb_reason reason;
	struct list_head list; /* on wb->work_list */
	struct wb_completion *done;
	/* sync, opt-in fast foreign switch: counts inodes left to the wb they switch to */
	int *nr_switching;
};

/**
 * cgroup_writeback_by_id() - queue writeback of one memcg's wb on one device
 * @bdi_id: the device's bdi id
 * @memcg_id: the memory cgroup's id
 * @reason: why (WB_REASON_FOREIGN_FLUSH for a memcg's foreign flush)
 * @done: counts the queued work; the caller waits for it, or NULL
 *
 * Queues a best-effort work for about 1.25 times the memcg's dirty pages now: enough to
 * finish what is dirty, not enough to chase new dirtiers. Only an existing wb is written;
 * none is created.
 *
 * Context: any context; allocates with GFP_NOWAIT; never sleeps.
 * Return: 0 if the work was queued; -ENOENT if there is no such device, memcg or wb;
 * -ENOMEM if the work could not be allocated.
 */
int cgroup_writeback_by_id(u64 bdi_id, int memcg_id, enum wb_reason reason,
			   struct wb_completion *done);

/* ---------------------------------------------------------------- laptop mode */
/* /proc/sys/vm/laptop_mode, in jiffies (written in seconds); 0: off */
extern int laptop_mode;
/**
 * laptop_io_completion() - a request of a device completed in laptop mode
 * @bdi: the device
 *
 * (Re)arms the device's laptop-mode timer to write its wbs' dirty data laptop_mode jiffies
 * from now, while the disk is still spinning. Does nothing when laptop mode is off.
 *
 * Context: any context, IO completion included; never sleeps.
 */
void laptop_io_completion(struct backing_dev_info *bdi);
/**
 * laptop_sync_completion() - sync(2) wrote everything: stop every laptop-mode timer
 *
 * Context: process context; never sleeps.
 */
void laptop_sync_completion(void);
/* A bdi's timer, set up with it and stopped before it goes (mm/backing-dev.c). */
void bdi_laptop_mode_init(struct backing_dev_info *bdi);
void bdi_laptop_mode_exit(struct backing_dev_info *bdi);

/* ---------------------------------------------------------------- flusher entry points */
/* The periodic wake of wbs holding lazy timestamps (storage_init()), and its sysctl's hook. */
void dirtytime_writeback_init(void);
/**
 * dirtytime_interval_changed() - apply a new dirtytime_expire_interval
 *
 * The hook of /proc/sys/vm/dirtytime_expire_seconds: runs the periodic wake of wbs holding
 * lazy timestamps now, which rearms itself at the new interval.
 *
 * Context: process context; never sleeps.
 */
void dirtytime_interval_changed(void);
/**
 * wakeup_flusher_threads() - ask every wb with dirty IO to write everything
 * @reason: why (sync, vmscan...)
 *
 * Each wb of each device that has dirty IO and no such request pending is woken to write
 * all its dirty pages; nothing waits for the writeback.
 *
 * Context: any context; never sleeps.
 */
void wakeup_flusher_threads(enum wb_reason reason);
/**
 * wakeup_flusher_threads_bdi() - ask every wb of one device to write everything
 * @bdi: the device
 * @reason: why (the laptop-mode timer...)
 *
 * As wakeup_flusher_threads(), for the wbs of @bdi only.
 *
 * Context: any context, timers included; never sleeps.
 */
void wakeup_flusher_threads_bdi(struct backing_dev_info *bdi, enum wb_reason reason);
/* Start writeback of sb's dirty inodes (tagged, WB_SYNC_NONE) and wait for the work. */
void writeback_inodes_sb(struct super_block *sb, enum wb_reason reason);
/* Data integrity writeback of every dirty inode of sb, waited for (sync(2)'s core). */
void sync_inodes_sb(struct super_block *sb);
/* Write one inode (and wait if sync): eviction, fsync of metadata. */
int write_inode_now(struct inode *inode, int sync);
/**
 * sync_inode_metadata() - write an inode's dirty metadata
 * @inode: the inode
 * @wait: nonzero for data integrity (WB_SYNC_ALL): wait for a flusher writing the inode,
 *        then write it and wait for its pages' IO; zero for a best-effort round that
 *        skips an inode under writeback and writes no page
 *
 * As Linux's: a writeback round of the inode with nr_to_write 0, which a best-effort
 * round takes as "no pages"; an integrity round writes the dirty pages too, as
 * write_cache_pages() ignores nr_to_write for it. The inode itself is written through
 * ->write_inode() if it is dirty.
 *
 * Context: process context; may sleep.
 * Return: 0, or the first negative errno of the pages' or the inode's write.
 */
int sync_inode_metadata(struct inode *inode, int wait);
/* Remove the inode from its wb's lists (eviction). */
void inode_io_list_del(struct inode *inode);
/* Wait until no flusher is writing the inode (I_SYNC clear). */
void inode_wait_for_writeback(struct inode *inode);
struct work_struct;
/**
 * wb_workfn() - the flusher of one wb
 * @work: the work_struct of the wb's dwork
 *
 * The function of wb->dwork (fs/fs-writeback-flusher.c), which mm/backing-dev.c runs
 * through the flusher hooks (struct flusher_hooks, registered by fs/init.c): runs
 * the wb's queued works, then the start-all, periodic (kupdate) and background writeback
 * it is due, until no work is queued; then rearms itself for the periodic writeback while
 * the wb has dirty IO.
 *
 * Context: the writeback workqueue (bdi_wq) only; sleeps.
 */
void wb_workfn(struct work_struct *work);

/*
 * What mm/ and cg/memcg/ start in the flusher, a floor above them (fs/): a page dirtied
 * puts its inode on its wb's dirty list, the first page under writeback and the last one
 * done put it on and off its superblock's list for sync, each wb's work runs the flusher,
 * reclaim and laptop mode wake it, the cleanup of a dying group's wbs moves their inodes,
 * and memcg's foreign flush queues work on another group's wb. fs/ registers them at boot
 * (storage_init()), before the first bdi; calling one before that is a bug.
 */
struct flusher_hooks {
	void (*mark_inode_dirty)(struct inode *inode, int flags); /* __mark_inode_dirty() */
	void (*sb_mark_inode_writeback)(struct inode *inode);
	void (*sb_clear_inode_writeback)(struct inode *inode);
	void (*wb_workfn)(struct work_struct *work);
	void (*wakeup_flusher_threads)(enum wb_reason reason);
	void (*wakeup_flusher_threads_bdi)(struct backing_dev_info *bdi, enum wb_reason reason);
	bool (*cleanup_offline_cgwb)(struct bdi_writeback *wb);
	int (*cgroup_writeback_by_id)(u64 bdi_id, int memcg_id, enum wb_reason reason,
				      struct wb_completion *done);
};
/**
 * register_flusher_hooks() - give mm/ the flusher's entry points
 * @hooks: static; registered once (another set later is warned about and replaces it)
 *
 * Context: boot (storage_init()), before the first bdi.
 */
void register_flusher_hooks(const struct flusher_hooks *hooks);
/**
 * flusher_hooks() - the flusher's entry points
 *
 * Context: any context.
 * Return: the registered hooks; none registered is a bug (BUG_ON).
 */
const struct flusher_hooks *flusher_hooks(void);

/*
 * Inode wb switching (fs/fs-writeback-switch.c). Ask for inode's writeback to move to the wb of memcg
 * new_memcg_id; the move runs from a worker (callable in any context).
 */
void inode_switch_wbs(struct inode *inode, int new_memcg_id);
/* Switch contexts queued and not yet done. */
int wb_switches_in_flight(void);
/* Wait until every queued switch is done (none may be waiting for this task's locks). */
void wb_wait_for_switches(void);
/**
 * cleanup_offline_cgwb() - move a dying wb's clean inodes to its nearest live ancestor
 * @wb: the killed wb, on which the caller holds a reference
 *
 * Queues one switch of up to a batch of the wb's clean (and timestamp-only dirty) inodes to
 * the wb of the nearest live ancestor memcg, so that the dying wb and its memcg can be
 * freed. Inodes with dirty pages stay: switched now they would escape the dead group's io
 * limits.
 *
 * Context: any context; takes @wb->list_lock; allocates with GFP_ATOMIC; never sleeps.
 * Return: true if the batch filled up and inodes are left (call again), false when done
 * or when the batch could not be allocated.
 */
bool cleanup_offline_cgwb(struct bdi_writeback *wb);
/* A superblock stopped being active: wait until no queued switch can touch it. */
void cgroup_writeback_umount(void);
/**
 * sb_mark_inode_writeback() - an inode's mapping started writeback of its first page
 * @inode: the inode, put on its superblock's list of inodes under writeback (s_inodes_wb),
 *         which sync(2) walks to wait for them
 *
 * Context: any context; takes the superblock's irq-safe s_inode_wblist_lock.
 */
void sb_mark_inode_writeback(struct inode *inode);
/**
 * sb_clear_inode_writeback() - an inode's mapping ended writeback of its last page
 * @inode: the inode, taken off its superblock's list of inodes under writeback
 *
 * Context: any context, IO completion included; takes the superblock's irq-safe
 * s_inode_wblist_lock.
 */
void sb_clear_inode_writeback(struct inode *inode);

/* ---------------------------------------------------------------- wb_domain */
/*
 * A group of wbs measured against each other for dirty limits: the global domain holds
 * every wb (through wb->completions); each non-root memory cgroup's domain holds that
 * memcg's wbs (through wb->memcg_completions). A wb's share of a domain's threshold follows
 * its share of the domain's recent writeback completions (fprop, 3 s half-life). Memcg
 * domains are not nested: ancestors act through the hierarchical counters and headroom
 * that mem_cgroup_wb_stats() reports.
 */
struct wb_domain {
	spinlock_t lock; /* dirty_limit and its timestamp */
	struct fprop_global completions;
	struct timer_list period_timer; /* ages the completions every 3 s while active */
	unsigned long period_time;      /* when the current period ends; 0: timer idle */
	/*
	 * The smoothed hard limit: follows the domain's thresh up at once and down by 1/32 of
	 * the gap per BANDWIDTH_INTERVAL, so that a sudden drop of thresh does not slam every
	 * dirtier into the limit (domain_update_dirty_limit()). 0 until the first update.
	 */
	unsigned long dirty_limit;
	unsigned long dirty_limit_tstamp;
};

extern struct wb_domain global_wb_domain;
/**
 * wb_domain_init() - set up a wb_domain
 * @dom: the domain (a memcg's cgwb_domain; the global one is set up statically)
 *
 * No completions counted, no smoothed limit yet, the period timer idle.
 *
 * Context: process context; never sleeps.
 */
void wb_domain_init(struct wb_domain *dom);
/**
 * wb_domain_exit() - tear down a wb_domain before it is freed
 * @dom: the domain
 *
 * Stops its period timer, waiting for a run under way on another CPU.
 *
 * Context: process context; must not hold a lock the timer takes.
 */
void wb_domain_exit(struct wb_domain *dom);
/* Count n completions of a wb in dom (pl: the wb's local counter there). Any context. */
void wb_domain_writeout_add(struct wb_domain *dom, struct fprop_local *pl,
			    unsigned long max_prop_frac, long n);
/**
 * wb_domain_size_changed() - the memory a domain may use changed
 * @dom: the domain (a memcg's, after memory.max or memory.high changed)
 *
 * Forgets the smoothed dirty_limit: one smoothed from the old size could let dirty pages
 * overshoot a shrunken group, so the next update restarts it from the domain's thresh.
 *
 * Context: any context; takes @dom->lock (irq-safe); never sleeps.
 */
void wb_domain_size_changed(struct wb_domain *dom);

/* ---------------------------------------------------------------- dirty limits */
#define BDI_RATIO_SCALE 10000 /* bdi min/max_ratio: 100 % = 1000000 */

/**
 * global_dirty_limits() - the global background and hard dirty thresholds
 * @pbackground: set to the background threshold, in pages
 * @pdirty: set to the hard (throttling) threshold, in pages
 *
 * From vm.dirty_(background_)ratio of the dirtyable memory, or vm.dirty_(background_)bytes
 * when set. A background threshold at or above the hard one is taken as half of it.
 *
 * Context: any context; never sleeps.
 */
void global_dirty_limits(unsigned long *pbackground, unsigned long *pdirty);
/**
 * wb_dirty_thresh() - a wb's share of the threshold of the domain that limits it
 * @wb: the wb
 * @thresh: the global domain's hard threshold (global_dirty_limits()), used for a wb
 *          without a memcg domain (the root's)
 *
 * The share follows the wb's share of its domain's recent writeback completions: in its
 * memcg's domain for a memcg's wb, in the global one otherwise. What the wb_stats files
 * and wbtop show.
 *
 * Context: any context; never sleeps.
 * Return: the wb's dirty threshold, in pages.
 */
unsigned long wb_dirty_thresh(struct bdi_writeback *wb, unsigned long thresh);

/*
 * Dirty-throttling policies (mm/dirty-policy.h): Linux's law ("linux", the default) or a
 * policy that adds a stricter domain on each wb's own count. /proc/sys/vm/dirty_policy
 * selects one by name; each policy's parameters are /proc/sys/vm files of their own.
 */
struct dirty_policy;
/**
 * dirty_policy_name() - the name of the dirty-throttling policy in force
 *
 * Context: any context.
 * Return: the policy's name ("linux" for Linux's law); a static string.
 */
const char *dirty_policy_name(void);
/**
 * dirty_policy_select() - put a dirty-throttling policy in force
 * @name: the policy's name, as /proc/sys/vm/dirty_policy takes it
 *
 * Calls the policy's start hook, if it has one, before it takes effect.
 *
 * Context: process context.
 * Return: 0, or -EINVAL if no policy has that name.
 */
int dirty_policy_select(const char *name);
/**
 * dirty_policy_for_each() - call a function with each policy's name
 * @fn: called with each name, the default policy's first, and @arg
 * @arg: passed to @fn
 *
 * Context: any context; @fn's own.
 */
void dirty_policy_for_each(void (*fn)(const char *name, void *arg), void *arg);
/**
 * dirty_policy_for_each_param() - call a function with each policy parameter's name
 * @fn: called with the name of each parameter of each policy (a /proc/sys/vm file), and
 *      @arg
 * @arg: passed to @fn
 *
 * Context: any context; @fn's own.
 */
void dirty_policy_for_each_param(void (*fn)(const char *name, void *arg), void *arg);
/**
 * dirty_policy_param_show() - a policy parameter's value, as /proc/sys/vm shows it
 * @name: the parameter's name
 * @value: set to its value; a policy's main knob reads 0 while another policy is in force
 *
 * Context: any context.
 * Return: 0, or -ENOENT if there is no such parameter.
 */
int dirty_policy_param_show(const char *name, unsigned int *value);
/**
 * dirty_policy_param_store() - set a policy parameter
 * @name: the parameter's name
 * @value: its new value
 *
 * Setting a policy's main knob also puts that policy in force (dirty_policy_select());
 * setting it to 0 puts Linux's law back in force if that policy was.
 *
 * Context: process context.
 * Return: 0, -EINVAL if @value is out of the parameter's range, or -ENOENT if there is no
 * such parameter.
 */
int dirty_policy_param_store(const char *name, unsigned long value);

/* ---------------------------------------------------------------- sysctls (/proc/sys/vm) */
extern int dirty_background_ratio; /* percent of dirtyable memory, default 10 */
extern unsigned long dirty_background_bytes;
extern int vm_dirty_ratio; /* default 20 */
extern unsigned long vm_dirty_bytes;
extern unsigned int dirty_writeback_interval;  /* centiseconds, default 500 */
extern unsigned int dirty_expire_interval;     /* centiseconds, default 3000 */
extern unsigned int dirtytime_expire_interval; /* seconds, default 43200 */

/**
 * wb_over_bg_thresh() - should background writeback of a wb go on?
 * @wb: the wb
 *
 * Asks each domain that limits @wb: the global one, the policy's (when the policy in force
 * adds one) and its memcg's, whether it is over its background threshold, with @wb's own
 * share of it.
 *
 * Context: any context; never sleeps.
 * Return: true if one of them is.
 */
bool wb_over_bg_thresh(struct bdi_writeback *wb);
/* Refresh wb's write bandwidth estimate if BANDWIDTH_INTERVAL has passed. */
void wb_update_bandwidth(struct bdi_writeback *wb);
/* Reset the bandwidth checkpoints of a wb that was idle, before it starts writing again. */
void wb_bandwidth_estimate_start(struct bdi_writeback *wb);

/*
 * Rate limiting of balance_dirty_pages() calls: a CPU that dirtied ratelimit_pages (max(16,
 * thresh / (32 x online CPUs))) through any tasks makes the next dirtier there check; pages
 * dirtied by tasks that exited before being checked are charged to the next dirtiers on the
 * same CPU (dirty_throttle_leaks). Both counts are per CPU, as Linux's.
 */
extern unsigned long ratelimit_pages;
DECLARE_PER_CPU(int, bdp_ratelimits);
DECLARE_PER_CPU(int, dirty_throttle_leaks);
/**
 * writeback_set_ratelimit() - recompute ratelimit_pages from the dirty limits
 *
 * Called when the dirty sysctls change: ratelimit_pages becomes max(16, hard threshold /
 * (32 x online CPUs)), and the global domain's smoothed limit the hard threshold.
 *
 * Context: process context; never sleeps.
 */
void writeback_set_ratelimit(void);
/**
 * page_writeback_init() - start the dirty-page accounting and throttling
 *
 * Registers the task hooks that hand an exiting task's unchecked dirtied pages to its CPU
 * (dirty_throttle_leaks) and sets ratelimit_pages. Called once, as storage starts.
 *
 * Context: boot, process context.
 */
void page_writeback_init(void);

#endif
