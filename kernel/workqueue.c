/*
 * Workqueues (portable), as Linux's: a bound workqueue has one pool of workers per CPU, each
 * pinned to its CPU, and a work runs on the pool of the CPU that queued it, so it finds that
 * CPU's caches warm; a WQ_UNBOUND workqueue has one pool whose workers run anywhere (the
 * writeback flushers: their work is long and should go where there is room). Each pool grows
 * on demand up to max_active: a manager task creates a worker whenever work is waiting in a
 * pool and none of its workers is idle, so a work item that sleeps for a long time (a flusher
 * stuck behind a throttled device) does not hold up the rest. A work queued wakes one idle
 * worker, not all of them (Linux's wake_up_worker()). A work item is never run by two
 * workers at once: if it is queued again while running, on whatever CPU, it runs next on the
 * worker running it (Linux's find_worker_executing()). One lock per workqueue guards all its
 * pools: nothing here is hot enough to be worth a lock per pool and the ordering that would
 * take. The running instance is found through a hash of the busy workers by work address
 * (Linux's busy_hash), one per workqueue: writeback's has a worker for every flusher held
 * behind a throttled group, and every dirtier's wake-up of its flusher looks there.
 */
#include <cgwb/workqueue.h>
#include <cgwb/sched.h>
#include <cgwb/smp.h>
#include <cgwb/wait.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/printk.h>
#include <cgwb/bug.h>
#include <cgwb/errno.h>

struct worker_pool;

#define BUSY_WORKER_HASH_SIZE 64

struct worker {
	struct task_struct *task;
	struct worker_pool *pool;
	struct work_struct *current_work;
	struct list_head scheduled; /* re-queued while running: runs next, here */
	struct list_head node;
	struct hlist_node hentry; /* in wq->busy_hash while current_work is set */
	bool idle;                /* counted in nr_idle: between works, or not yet started */
};

/* One CPU's workers for one workqueue, or an unbound workqueue's (Linux's pool_workqueue). */
struct worker_pool {
	struct workqueue_struct *wq;
	int cpu; /* pinned there, or -1: unbound */
	struct list_head worklist;
	struct list_head workers;
	int nr_workers, nr_idle; /* nr_idle: workers that would take a work now */
	bool needs_worker;       /* on the manager's list */
	wait_queue_head_t more_work;
	struct list_head manager_node;
};

struct workqueue_struct {
	char name[24];
	unsigned int flags;
	int max_active;  /* workers per pool */
	spinlock_t lock; /* all the pools' lists and counts, the works' PENDING */
	bool destroying;
	wait_queue_head_t done;
	unsigned int nr_pools; /* 1 if unbound, else one per possible CPU */
	struct hlist_head busy_hash[BUSY_WORKER_HASH_SIZE]; /* running workers by current_work */
	struct worker_pool pools[];
};

#define for_each_pool(pool, wq) \
	for ((pool) = (wq)->pools; (pool) < (wq)->pools + (wq)->nr_pools; (pool)++)

struct workqueue_struct *system_wq;
static LIST_HEAD(wqs_needing_workers);
static DEFINE_SPINLOCK(manager_lock);
static DECLARE_WAIT_QUEUE_HEAD(manager_wait);

void INIT_WORK(struct work_struct *work, work_func_t func)
{
	INIT_LIST_HEAD(&work->entry);
	work->func = func;
	work->wq = NULL;
	work->flags = 0;
}

static void delayed_work_timer_fn(struct timer_list *t);

void INIT_DELAYED_WORK(struct delayed_work *dwork, work_func_t func)
{
	INIT_WORK(&dwork->work, func);
	timer_setup(&dwork->timer, delayed_work_timer_fn, 0);
	dwork->wq = NULL;
	dwork->cpu = -1;
}

/* Ask the manager for one more worker in this pool. wq->lock held. */
static void request_worker(struct worker_pool *pool)
{
	struct workqueue_struct *wq = pool->wq;

	if (pool->nr_idle || pool->nr_workers >= wq->max_active || pool->needs_worker ||
	    wq->destroying)
		return;
	pool->needs_worker = true;
	spin_lock(&manager_lock);
	list_add_tail(&pool->manager_node, &wqs_needing_workers);
	spin_unlock(&manager_lock);
	wake_up(&manager_wait);
}

