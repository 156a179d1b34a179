/*
 * Deferred work run by worker tasks. A bound workqueue has a pool of workers per CPU, pinned
 * there, and runs a work on the pool of the CPU that queued it; a WQ_UNBOUND one has a single
 * pool whose workers run anywhere. A work item never runs on two workers at once; each pool
 * grows up to max_active workers so that one blocked item (a flusher waiting on a throttled
 * device) does not hold up the others.
 */
#ifndef CGWB_WORKQUEUE_H
#define CGWB_WORKQUEUE_H

#include <cgwb/timer.h>
#include <cgwb/list.h>
#include <cgwb/rcupdate.h>

struct work_struct;
struct workqueue_struct;
typedef void (*work_func_t)(struct work_struct *work);

struct work_struct {
	struct list_head entry;
	work_func_t func;
	struct workqueue_struct *wq; /* where it is queued or was last queued */
	unsigned int flags;          /* WORK_PENDING */
};

#define WORK_PENDING 0x1

struct delayed_work {
	struct work_struct work;
	struct timer_list timer;
	struct workqueue_struct *wq;
	int cpu; /* the pool it goes to when due: queue_delayed_work_on()'s; -1: the timer's CPU */
};

#define to_delayed_work(w) container_of(w, struct delayed_work, work)

void INIT_WORK(struct work_struct *work, work_func_t func);
#define DECLARE_WORK(n, f) struct work_struct n = { .entry = LIST_HEAD_INIT(n.entry), .func = (f) }
void INIT_DELAYED_WORK(struct delayed_work *dwork, work_func_t func);

#define WQ_UNBOUND 0x2
#define WQ_MEM_RECLAIM 0x8
#define WQ_DFL_ACTIVE 16

struct workqueue_struct *alloc_workqueue(const char *name, unsigned int flags, int max_active);
void destroy_workqueue(struct workqueue_struct *wq);

/* Return false if the work was already pending. Callable from interrupt context. */
bool queue_work(struct workqueue_struct *wq, struct work_struct *work);
/* On cpu's pool (any pool if unbound), unless it is running elsewhere: then behind that. */
bool queue_work_on(int cpu, struct workqueue_struct *wq, struct work_struct *work);

/* A work item queued once a grace period has passed (Linux's rcu_work). */
struct rcu_work {
	struct work_struct work;
	struct rcu_head rcu;
	struct workqueue_struct *wq;
};
#define INIT_RCU_WORK(rw, fn) INIT_WORK(&(rw)->work, (fn))
#define to_rcu_work(w) container_of(w, struct rcu_work, work)
/* false if it is pending already (waiting for the period or queued) */
bool queue_rcu_work(struct workqueue_struct *wq, struct rcu_work *rwork);
bool queue_delayed_work(struct workqueue_struct *wq, struct delayed_work *dwork, unsigned long delay);
/* On cpu's pool once delay has passed (a bound workqueue: a per-CPU job, vmstat_update). */
bool queue_delayed_work_on(int cpu, struct workqueue_struct *wq, struct delayed_work *dwork,
			   unsigned long delay);
/* Queue or re-arm to run after delay (an earlier arming is replaced). */
bool mod_delayed_work(struct workqueue_struct *wq, struct delayed_work *dwork, unsigned long delay);
bool schedule_work(struct work_struct *work);
bool schedule_delayed_work(struct delayed_work *dwork, unsigned long delay);
bool cancel_work_sync(struct work_struct *work);
bool cancel_delayed_work(struct delayed_work *dwork);
bool cancel_delayed_work_sync(struct delayed_work *dwork);
/* Wait until the work is neither pending nor running; returns true if it had to wait. */
bool flush_work(struct work_struct *work);
bool flush_delayed_work(struct delayed_work *dwork);
void flush_workqueue(struct workqueue_struct *wq);
static inline bool work_pending(const struct work_struct *work)
{
	return work->flags & WORK_PENDING;
}
static inline bool delayed_work_pending(const struct delayed_work *dwork)
{
	return work_pending(&dwork->work) || timer_pending(&dwork->timer);
}
/* True when called from inside a work function run by a worker of wq. */
bool current_is_workqueue_worker(void);

extern struct workqueue_struct *system_wq;
void workqueue_init(void);

#endif
