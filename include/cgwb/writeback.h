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

/* The IO that writes this page back is charged to the wb's io cgroup (the bio's blkcg). */
void wbc_init_bio(struct writeback_control *wbc, struct bio *bio);
/* Per page/block added to a writeback bio: feeds the foreign-owner vote (Linux < 5.3: wbc_account_io). */
void wbc_account_cgroup_owner(struct writeback_control *wbc, struct page *page, size_t bytes);
/* Attach wbc to inode for one writeback round (takes a wb reference) and drop i_lock. */
void wbc_attach_and_unlock_inode(struct writeback_control *wbc, struct inode *inode);
/* Same for fsync-style callers that do not hold i_lock. */
void wbc_attach_fdatawrite_inode(struct writeback_control *wbc, struct inode *inode);
/* End of the round: decide the foreign-owner vote, drop the wb reference. */
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
int wb_audit_show(struct seq_buf *s, struct backing_dev_info *bdi);
/* Start (clearing the device's records) or stop recording. */
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

/*
 * Queue writeback of the wb of memcg memcg_id on bdi bdi_id, if that wb exists, for about
 * 1.25 x the memcg's dirty pages (memcg foreign flush). done counts the work. 0 or -errno.
 */
int cgroup_writeback_by_id(u64 bdi_id, int memcg_id, enum wb_reason reason,
			   struct wb_completion *done);

/* ---------------------------------------------------------------- laptop mode */
/* /proc/sys/vm/laptop_mode, in jiffies (written in seconds); 0: off */
extern int laptop_mode;
/* A request of bdi's disk completed: write its wbs' dirty data laptop_mode from now. */
void laptop_io_completion(struct backing_dev_info *bdi);
/* sync(2) wrote everything: no bdi's timer has work left. */
void laptop_sync_completion(void);
/* A bdi's timer, set up with it and stopped before it goes (mm/backing-dev.c). */
void bdi_laptop_mode_init(struct backing_dev_info *bdi);
void bdi_laptop_mode_exit(struct backing_dev_info *bdi);

/* ---------------------------------------------------------------- flusher entry points */
/* The periodic wake of wbs holding lazy timestamps (storage_init()), and its sysctl's hook. */
void dirtytime_writeback_init(void);
void dirtytime_interval_changed(void);
/* Ask every wb of every bdi with dirty IO to write everything (sync, vmscan). */
void wakeup_flusher_threads(enum wb_reason reason);
void wakeup_flusher_threads_bdi(struct backing_dev_info *bdi, enum wb_reason reason);
/* Start writeback of sb's dirty inodes (tagged, WB_SYNC_NONE) and wait for the work. */
void writeback_inodes_sb(struct super_block *sb, enum wb_reason reason);
/* Data integrity writeback of every dirty inode of sb, waited for (sync(2)'s core). */
void sync_inodes_sb(struct super_block *sb);
/* Write one inode (and wait if sync): eviction, fsync of metadata. */
int write_inode_now(struct inode *inode, int sync);
int sync_inode_metadata(struct inode *inode, int wait);
/* Remove the inode from its wb's lists (eviction). */
void inode_io_list_del(struct inode *inode);
/* Wait until no flusher is writing the inode (I_SYNC clear). */
void inode_wait_for_writeback(struct inode *inode);
/* The flusher of one wb (fs/fs-writeback-flusher.c): the function of wb->dwork. */
struct work_struct;
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
void register_flusher_hooks(const struct flusher_hooks *hooks);
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
/* Move a dying wb's clean inodes to its nearest live ancestor; true: call again (more left). */
bool cleanup_offline_cgwb(struct bdi_writeback *wb);
/* A superblock stopped being active: wait until no queued switch can touch it. */
void cgroup_writeback_umount(void);
/* Called at the first start/last end of writeback of a mapping's pages. */
void sb_mark_inode_writeback(struct inode *inode);
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
void wb_domain_init(struct wb_domain *dom);
void wb_domain_exit(struct wb_domain *dom);
/* Count n completions of a wb in dom (pl: the wb's local counter there). Any context. */
void wb_domain_writeout_add(struct wb_domain *dom, struct fprop_local *pl,
			    unsigned long max_prop_frac, long n);
/* The domain's memory shrank or grew (memory.max/high): forget the smoothed limit. */
void wb_domain_size_changed(struct wb_domain *dom);

/* ---------------------------------------------------------------- dirty limits */
#define BDI_RATIO_SCALE 10000 /* bdi min/max_ratio: 100 % = 1000000 */

/* Global background and hard thresholds in pages. */
void global_dirty_limits(unsigned long *pbackground, unsigned long *pdirty);
/* wb's dirty threshold in the domain that limits it: its memcg's, the global one (whose
 * thresh the caller gives) for the root's. What wb_stats and wbtop show. */
unsigned long wb_dirty_thresh(struct bdi_writeback *wb, unsigned long thresh);

/*
 * Dirty-throttling policies (mm/dirty-policy.h): Linux's law ("linux", the default) or a
 * policy that adds a stricter domain on each wb's own count. /proc/sys/vm/dirty_policy
 * selects one by name; each policy's parameters are /proc/sys/vm files of their own.
 */
struct dirty_policy;
const char *dirty_policy_name(void);
/* 0, or -EINVAL for a name that is no policy. */
int dirty_policy_select(const char *name);
/* fn(name) for each policy, the default first. */
void dirty_policy_for_each(void (*fn)(const char *name, void *arg), void *arg);
/* fn(name) for each parameter of each policy. */
void dirty_policy_for_each_param(void (*fn)(const char *name, void *arg), void *arg);
/* A parameter's value as /proc/sys/vm shows it; -ENOENT if there is no such parameter. */
int dirty_policy_param_show(const char *name, unsigned int *value);
/* Set a parameter: -EINVAL out of its range, -ENOENT if there is no such parameter. */
int dirty_policy_param_store(const char *name, unsigned long value);

/* ---------------------------------------------------------------- sysctls (/proc/sys/vm) */
extern int dirty_background_ratio; /* percent of dirtyable memory, default 10 */
extern unsigned long dirty_background_bytes;
extern int vm_dirty_ratio; /* default 20 */
extern unsigned long vm_dirty_bytes;
extern unsigned int dirty_writeback_interval;  /* centiseconds, default 500 */
extern unsigned int dirty_expire_interval;     /* centiseconds, default 3000 */
extern unsigned int dirtytime_expire_interval; /* seconds, default 43200 */

/* Should background writeback of wb continue (its global or its memcg domain over bg)? */
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
void writeback_set_ratelimit(void);
void page_writeback_init(void);

#endif