/*
 * The pool a work queued on this CPU goes to. A CPU past the pools (the host tests add
 * virtual CPUs after the system workqueue exists) shares the first CPU's.
 */
static struct worker_pool *cpu_pool(struct workqueue_struct *wq, int cpu)
{
	if (wq->flags & WQ_UNBOUND || cpu < 0 || (unsigned int)cpu >= wq->nr_pools)
		return &wq->pools[0];
	return &wq->pools[cpu];
}

static struct hlist_head *busy_bucket(struct workqueue_struct *wq, const struct work_struct *work)
{
	unsigned long key = (unsigned long)work;

	/* work items are at least 8-byte aligned and often in 64-byte objects: fold those bits */
	return &wq->busy_hash[((key >> 3) ^ (key >> 9)) % BUSY_WORKER_HASH_SIZE];
}

/*
 * The worker running this work, if any. Only addresses are compared: a work function may
 * free its own work item, so a finished work is never dereferenced. wq->lock held.
 */
static struct worker *find_worker_executing(struct workqueue_struct *wq, struct work_struct *work)
{
	struct hlist_node *n;

	for (n = busy_bucket(wq, work)->first; n; n = n->next) {
		struct worker *w = hlist_entry(n, struct worker, hentry);

		if (w->current_work == work)
			return w;
	}
	return NULL;
}

/*
 * Put a work on cpu's pool and get it run; if it is running, on any CPU, behind that
 * instance instead, so it never runs twice at once. wq->lock held, PENDING already set.
 */
static void __queue_work_locked(struct workqueue_struct *wq, int cpu, struct work_struct *work)
{
	struct worker *running = find_worker_executing(wq, work);
	struct worker_pool *pool = cpu_pool(wq, cpu);

	work->wq = wq;
	if (running) {
		list_add_tail(&work->entry, &running->scheduled);
		return;
	}
	list_add_tail(&work->entry, &pool->worklist);
	if (pool->nr_idle)
		wake_up(&pool->more_work);
	else
		request_worker(pool);
}

bool queue_work_on(int cpu, struct workqueue_struct *wq, struct work_struct *work)
{
	unsigned long flags;
	bool queued = false;

	spin_lock_irqsave(&wq->lock, flags);
	if (!(work->flags & WORK_PENDING)) {
		work->flags |= WORK_PENDING;
		__queue_work_locked(wq, cpu, work);
		queued = true;
	}
	spin_unlock_irqrestore(&wq->lock, flags);
	return queued;
}

/* On this CPU's pool: the caller may move to another CPU after, the work stays. */
bool queue_work(struct workqueue_struct *wq, struct work_struct *work)
{
	return queue_work_on(raw_smp_processor_id(), wq, work);
}

/* The pool a due delayed work goes to: its own CPU's if queued on one, else this CPU's. */
static unsigned int dwork_cpu(const struct delayed_work *dwork)
{
	return dwork->cpu >= 0 ? (unsigned int)dwork->cpu : raw_smp_processor_id();
}

/*
 * The timer's callback runs after run_timers() has taken the timer off its list, and
 * waits for wq->lock: meanwhile mod_delayed_work(), a cancel or flush_delayed_work() may
 * take the work over (del_timer() finds nothing pending) and queue or re-arm it. Whoever
 * takes it over clears WORK_TIMER, and an armed timer is pending again: the callback
 * queues the work only if its own arming still stands, so a work is never put on a list
 * twice (Linux's try_to_grab_pending() waits out a firing timer instead).
 */
static void delayed_work_timer_fn(struct timer_list *t)
{
	struct delayed_work *dwork = from_timer(dwork, t, timer);
	struct workqueue_struct *wq = dwork->wq;
	unsigned long flags;

	spin_lock_irqsave(&wq->lock, flags);
	if ((dwork->work.flags & (WORK_PENDING | WORK_TIMER)) == (WORK_PENDING | WORK_TIMER) &&
	    !timer_pending(&dwork->timer)) {
		dwork->work.flags &= ~WORK_TIMER;
		__queue_work_locked(wq, dwork_cpu(dwork), &dwork->work);
	}
	spin_unlock_irqrestore(&wq->lock, flags);
}

