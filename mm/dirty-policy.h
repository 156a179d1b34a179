/*
 * The dirty-throttling policy interface: how a policy plugs into balance_dirty_pages().
 *
 * The law itself is always Linux's: the global domain and the wb's memcg domain each give a
 * pos_ratio, and a dirtier is paused so that it dirties at dirty_ratelimit x the lower one.
 * A policy adds a third domain beside those two, on the wb's own count (what the dirtier's
 * group holds dirty and under writeback on this disk): it says how much the wb may hold
 * (thresh, and bg_thresh where its flusher must write), and the control law runs on that
 * domain as on the others. Whichever domain has the lowest pos_ratio governs the pause, so
 * a policy can make throttling stricter than Linux's but never looser. Linux's law is the
 * policy that adds no domain ("linux", the default).
 *
 * Where the policy's domain governs, the dirty_ratelimit estimator judges the position on
 * the wb's count against the policy's setpoint (as Linux does under strictlimit), against
 * the write bandwidth the policy names.
 *
 * A policy is one file (mm/dirty-policy-*.c, mm/dirty-policy-fixed.c is the template) that
 * defines a struct dirty_policy and is listed in dirty_policies[] (mm/dirty-policy.c); its
 * parameters appear in /proc/sys/vm with its name as their prefix. docs/writing-a-policy.md
 * walks through it.
 */
#ifndef CGWB_MM_DIRTY_POLICY_H
#define CGWB_MM_DIRTY_POLICY_H

#include "internal.h"

/*
 * A set of wbs whose dirty + writeback pages a dirty-throttling policy bounds together
 * (mm/dirty-policy-bandwidth.c; mm/dirty-policy-pool.c). Every member's change of those
 * counts goes to the pool's own per-CPU counter too (the wb's policy_pages, wb_stat_mod()),
 * so the pool's pages are one sum away: every
 * member's every throttle check asks, and summing 32 members' counters each time took a
 * quarter of a CPU. How many members hold pages is counted by walking them, at most once
 * every WB_POOL_COUNT_INTERVAL; members that join meanwhile count as holding.
 */
struct wb_pool {
	struct list_head members;   /* wbs by policy_node */
	struct percpu_counter held; /* the members' WB_RECLAIMABLE + WB_WRITEBACK */
	s32 held_parts[NR_CPUS * PERCPU_COUNTER_STRIDE];
	unsigned long counted_at; /* jiffies of the last count of holders; 0: none yet */
	unsigned long nr_holding; /* how many members held pages then */
	unsigned long nr_new;     /* members that joined since */
};
#define DEFINE_WB_POOL(name)                                            \
	struct wb_pool name = {                                         \
		.members = LIST_HEAD_INIT(name.members),                \
		.held = { .lock = __SPIN_LOCK_UNLOCKED(name.held.lock), \
			  .counters = name.held_parts },                \
	}
/* A member's part in its pool's last count of holders (its policy_mark). */
enum wb_pool_part { WB_POOL_EMPTY, WB_POOL_HELD, WB_POOL_NEW };
#define WB_POOL_COUNT_INTERVAL (HZ / 100)

/* Count wb in pool (NULL: in none); called by whoever decides the wb's pool. */
void wb_pool_update(struct bdi_writeback *wb, struct wb_pool *pool);
/* Has pool more than one member? */
bool wb_pool_shared(struct wb_pool *pool);
/*
 * The dirty + writeback pages of pool's members, and how many hold pages: those that did
 * at the last count (at most WB_POOL_COUNT_INTERVAL ago), those that joined since, and wb
 * (a member) whatever it holds: it is about to.
 */
void wb_pool_sum(struct wb_pool *pool, struct bdi_writeback *wb, unsigned long *pages,
		 unsigned long *nr);
/* Is wb a member of pool? */
bool wb_in_pool(const struct bdi_writeback *wb, const struct wb_pool *pool);
/* A wb going away leaves its policy's pool (wb_exit()). */
void dirty_policy_wb_exit(struct bdi_writeback *wb);

/*
 * A tunable of a policy: /proc/sys/vm/NAME, an unsigned integer within [min, max]. With
 * selects, the policy's main knob: writing it also selects the policy, writing 0 selects
 * linux, and it reads 0 while another policy is in force.
 */
struct dirty_policy_param {
	const char *name;
	unsigned int *value;
	unsigned int min, max;
	bool selects;
};

