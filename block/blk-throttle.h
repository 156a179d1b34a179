/*
 * blk-throttle: io.max enforced on bios (Linux's block/blk-throttle.c). Internal to cg/.
 *
 * One throtl_grp per (io cgroup, disk), embedded in the blkcg_gq (cg/io/blk-cgroup-internal.h).
 * Groups form the cgroup tree of their disk: a bio is checked against its own group, then
 * its parent's, up to the root group, and waits in the first group whose budget it exceeds.
 * Every service queue dispatches its children's bios upwards from a timer; bios that reach
 * the disk's top service queue are issued by a work item, since issuing may sleep.
 *
 * Each direction of a group is a token bucket measured in slices of THROTL_SLICE jiffies:
 * the allowance is limit x (time since slice_start, rounded up to whole slices), and
 * throtl_trim_slice() forgets whole slices already paid for, so at most about one slice of
 * unused allowance carries over as a burst.
 *
 * Locking: td->lock (interrupts off) covers every throttling field of the disk's groups and
 * service queues; timers run with it, bios are issued without it.
 */
#ifndef CGWB_CG_BLK_THROTTLE_H
#define CGWB_CG_BLK_THROTTLE_H

#include <cgwb/types.h>
#include <cgwb/list.h>
#include <cgwb/spinlock.h>
#include <cgwb/timer.h>
#include <cgwb/workqueue.h>
#include <cgwb/bio.h>

struct gendisk;
struct blkcg_gq;

#define THROTL_SLICE (HZ / 10)     /* 100 ms: the accounting period of a bucket */
#define THROTL_GRP_QUANTUM 8       /* bios a group may dispatch per round... */
#define THROTL_GRP_QUANTUM_READS 6 /* ...of which reads (75 %), then writes */
#define THROTL_QUANTUM 32          /* bios a service queue dispatches per round */
#define THROTL_MAX_TIMER_SLICES 8  /* a timer sleeps at most this long: limit changes */

enum { THROTL_READ = 0, THROTL_WRITE = 1 };

/*
 * Bios queued on a service queue, grouped by where they came from (the group itself, or
 * one child): a parent pops its qnodes round robin so one busy child cannot fill the
 * parent's dispatch window and starve its siblings.
 */
struct throtl_qnode {
	struct list_head node; /* on a service queue's queued[rw] */
	struct list_head bios; /* FIFO through bio->bi_list */
	struct throtl_grp *tg; /* the group this qnode belongs to */
};

struct throtl_service_queue {
	struct throtl_service_queue *parent_sq; /* NULL: the disk's top queue */
	struct list_head queued[2];             /* active qnodes per direction */
	unsigned int nr_queued[2];              /* bios on them */
	struct list_head pending;               /* child groups with bios, by disptime */
	struct timer_list pending_timer;        /* fires when the first pending child is due */
};

enum tg_state_flags {
	THROTL_TG_PENDING = 1 << 0,   /* on its parent's pending list */
	THROTL_TG_WAS_EMPTY = 1 << 1, /* got its first queued bio since the last disptime */
};

struct throtl_data;

struct throtl_grp {
	struct throtl_data *td;
	struct throtl_service_queue service_queue;
	struct list_head pending_node;          /* on parent_sq->pending */
	struct throtl_qnode qnode_on_self[2];   /* bios that stopped in this group */
	struct throtl_qnode qnode_on_parent[2]; /* this group's bios waiting in the parent */
	unsigned long disptime;                 /* when the first queued bio may go */
	unsigned int flags;
	bool has_rules[2];    /* this group or an ancestor has a limit */
	u64 bps[2];           /* bytes/s; U64_MAX: none */
	unsigned int iops[2]; /* IOs/s; UINT_MAX: none */
	u64 bytes_disp[2];    /* dispatched in the current slice */
	unsigned int io_disp[2];
	unsigned long slice_start[2], slice_end[2];
};

/* Per disk: its groups' top service queue and the worker that issues released bios. */
struct throtl_data {
	struct throtl_service_queue service_queue;
	struct gendisk *disk;
	spinlock_t lock;
	struct list_head blkgs; /* every group of the disk, parents before children */
	struct blkcg_gq *root_blkg;
	struct work_struct dispatch_work;
	struct list_head node; /* on the list of all throtl_data */
};