/* Arm or queue a pending delayed work. wq->lock held, PENDING set, not on any list. */
static void __arm_delayed_work(struct workqueue_struct *wq, struct delayed_work *dwork,
			       unsigned long delay)
{
	dwork->wq = wq;
	dwork->work.wq = wq;
	if (!delay) {
		dwork->work.flags &= ~WORK_TIMER;
		__queue_work_locked(wq, dwork_cpu(dwork), &dwork->work);
	} else {
		dwork->work.flags |= WORK_TIMER;
		mod_timer(&dwork->timer, jiffies + delay);
	}
}

/* The grace period has passed: queue it, pending since queue_rcu_work() (any context). */
static void rcu_work_rcufn(struct rcu_head *rcu)
{
	struct rcu_work *rwork = container_of(rcu, struct rcu_work, rcu);
	struct workqueue_struct *wq = rwork->wq;
	unsigned long flags;

	spin_lock_irqsave(&wq->lock, flags);
	__queue_work_locked(wq, raw_smp_processor_id(), &rwork->work);
	spin_unlock_irqrestore(&wq->lock, flags);
}

bool queue_rcu_work(struct workqueue_struct *wq, struct rcu_work *rwork)
{
	unsigned long flags;
	bool pending;

	spin_lock_irqsave(&wq->lock, flags);
	pending = rwork->work.flags & WORK_PENDING;
	rwork->work.flags |= WORK_PENDING;
	spin_unlock_irqrestore(&wq->lock, flags);
	if (pending)
		return false;
	rwork->wq = wq;
	call_rcu(&rwork->rcu, rcu_work_rcufn);
	return true;
}

/* cpu -1: the pool of the CPU its timer fires on. */
static bool __queue_delayed_work(int cpu, struct workqueue_struct *wq, struct delayed_work *dwork,
				 unsigned long delay)
{
	unsigned long flags;
	bool queued = false;

	spin_lock_irqsave(&wq->lock, flags);
	if (!(dwork->work.flags & WORK_PENDING)) {
		dwork->work.flags |= WORK_PENDING;
		dwork->cpu = cpu;
		__arm_delayed_work(wq, dwork, delay);
		queued = true;
	}
	spin_unlock_irqrestore(&wq->lock, flags);
	return queued;
}

bool queue_delayed_work(struct workqueue_struct *wq, struct delayed_work *dwork, unsigned long delay)
{
	return __queue_delayed_work(-1, wq, dwork, delay);
}

bool queue_delayed_work_on(int cpu, struct workqueue_struct *wq, struct delayed_work *dwork,
			   unsigned long delay)
{
	BUG_ON(cpu < 0 || (unsigned int)cpu >= nr_cpu_ids);
	return __queue_delayed_work(cpu, wq, dwork, delay);
}

/*
 * Take a pending work off its timer or list, and from a timer callback already firing
 * (WORK_TIMER cleared: delayed_work_timer_fn()). Returns true if it was pending. wq->lock
 * held.
 */
static bool __grab_pending(struct work_struct *work, struct timer_list *timer)
{
	if (!(work->flags & WORK_PENDING))
		return false;
	if (timer)
		del_timer(timer);
	list_del_init(&work->entry);
	work->flags &= ~(WORK_PENDING | WORK_TIMER);
	return true;
}

bool mod_delayed_work(struct workqueue_struct *wq, struct delayed_work *dwork, unsigned long delay)
{
	unsigned long flags;
	bool was_pending;

	spin_lock_irqsave(&wq->lock, flags);
	if (dwork->wq && dwork->wq != wq)
		WARN_ON_ONCE(dwork->work.flags & WORK_PENDING);
	was_pending = __grab_pending(&dwork->work, &dwork->timer);
	dwork->work.flags |= WORK_PENDING;
	dwork->cpu = -1;
	__arm_delayed_work(wq, dwork, delay);
	spin_unlock_irqrestore(&wq->lock, flags);
	return was_pending;
}