struct dirty_policy {
	const char *name;
	/*
	 * The domain's limits for the wb of pdtc now. pdtc->wb and pdtc->wb_dirty (what the
	 * wb's group holds: dirty + writeback pages) are set; gdtc holds the global domain's
	 * figures of this decision (avail, dirty, thresh, bg_thresh). Set pdtc->thresh (the
	 * most the wb may hold; 0: this policy does not limit the wb now) and pdtc->bg_thresh
	 * (above it the wb's flusher writes; below the freerun ceiling, halfway between the
	 * two, the wb's dirtiers run free). NULL: the policy adds no domain.
	 */
	void (*wb_limits)(struct dirty_throttle_control *pdtc,
			  const struct dirty_throttle_control *gdtc);
	/*
	 * pdtc->pos_ratio (1024 = 1.0) and pdtc->setpoint from the limits. NULL:
	 * dirty_policy_cubic(), the domains' cubic from the freerun ceiling to thresh.
	 */
	void (*position)(struct dirty_throttle_control *pdtc);
	/*
	 * The longest pause of a dirtier the policy governs, given Linux's max_pause; with
	 * task_ratelimit 0 (at the limit), how long it sleeps before it looks again. NULL:
	 * max_pause.
	 */
	long (*max_pause)(struct dirty_throttle_control *pdtc, long max_pause,
			  unsigned long task_ratelimit);
	/*
	 * The pause target when the policy governs (wb_min_pause()'s contract, with the
	 * domain's figures at hand in pdtc). NULL: Linux's.
	 */
	long (*min_pause)(struct dirty_throttle_control *pdtc, long max_pause,
			  unsigned long task_ratelimit, unsigned long dirty_ratelimit,
			  int *nr_dirtied_pause);
	/*
	 * The write bandwidth (pages/s) the dirty ratelimit is balanced against while the
	 * policy governs. NULL: wb->avg_write_bandwidth, Linux's estimate.
	 */
	unsigned long (*write_bandwidth)(struct bdi_writeback *wb);
	/* Called when the policy is selected (its parameters may have changed meanwhile). */
	void (*start)(void);
	const struct dirty_policy_param *params; /* ends with an entry whose name is NULL */
};

extern const struct dirty_policy dirty_policy_linux;
extern const struct dirty_policy dirty_policy_bandwidth;
extern const struct dirty_policy dirty_policy_fixed;

/* The bandwidth policy's parts, for its unit tests (mm/dirty-policy-bandwidth.c). */
extern unsigned int dirty_bandwidth_seconds, dirty_bandwidth_slow_ratio;
/* What the slow wbs may hold together, with global_thresh the global domain's thresh. */
unsigned long bw_slow_budget(unsigned long global_thresh);
/* A wb's cap at bw pages/s, given the budget and how many slow wbs share it. */
unsigned long bw_cap(unsigned long bw, unsigned long secs, unsigned long global_thresh,
		     unsigned long budget, unsigned long nr_slow);
/* A slow wb's cap as the slow wbs' pool holds pool pages of its budget. */
unsigned long bw_pool_shrink(unsigned long cap, unsigned long budget, unsigned long pool);
/*
 * wb_min_pause() for a wb the cap governs: pauses of about max_pause / 2, and never more
 * pages before the next check than half the room left under the cap, DIRTY_POLL_THRESH
 * at least (at the limit, what its pause makes room for).
 */
long wb_bw_cap_min_pause(struct dirty_throttle_control *pdtc, long max_pause,
			 unsigned long task_ratelimit, unsigned long dirty_ratelimit,
			 int *nr_dirtied_pause);

/*
 * The shortest sleep of a dirtier the bandwidth policy holds at the cap of a slow wb that
 * shares the budget: Linux's own pause target.
 */
#define BW_CAP_MIN_PAUSE (HZ / 100)
/* The fixed policy's limit per cgroup wb (mm/dirty-policy-fixed.c). */
extern unsigned int dirty_fixed_kbytes;

/* The policy in force (never NULL). */
const struct dirty_policy *dirty_policy_get(void);

/* The domains' cubic on the wb's count: 1.0 at the setpoint, halfway from freerun to thresh. */
void dirty_policy_cubic(struct dirty_throttle_control *pdtc);
/* pdtc->pos_ratio and setpoint by the policy's position (or the cubic). */
void pdtc_position(struct dirty_throttle_control *pdtc);

/*
 * For balance_dirty_pages() and the flusher: pdtc for the policy in force, with wb and
 * gdtc's figures; false if the policy does not limit wb now.
 */
bool pdtc_limits(struct dirty_throttle_control *pdtc, const struct dirty_policy *policy,
		 struct bdi_writeback *wb, const struct dirty_throttle_control *gdtc);
/*
 * What the policy counts as held by wb's group: dirty + writeback pages (see the .c file);
 * *foreign: how many of them are in other wbs' inodes. exact: the wb's counts summed over
 * the CPUs rather than read.
 */
unsigned long dirty_policy_held(struct bdi_writeback *wb, bool exact, unsigned long *foreign);
/*
 * Do the group's pages in other wbs' inodes weigh in its policy limit (more than a quarter
 * of it)? Then they must be written for it to go on (mem_cgroup_flush_foreign()).
 */
bool pdtc_foreign_counts(const struct dirty_throttle_control *pdtc);

#endif
