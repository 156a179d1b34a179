/*
 * io.cost's state, shared by the block layer's files that implement it (Linux's
 * block/blk-iocost.c, cut in four): blk-iocost-params.c (the parameters, the cost model,
 * io.weight's configuration), blk-iocost-weight.c (hierarchical weights),
 * blk-iocost.c (the issue path: budgets, waits, debt, completions) and
 * blk-iocost-timer.c (the period: vrate, donation, idle groups, statistics).
 *
 * Time. A disk's virtual time (vtime) advances at vrate against the wall clock; 2^37 vtime
 * is one second of device time as the cost model prices it, so vrate 100 % means the
 * device does what the model says. Each bio's absolute cost is the device time the model
 * gives it; a group pays it divided by its hierarchical weight in use (hweight_inuse), out
 * of its own vtime cursor, which may not run ahead of the disk's vtime: a group of
 * hweight 1/4 can issue a quarter of the device's time.
 *
 * Locking: ioc->lock (interrupts off) covers the ioc and every iocg of the disk. It nests
 * inside blkcg_lock and td->lock, never the other way.
 */
#ifndef CGWB_BLOCK_BLK_IOCOST_H
#define CGWB_BLOCK_BLK_IOCOST_H

#include <cgwb/blk-iocost.h>
#include <cgwb/cgroup.h>
#include <cgwb/list.h>
#include <cgwb/spinlock.h>
#include <cgwb/timer.h>
#include <cgwb/wait.h>
#include <cgwb/jiffies.h>

struct bio;
struct request;
struct blkcg_gq;

#define MILLION 1000000U
#define WEIGHT_ONE (1U << 16) /* hweights are fractions of this */
#define VTIME_PER_SEC (1ULL << 37)
#define VTIME_PER_USEC (VTIME_PER_SEC / USEC_PER_SEC)
#define VTIME_PER_NSEC (VTIME_PER_SEC / NSEC_PER_SEC)
#define VRATE_MIN (VTIME_PER_USEC * VRATE_MIN_PPM / MILLION)
#define VRATE_CLAMP_ADJ_PCT 4
/* the period is a multiple of the latency target, within these bounds (us) */
#define IOC_MIN_PERIOD 1000U
#define IOC_MAX_PERIOD 1000000U
/* a group's vtime is kept at most this far (% of a period) behind the disk's: its credit */
#define MARGIN_TARGET_PCT 50
/* if requests waited for a slot this much of the period, the device is saturated */
#define RQ_WAIT_BUSY_PCT 5
#define UNBUSY_THR_PCT 75
/* debt: delay its group's tasks between these overages (% of a period) and durations */
#define MIN_DELAY_THR_PCT 500
#define MAX_DELAY_THR_PCT 25000
#define MIN_DELAY_US 250ULL
#define MAX_DELAY_US (250 * 1000ULL)
/* cost model: 4 KiB pages, and IOs further apart than 16 MiB are random */
#define IOC_PAGE_SHIFT 12
#define IOC_PAGE_SIZE (1U << IOC_PAGE_SHIFT)
#define LCOEF_RANDIO_PAGES 4096
/* donation: a group using less than its share keeps usage x 5/4 + 2 % of it */
#define SURPLUS_SCALE_PCT 125
#define SURPLUS_SCALE_ABS (WEIGHT_ONE / 50)
#define SURPLUS_MIN_ADJ_DELTA (WEIGHT_ONE / 33)
#define IOC_MAX_LEVELS (CGROUP_MAX_DEPTH + 1)

/* Timers tick in jiffies: round up, so that a wait is never cut short. */
static inline unsigned long ioc_us_to_jiffies(u64 us)
{
	return (unsigned long)DIV_ROUND_UP(us, USEC_PER_SEC / HZ);
}

enum {
	LCOEF_RPAGE,
	LCOEF_RSEQIO,
	LCOEF_RRANDIO,
	LCOEF_WPAGE,
	LCOEF_WSEQIO,
	LCOEF_WRANDIO,
	NR_LCOEFS
};

struct ioc_params {
	u32 qos[NR_QOS_PARAMS];
	u64 i_lcoefs[NR_I_LCOEFS];
	u64 lcoefs[NR_LCOEFS]; /* vtime per page, per sequential and per random IO */
};

struct ioc_margins {
	s64 target; /* the most credit a group keeps: half a period of vtime */
};

/* Per disk. */
struct ioc {
	struct gendisk *disk;
	spinlock_t lock;
	bool enabled;
	bool user_qos_params, user_cost_model;
	struct ioc_params params;
	struct ioc_margins margins;
	u32 period_us;
	u64 vrate_min, vrate_max; /* vtime per us */

	struct timer_list timer; /* ioc_timer_fn, once per period while groups are active */
	bool running;            /* the timer is armed */
	struct list_head active_iocgs;
	u64 vtime_base_rate; /* vtime per us: vrate, as the QoS control sets it */
	u64 period_at;       /* the period's start, us */
	u64 period_at_vtime; /* and the disk's vtime then */
	u64 cur_period;
	int busy_level; /* > 0: the device missed targets lately; < 0: groups were short */
	unsigned int hweight_gen;

