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
	unsigned int flags;          /* WORK_PENDING, WORK_TIMER */
};

#define WORK_PENDING 0x1
#define WORK_TIMER 0x2 /* a delayed work's timer is to queue it (armed, or firing) */

struct delayed_work {
	struct work_struct work;
	struct timer_list timer;
	struct workqueue_struct *wq;
	int cpu; /* the pool it goes to when due: queue_delayed_work_on()'s; -1: the timer's CPU */
};

#define to_delayed_work(w) container_of(w, struct delayed_work, work)

/**
 * INIT_WORK() - set up a work item, idle
 * @work: the work
 * @func: what it runs, in a worker
 *
 * A function here, not Linux's macro.
 *
 * Context: any context; not while the work may be pending or running.
 */
void INIT_WORK(struct work_struct *work, work_func_t func);
#define DECLARE_WORK(n, f) struct work_struct n = { .entry = LIST_HEAD_INIT(n.entry), .func = (f) }
/**
 * INIT_DELAYED_WORK() - set up a delayed work item, idle
 * @dwork: the delayed work
 * @func: what it runs, in a worker, once its delay has passed
 *
 * Context: any context; not while the work may be pending or running.
 */
void INIT_DELAYED_WORK(struct delayed_work *dwork, work_func_t func);

#define WQ_UNBOUND 0x2
#define WQ_MEM_RECLAIM 0x8
#define WQ_DFL_ACTIVE 16

/**
 * alloc_workqueue() - create a workqueue
 * @name: its name, in its workers' names (kworker/N:name, kworker/u:name)
 * @flags: WQ_UNBOUND for one pool whose workers run anywhere; otherwise a pool per CPU
 * @max_active: how many workers a pool may grow to (<= 0: WQ_DFL_ACTIVE)
 *
 * Each pool starts with one worker.
 *
 * Context: process context; may sleep.
 * Return: the workqueue, or NULL if memory or a worker could not be had.
 */
struct workqueue_struct *alloc_workqueue(const char *name, unsigned int flags, int max_active);
/**
 * destroy_workqueue() - flush a workqueue, then stop its workers and free it
 * @wq: the workqueue; nothing may queue on it any more
 *
 * Context: process context; sleeps; not from one of its own works.
 */
void destroy_workqueue(struct workqueue_struct *wq);

/**
 * queue_work() - queue a work on the current CPU's pool of a workqueue
 * @wq: the workqueue
 * @work: the work
 *
 * The caller may move to another CPU afterwards; the work stays. A work running
 * elsewhere is queued behind itself there (a work never runs twice at once).
 *
 * Context: any context, interrupts included; never sleeps.
 * Return: true, or false if the work was pending already (nothing is done).
 */
bool queue_work(struct workqueue_struct *wq, struct work_struct *work);
/**
 * queue_work_on() - queue a work on a CPU's pool of a workqueue
 * @cpu: the CPU (any pool of an unbound workqueue)
 * @wq: the workqueue
 * @work: the work; one running elsewhere is queued behind itself there
 *
 * Context: any context, interrupts included; never sleeps.
 * Return: true, or false if the work was pending already.
 */
bool queue_work_on(int cpu, struct workqueue_struct *wq, struct work_struct *work);

/* A work item queued once a grace period has passed (Linux's rcu_work). */
struct rcu_work {
	struct work_struct work;
	struct rcu_head rcu;
	struct workqueue_struct *wq;
};
#define INIT_RCU_WORK(rw, fn) INIT_WORK(&(rw)->work, (fn))
#define to_rcu_work(w) container_of(w, struct rcu_work, work)
/**
 * queue_rcu_work() - queue a work once an RCU grace period has passed
 * @wq: the workqueue
 * @rwork: the work (Linux's rcu_work)
 *
 * Context: any context; never sleeps.
 * Return: true, or false if it is pending already (waiting for the period, or queued).
 */
bool queue_rcu_work(struct workqueue_struct *wq, struct rcu_work *rwork);
/**
 * queue_delayed_work() - queue a work once a delay has passed
 * @wq: the workqueue
 * @dwork: the delayed work
 * @delay: the delay in jiffies; 0 queues it now
 *
 * It goes to the pool of the CPU its timer fires on. An earlier arming is kept: a later
 * call never postpones it.
 *
 * Context: any context, interrupts included; never sleeps.
 * Return: true, or false if it was pending already (armed or queued).
 */
bool queue_delayed_work(struct workqueue_struct *wq, struct delayed_work *dwork, unsigned long delay);
/**
 * queue_delayed_work_on() - queue a work on a CPU's pool once a delay has passed
 * @cpu: the CPU (a bound workqueue: a per-CPU job, vmstat_update)
 * @wq: the workqueue
 * @dwork: the delayed work
 * @delay: the delay in jiffies
 *
 * Context: any context; never sleeps.
 * Return: true, or false if it was pending already.
 */
bool queue_delayed_work_on(int cpu, struct workqueue_struct *wq, struct delayed_work *dwork,
			   unsigned long delay);
/**
 * mod_delayed_work() - queue a work after a delay, replacing any earlier arming
 * @wq: the workqueue
 * @dwork: the delayed work
 * @delay: the delay in jiffies from now; 0 queues it now
 *
 * Context: any context, interrupts included; never sleeps.
 * Return: true if it was pending before (armed or queued), false if it was idle.
 */
bool mod_delayed_work(struct workqueue_struct *wq, struct delayed_work *dwork, unsigned long delay);
bool schedule_work(struct work_struct *work);
/**
 * schedule_delayed_work() - queue_delayed_work() on system_wq
 * @dwork: the delayed work
 * @delay: the delay in jiffies
 *
 * Context: any context; never sleeps.
 * Return: true, or false if it was pending already.
 */
bool schedule_delayed_work(struct delayed_work *dwork, unsigned long delay);
bool cancel_work_sync(struct work_struct *work);
bool cancel_delayed_work(struct delayed_work *dwork);
/**
 * cancel_delayed_work_sync() - cancel a delayed work and wait for a running instance
 * @dwork: the delayed work
 *
 * Unlike Linux's, nothing stops the work from being queued again meanwhile, by itself or
 * by others: the caller stops its requeueing first (wb_shutdown() clears WB_registered).
 *
 * Context: process context; may sleep; not from the work itself.
 * Return: true if it was pending (armed or queued).
 */
bool cancel_delayed_work_sync(struct delayed_work *dwork);
/**
 * flush_work() - wait until a work is neither pending nor running
 * @work: the work
 *
 * Context: process context; may sleep; not from the work itself.
 * Return: true if it had to wait.
 */
bool flush_work(struct work_struct *work);
/**
 * flush_delayed_work() - run a delayed work now if it is armed, and wait for it
 * @dwork: the delayed work
 *
 * An armed timer is cancelled and the work queued at once; then flush_work().
 *
 * Context: process context; may sleep; not from the work itself.
 * Return: true if it had to wait, false if the work was idle (or never queued).
 */
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
/**
 * workqueue_init() - start the workqueues: the pools' manager and system_wq ("events")
 *
 * Context: boot, once, once tasks can run.
 */
void workqueue_init(void);

#endif