static inline int throtl_bio_dir(const struct bio *bio)
{
	return op_is_write(bio_op(bio)) ? THROTL_WRITE : THROTL_READ;
}

static inline bool tg_has_limit(const struct throtl_grp *tg, int rw)
{
	return tg->bps[rw] != U64_MAX || tg->iops[rw] != UINT_MAX;
}

/* blk-throttle-slice.c: the token bucket of one direction of one group. */
void throtl_start_new_slice(struct throtl_grp *tg, int rw, unsigned long now);
void throtl_start_new_slice_with_credit(struct throtl_grp *tg, int rw, unsigned long start,
					unsigned long now);
bool throtl_slice_used(const struct throtl_grp *tg, int rw, unsigned long now);
void throtl_extend_slice(struct throtl_grp *tg, int rw, unsigned long end);
void throtl_trim_slice(struct throtl_grp *tg, int rw, unsigned long now);
/* Start a new slice if the last one is over and nothing waits, else keep it a slice ahead. */
void throtl_slice_renew(struct throtl_grp *tg, int rw, unsigned long now);
/* When the allowance covers what the slice dispatched (past now + a slice only for debt). */
unsigned long throtl_debt_end(const struct throtl_grp *tg, int rw);
u64 throtl_bytes_allowed(u64 bps, unsigned long jiffy_elapsed);
unsigned int throtl_ios_allowed(unsigned int iops, unsigned long jiffy_elapsed);
bool tg_within_bps_limit(const struct throtl_grp *tg, int rw, unsigned int size, unsigned long now,
			 unsigned long *wait);
bool tg_within_iops_limit(const struct throtl_grp *tg, int rw, unsigned long now,
			  unsigned long *wait);
/*
 * May a bio of size bytes in direction rw go now? Starts or extends the slice as a side
 * effect; on false *wait (if not NULL) is the jiffies until it may.
 */
bool tg_may_dispatch_size(struct throtl_grp *tg, int rw, unsigned int size, unsigned long now,
			  unsigned long *wait);
void throtl_charge_bio(struct throtl_grp *tg, struct bio *bio);

/* blk-throttle-dispatch.c: queues, pending lists, timers, the issuing work. */
void throtl_service_queue_init(struct throtl_service_queue *sq,
			       struct throtl_service_queue *parent_sq);
void throtl_qnode_init(struct throtl_qnode *qn, struct throtl_grp *tg);
struct bio *throtl_peek_queued(struct list_head *queued);
void throtl_add_bio_tg(struct bio *bio, struct throtl_qnode *qn, struct throtl_grp *tg);
void tg_update_disptime(struct throtl_grp *tg, unsigned long now);
bool throtl_schedule_next_dispatch(struct throtl_service_queue *sq, bool force);
void throtl_dequeue_tg(struct throtl_grp *tg);
void blk_throtl_dispatch_work_fn(struct work_struct *work);
/*
 * Issue bios leaving the throttler (td->lock not held, process context: may wait for a
 * request slot): counted in io.stat now, then priced by io.cost.
 */
void throtl_issue_bios(struct list_head *ready);
bool tg_may_dispatch(struct throtl_grp *tg, struct bio *bio, unsigned long now, unsigned long *wait);

/* blk-throttle.c */
static inline struct throtl_grp *sq_to_tg(struct throtl_service_queue *sq)
{
	return sq && sq->parent_sq ? container_of(sq, struct throtl_grp, service_queue) : NULL;
}
void throtl_grp_init(struct throtl_grp *tg, struct throtl_data *td, struct throtl_grp *parent);
/* A group leaves its disk (its blkcg is freed): no bio may be queued in it any more. */
void throtl_grp_exit(struct throtl_grp *tg);
/* Limits of tg changed (td->lock held): recompute has_rules, restart slices, reschedule. */
void tg_conf_updated(struct throtl_grp *tg);
extern struct workqueue_struct *kthrotld_workqueue;

#endif
