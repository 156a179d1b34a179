/*
 * cgwb.selftest=workqueue-pools: on real CPUs, does a bound workqueue run a work on the CPU
 * it was queued on, does a work running on one CPU and queued on another run again behind
 * itself (never on two CPUs at once), and do an unbound workqueue's workers stay free to run
 * anywhere? The running work waits for the test to queue it again, so nothing depends on time.
 */
#include <cgwb/workqueue.h>
#include <cgwb/sched.h>
#include <cgwb/smp.h>
#include <cgwb/wait.h>
#include <cgwb/printk.h>
#include "selftest.h"

struct wq_probe {
	struct work_struct work;
	int runs, cpu[2];   /* where the first two runs ran */
	unsigned long mask; /* the worker's allowed CPUs, first run */
	bool running, overlapped, hold, released;
	wait_queue_head_t wait;
};

static void wq_probe_fn(struct work_struct *w)
{
	struct wq_probe *p = container_of(w, struct wq_probe, work);

	if (READ_ONCE(p->running))
		WRITE_ONCE(p->overlapped, true);
	WRITE_ONCE(p->running, true);
	if (p->runs < 2)
		p->cpu[p->runs] = smp_processor_id();
	if (!p->runs)
		p->mask = current->cpus_mask;
	wake_up_all(&p->wait);
	/* the first run waits until the test has queued it on the other CPU */
	if (p->hold && !p->runs)
		wait_event(p->wait, READ_ONCE(p->released));
	p->runs++;
	WRITE_ONCE(p->running, false);
}

static void init_probe(struct wq_probe *p, bool hold)
{
	*p = (struct wq_probe){ .hold = hold };
	INIT_WORK(&p->work, wq_probe_fn);
	init_waitqueue_head(&p->wait);
}

/* cpu's pool runs its work there, on a worker allowed nowhere else. */
static bool runs_on(struct workqueue_struct *wq, unsigned int cpu)
{
	struct wq_probe p;

	init_probe(&p, false);
	queue_work_on(cpu, wq, &p.work);
	flush_work(&p.work);
	return p.runs == 1 && p.cpu[0] == (int)cpu && p.mask == 1UL << cpu;
}

/* Each online CPU's pool runs its work there. Returns the first CPU that did not, or -1. */
static int check_bound(struct workqueue_struct *wq)
{
	unsigned int cpu;

	for (cpu = 0; cpu < nr_cpu_ids; cpu++)
		if (cpu_online(cpu) && !runs_on(wq, cpu))
			return cpu;
	return -1;
}

/* Running on CPU 0, queued on CPU 1: runs again on CPU 0, after itself. */
static bool check_non_reentrant(struct workqueue_struct *wq)
{
	struct wq_probe p;

	init_probe(&p, true);
	queue_work_on(0, wq, &p.work);
	wait_event(p.wait, READ_ONCE(p.running));
	queue_work_on(1, wq, &p.work);
	WRITE_ONCE(p.released, true);
	wake_up_all(&p.wait);
	flush_work(&p.work);
	if (p.runs != 2 || p.overlapped || p.cpu[0] != 0 || p.cpu[1] != 0) {
		pr_err("selftest: workqueue-pools: runs %d overlapped %d on CPUs %d, %d\n", p.runs,
		       p.overlapped, p.cpu[0], p.cpu[1]);
		return false;
	}
	return true;
}

static bool check_unbound(void)
{
	struct workqueue_struct *wq = alloc_workqueue("selftest_u", WQ_UNBOUND, 4);
	struct wq_probe p;
	bool ok;

	if (!wq)
		return false;
	init_probe(&p, false);
	queue_work_on(1, wq, &p.work);
	flush_work(&p.work);
	ok = p.runs == 1 && cpumask_weight(p.mask) > 1;
	destroy_workqueue(wq);
	return ok;
}

void selftest_workqueue_pools(void)
{
	struct workqueue_struct *wq;
	int bad;

	if (num_online_cpus() < 2) {
		pr_notice("selftest: workqueue-pools: skipped (one CPU)\n");
		return;
	}
	wq = alloc_workqueue("selftest", 0, 4);
	if (!wq) {
		pr_err("selftest: workqueue-pools: no memory\n");
		return;
	}
	bad = check_bound(wq);
	if (bad >= 0)
		pr_err("selftest: workqueue-pools: a work queued on CPU %d ran elsewhere\n", bad);
	else if (!check_non_reentrant(wq))
		;
	else if (!check_unbound())
		pr_err("selftest: workqueue-pools: an unbound worker is pinned\n");
	else
		pr_notice("selftest: workqueue-pools: ok\n");
	destroy_workqueue(wq);
}