bool schedule_work(struct work_struct *work)
{
	return queue_work(system_wq, work);
}

bool schedule_delayed_work(struct delayed_work *dwork, unsigned long delay)
{
	return queue_delayed_work(system_wq, dwork, delay);
}

static bool work_running(struct workqueue_struct *wq, struct work_struct *work)
{
	unsigned long flags;
	bool running;

	spin_lock_irqsave(&wq->lock, flags);
	running = find_worker_executing(wq, work) != NULL;
	spin_unlock_irqrestore(&wq->lock, flags);
	return running;
}

static bool work_idle(struct workqueue_struct *wq, struct work_struct *work)
{
	return !(READ_ONCE(work->flags) & WORK_PENDING) && !work_running(wq, work);
}

bool flush_work(struct work_struct *work)
{
	struct workqueue_struct *wq = work->wq;

	if (!wq || work_idle(wq, work))
		return false;
	wait_event(wq->done, work_idle(wq, work));
	return true;
}

bool flush_delayed_work(struct delayed_work *dwork)
{
	struct workqueue_struct *wq = dwork->wq;
	unsigned long flags;

	if (!wq)
		return false;
	spin_lock_irqsave(&wq->lock, flags);
	if (del_timer(&dwork->timer)) {
		dwork->work.flags &= ~WORK_TIMER; /* a callback still firing must not queue it too */
		__queue_work_locked(wq, dwork_cpu(dwork), &dwork->work);
	}
	spin_unlock_irqrestore(&wq->lock, flags);
	return flush_work(&dwork->work);
}

static bool __cancel_work(struct work_struct *work, struct timer_list *timer, bool sync)
{
	struct workqueue_struct *wq = work->wq;
	unsigned long flags;
	bool was_pending;

	if (!wq)
		return false;
	/* no callback may still be on its way to the work (and the lock) after a sync cancel */
	if (sync && timer)
		del_timer_sync(timer);
	spin_lock_irqsave(&wq->lock, flags);
	was_pending = __grab_pending(work, timer);
	spin_unlock_irqrestore(&wq->lock, flags);
	if (sync)
		wait_event(wq->done, !work_running(wq, work));
	return was_pending;
}

bool cancel_work_sync(struct work_struct *work)
{
	return __cancel_work(work, NULL, true);
}

bool cancel_delayed_work(struct delayed_work *dwork)
{
	return __cancel_work(&dwork->work, &dwork->timer, false);
}

bool cancel_delayed_work_sync(struct delayed_work *dwork)
{
	return __cancel_work(&dwork->work, &dwork->timer, true);
}

static bool wq_quiet(struct workqueue_struct *wq)
{
	struct worker_pool *pool;
	struct worker *w;

	for_each_pool(pool, wq) {
		if (!list_empty(&pool->worklist))
			return false;
		list_for_each_entry(w, &pool->workers, node)
			if (w->current_work || !list_empty(&w->scheduled))
				return false;
	}
	return true;
}

void flush_workqueue(struct workqueue_struct *wq)
{
	wait_event(wq->done, wq_quiet(wq));
}

bool current_is_workqueue_worker(void)
{
	return current->flags & PF_WQ_WORKER;
}

/* Next work for this worker: its own re-queued items first. wq->lock held. */
static struct work_struct *take_work(struct worker *worker)
{
	struct worker_pool *pool = worker->pool;
	struct workqueue_struct *wq = pool->wq;
	struct work_struct *work;

	while (true) {
		if (!list_empty(&worker->scheduled))
			work = list_first_entry(&worker->scheduled, struct work_struct, entry);
		else if (!list_empty(&pool->worklist))
			work = list_first_entry(&pool->worklist, struct work_struct, entry);
		else
			return NULL;
		list_del_init(&work->entry);
		struct worker *running = find_worker_executing(wq, work);
		if (!running || running == worker)
			return work;
		/* running elsewhere: hand it to that worker so it never runs twice at once */
		list_add_tail(&work->entry, &running->scheduled);
	}
}