	/* this period's completions, for the QoS control */
	u32 nr_met[2], nr_missed[2];
	u64 rq_wait_ns;
};

/* A snapshot of wall and virtual time. */
struct ioc_now {
	u64 now_ns, now; /* now in us */
	u64 vnow;
	u64 vrate;
};

struct iocg_stat {
	u64 usage_us, wait_us, indebt_us, indelay_us;
};

/* Per (io cgroup, disk): embedded in the blkcg_gq. */
struct ioc_gq {
	struct ioc *ioc; /* NULL until the disk's controller first meets the group */
	int level;       /* 0: the root */
	struct ioc_gq *ancestors[IOC_MAX_LEVELS]; /* ancestors[level] is the group itself */

	u32 cfg_weight; /* io.weight for this disk, x WEIGHT_ONE; 0: the cgroup's default */
	u32 weight;     /* the one in force */
	u32 active;     /* weight while active, 0 idle */
	u32 inuse;      /* active, lowered while the group donates, 1 while in debt */
	u32 last_inuse; /* inuse before the debt, given back when it is paid */
	u64 child_active_sum, child_inuse_sum;
	unsigned int hweight_gen;
	u32 hweight_active, hweight_inuse; /* cached, valid for hweight_gen */

	sector_t cursor; /* where the last IO ended: sequential or random */
	u64 vtime;       /* the group's cursor: behind vnow is budget, ahead is overage */
	u64 done_vtime;  /* vtime of its IO that has ended (atomic): short of vtime, IO in flight */
	u64 abs_vdebt;   /* cost of IO that could not wait, owed */
	bool expedited_debt; /* some of it is expedited writeback's: dirtiers wait it out */
	u64 delay;           /* ns its tasks are to be delayed for the debt */
	u64 delay_at;
	u64 active_period;
	struct list_head active_list;

	struct list_head waiters; /* struct iocg_wait, FIFO */
	wait_queue_head_t waitq;  /* their tasks */
	struct timer_list waitq_timer;

	u64 usage_vtime;      /* absolute cost issued this period */
	u64 abs_vusage;       /* and since ever */
	bool short_of_budget; /* someone waited this period */
	struct iocg_stat stat;
	u64 wait_since, indebt_since, indelay_since;
};

/* blk-iocost-params.c */
/* The disk's controller, or NULL if none was configured (ioc_lookup) / none could be made. */
struct ioc *ioc_lookup(struct gendisk *disk);
/* Recompute what follows from the parameters (ioc->lock held). */
void ioc_refresh_params(struct ioc *ioc);
void ioc_refresh_margins(struct ioc *ioc);
/* A bio's absolute cost in vtime, moving the group's cursor. */
u64 calc_vtime_cost(struct ioc_gq *iocg, const struct bio *bio);
/* The device time the model gives a request's size alone, in vtime. */
u64 calc_size_vtime_cost(struct ioc *ioc, const struct request *rq);

/* blk-iocost-weight.c (ioc->lock held) */
void ioc_now(struct ioc *ioc, struct ioc_now *now);
/* iocg's weight in force changed (io.weight) */
void weight_updated(struct ioc_gq *iocg, struct ioc_now *now);
/* Set active and inuse of iocg and the sums of its ancestors. */
void propagate_weights(struct ioc_gq *iocg, u32 active, u32 inuse);
/* iocg's hierarchical weights now (either pointer may be NULL). */
void current_hweight(struct ioc_gq *iocg, u32 *hw_activep, u32 *hw_inusep);
/* The first time the disk's controller meets iocg (ioc->lock held). */
void iocg_init(struct ioc *ioc, struct ioc_gq *iocg, struct blkcg_gq *blkg, struct ioc_now *now);

/* blk-iocost.c (ioc->lock held) */
/* Pay debt and waiters from the budget, arm the timer for the rest. */
void iocg_kick_waitq(struct ioc_gq *iocg, struct ioc_now *now);
/* Move the group's vtime on by delta without IO (budget thrown away, debt paid). */
void iocg_wind_vtime(struct ioc_gq *iocg, u64 delta);
/* Set the delay of the group's tasks from its debt. */
void iocg_kick_delay(struct ioc_gq *iocg, struct ioc_now *now);
void iocg_waitq_timer_fn(struct timer_list *timer);
/* A new group's fields that exist before any controller (blkg_alloc), and its end. */
void iocg_early_init(struct ioc_gq *iocg);
void iocg_exit(struct ioc_gq *iocg);

/* blk-iocost-timer.c */
void ioc_timer_fn(struct timer_list *timer);
/* The group's weight leaves the sums (ioc->lock held). */
void iocg_deactivate(struct ioc_gq *iocg);

#endif