/* Idle: counted as one that takes the next work (wq->lock held). */
static void worker_set_idle(struct worker *worker, bool idle)
{
	if (worker->idle == idle)
		return;
	worker->idle = idle;
	worker->pool->nr_idle += idle ? 1 : -1;
}

static int worker_thread(void *arg)
{
	struct worker *worker = arg;
	struct worker_pool *pool = worker->pool;
	struct workqueue_struct *wq = pool->wq;
	unsigned long flags;

	current->flags |= PF_WQ_WORKER | PF_KTHREAD;
	spin_lock_irqsave(&wq->lock, flags);
	for (;;) {
		struct work_struct *work = take_work(worker);

		if (!work) {
			if (wq->destroying)
				break;
			worker_set_idle(worker, true);
			spin_unlock_irqrestore(&wq->lock, flags);
			/* one idle worker woken per work queued, not all of them */
			wait_event_idle_exclusive(pool->more_work,
						  !list_empty(&pool->worklist) || wq->destroying);
			spin_lock_irqsave(&wq->lock, flags);
			continue;
		}
		worker_set_idle(worker, false);
		work->flags &= ~WORK_PENDING;
		worker->current_work = work;
		hlist_add_head(&worker->hentry, busy_bucket(wq, work));
		/* more waiting and nobody idle: get a helper before this one possibly blocks */
		if (!list_empty(&pool->worklist))
			request_worker(pool);
		spin_unlock_irqrestore(&wq->lock, flags);

		work->func(work);
		if (in_atomic())
			panic("workqueue %s: work function %p returned in atomic context", wq->name,
			      (void *)work->func);

		spin_lock_irqsave(&wq->lock, flags);
		hlist_del_init(&worker->hentry);
		worker->current_work = NULL;
		wake_up_all(&wq->done);
	}
	worker_set_idle(worker, false);
	spin_unlock_irqrestore(&wq->lock, flags);
	return 0;
}

/* Pinned to the pool's CPU where that CPU runs tasks (the host platform has only CPU 0). */
static struct task_struct *create_worker_task(struct worker *worker)
{
	struct worker_pool *pool = worker->pool;
	struct task_struct *task;

	if (pool->cpu < 0)
		return kthread_create(worker_thread, worker, "kworker/u:%s", pool->wq->name);
	task = kthread_create(worker_thread, worker, "kworker/%d:%s", pool->cpu, pool->wq->name);
	if (task && cpu_online(pool->cpu))
		WARN_ON_ONCE(set_cpus_allowed(task, 1UL << pool->cpu));
	return task;
}

static int create_worker(struct worker_pool *pool)
{
	struct worker *worker = kzalloc(sizeof(*worker), GFP_KERNEL);
	struct workqueue_struct *wq = pool->wq;
	unsigned long flags;

	if (!worker)
		return -ENOMEM;
	worker->pool = pool;
	INIT_LIST_HEAD(&worker->scheduled);
	worker->task = create_worker_task(worker);
	if (!worker->task) {
		kfree(worker);
		return -ENOMEM;
	}
	spin_lock_irqsave(&wq->lock, flags);
	list_add_tail(&worker->node, &pool->workers);
	pool->nr_workers++;
	/*
	 * Idle from the start, as Linux's create_worker(): it will take the waiting work, so
	 * nobody asks for another worker for it before it has had the CPU.
	 */
	worker_set_idle(worker, true);
	spin_unlock_irqrestore(&wq->lock, flags);
	wake_up_process(worker->task);
	return 0;
}

static int manager_thread(void *arg)
{
	(void)arg;
	current->flags |= PF_KTHREAD;
	for (;;) {
		struct worker_pool *pool = NULL;
		unsigned long flags;

		wait_event_idle(manager_wait, !list_empty(&wqs_needing_workers));
		spin_lock_irqsave(&manager_lock, flags);
		if (!list_empty(&wqs_needing_workers)) {
			pool = list_first_entry(&wqs_needing_workers, struct worker_pool,
						manager_node);
			list_del_init(&pool->manager_node);
		}
		spin_unlock_irqrestore(&manager_lock, flags);
		if (!pool)
			continue;
		if (create_worker(pool))
			pr_err("workqueue %s: cannot create a worker\n", pool->wq->name);
		spin_lock_irqsave(&pool->wq->lock, flags);
		pool->needs_worker = false;
		/* still nobody idle for waiting work (e.g. the new worker already blocked)? */
		if (!list_empty(&pool->worklist) && !pool->nr_idle)
			request_worker(pool);
		/* destroy_pool() may wait for us; after this unlock the pool may be gone */
		wake_up_all(&pool->wq->done);
		spin_unlock_irqrestore(&pool->wq->lock, flags);
	}
	return 0;
}

static void init_pool(struct worker_pool *pool, struct workqueue_struct *wq, int cpu)
{
	pool->wq = wq;
	pool->cpu = cpu;
	INIT_LIST_HEAD(&pool->worklist);
	INIT_LIST_HEAD(&pool->workers);
	INIT_LIST_HEAD(&pool->manager_node);
	init_waitqueue_head(&pool->more_work);
}

struct workqueue_struct *alloc_workqueue(const char *name, unsigned int flags, int max_active)
{
	unsigned int nr_pools = flags & WQ_UNBOUND ? 1 : nr_cpu_ids;
	struct workqueue_struct *wq =
		kzalloc(sizeof(*wq) + nr_pools * sizeof(wq->pools[0]), GFP_KERNEL);
	struct worker_pool *pool;

	if (!wq)
		return NULL;
	strlcpy(wq->name, name, sizeof(wq->name));
	wq->flags = flags;
	wq->max_active = max_active > 0 ? max_active : WQ_DFL_ACTIVE;
	spin_lock_init(&wq->lock);
	wq->lock.name = "workqueue";
	init_waitqueue_head(&wq->done);
	wq->nr_pools = nr_pools;
	for (unsigned int i = 0; i < nr_pools; i++)
		init_pool(&wq->pools[i], wq, flags & WQ_UNBOUND ? -1 : (int)i);
	/* one worker per pool up front: most pools never need more */
	for_each_pool(pool, wq) {
		if (create_worker(pool)) {
			destroy_workqueue(wq);
			return NULL;
		}
	}
	return wq;
}

/* The manager is creating a worker for it (taken off its list, not done yet). */
static bool pool_being_managed(struct worker_pool *pool)
{
	unsigned long flags;
	bool managed;

	spin_lock_irqsave(&pool->wq->lock, flags);
	managed = pool->needs_worker;
	spin_unlock_irqrestore(&pool->wq->lock, flags);
	return managed;
}

/* wq->destroying set: no more requests for workers, every worker ends when it sees it. */
static void destroy_pool(struct worker_pool *pool)
{
	unsigned long flags;
	bool listed;

	spin_lock_irqsave(&manager_lock, flags);
	listed = !list_empty(&pool->manager_node);
	if (listed)
		list_del_init(&pool->manager_node);
	spin_unlock_irqrestore(&manager_lock, flags);
	if (!listed)
		wait_event(pool->wq->done, !pool_being_managed(pool));
	wake_up_all(&pool->more_work);
	while (!list_empty(&pool->workers)) {
		struct worker *w = list_first_entry(&pool->workers, struct worker, node);
		kthread_join(w->task);
		list_del(&w->node);
		kfree(w);
	}
}

void destroy_workqueue(struct workqueue_struct *wq)
{
	struct worker_pool *pool;
	unsigned long flags;

	flush_workqueue(wq);
	spin_lock_irqsave(&wq->lock, flags);
	wq->destroying = true;
	spin_unlock_irqrestore(&wq->lock, flags);
	for_each_pool(pool, wq)
		destroy_pool(pool);
	kfree(wq);
}

void workqueue_init(void)
{
	struct task_struct *manager = kthread_run(manager_thread, NULL, "kworker/manager");

	BUG_ON(!manager);
	kthread_detach(manager);
	system_wq = alloc_workqueue("events", 0, WQ_DFL_ACTIVE);
	BUG_ON(!system_wq);
}
