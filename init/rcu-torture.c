/*
 * cgwb.rcutorture=SECONDS: Linux's rcutorture in miniature, for make stress. One reader per
 * CPU (pinned) dereferences a shared object inside a read-side section, checks it is live,
 * spins a little and checks again; a writer replaces the object again and again and frees
 * the old one through call_rcu() (or after synchronize_rcu(), every eighth time), marking
 * it dead first. A reader that ever sees a dead object saw a grace period end under it.
 *
 * The same for lockless xarray lookups (the cgwb index's): a second writer inserts objects
 * at random indexes of an xarray and erases them again (freeing through call_rcu()), one
 * index in 64 so far out that the tree grows to full height and shrinks back, freeing its
 * nodes; each reader also looks a random index up and checks what it found is live and
 * is the object of that index.
 * At the end one line: "rcutorture: N reads, N updates, N xarray lookups, N xarray updates,
 * N grace periods, N errors".
 */
#include <cgwb/sched.h>
#include <cgwb/rcupdate.h>
#include <cgwb/smp.h>
#include <cgwb/slab.h>
#include <cgwb/printk.h>
#include <cgwb/string.h>
#include <cgwb/xarray.h>
#include <cgwb/platform.h>
#include "main.h"

#define TORTURE_LIVE 0x1eafcafe
#define TORTURE_DEAD 0xdeadbeef

struct torture_obj {
	struct rcu_head rcu;
	unsigned int magic;
	u64 seq;
	unsigned long index; /* in torture_xa */
};

static struct torture_obj *torture_cur;
static u64 torture_end_ns, torture_reads, torture_updates, torture_errors;
static struct xarray torture_xa;
static u64 torture_xa_lookups, torture_xa_updates;

#define TORTURE_XA_SPAN 4096UL /* two levels of nodes */
#define TORTURE_XA_FAR (1UL << 40)

static unsigned long torture_xa_index(u64 *seed)
{
	*seed = *seed * 6364136223846793005ULL + 1442695040888963407ULL;
	if ((*seed >> 58) == 0)
		return TORTURE_XA_FAR + (*seed >> 33) % 4;
	return (unsigned long)(*seed >> 33) % TORTURE_XA_SPAN;
}

static void torture_free(struct rcu_head *head)
{
	struct torture_obj *o = container_of(head, struct torture_obj, rcu);

	WRITE_ONCE(o->magic, TORTURE_DEAD);
	kfree(o);
}

static bool torture_check(const struct torture_obj *o)
{
	if (READ_ONCE(o->magic) == TORTURE_LIVE)
		return true;
	__atomic_add_fetch(&torture_errors, 1, __ATOMIC_RELAXED);
	pr_err("rcutorture: CPU %u read object %llu freed under its read-side section\n",
	       raw_smp_processor_id(), (unsigned long long)o->seq);
	return false;
}

/* One lockless lookup: what it finds must be live and the object of its index. */
static void torture_xa_lookup(u64 *seed)
{
	unsigned long index = torture_xa_index(seed);

	rcu_read_lock();
	struct torture_obj *o = xa_load(&torture_xa, index);
	if (o && torture_check(o) && READ_ONCE(o->index) != index) {
		__atomic_add_fetch(&torture_errors, 1, __ATOMIC_RELAXED);
		pr_err("rcutorture: CPU %u found object of index %lu at %lu\n",
		       raw_smp_processor_id(), o->index, index);
	}
	rcu_read_unlock();
}

static int torture_reader(void *unused)
{
	u64 reads = 0, seed = raw_smp_processor_id() + 1;

	while (ktime_get_ns() < torture_end_ns) {
		torture_xa_lookup(&seed);
		rcu_read_lock();
		struct torture_obj *o = rcu_dereference(torture_cur);

		if (o && torture_check(o)) {
			for (int i = 0; i < 200; i++)
				cpu_relax();
			torture_check(o);
		}
		rcu_read_unlock();
		reads++;
		cond_resched();
	}
	__atomic_add_fetch(&torture_reads, reads, __ATOMIC_RELAXED);
	__atomic_add_fetch(&torture_xa_lookups, reads, __ATOMIC_RELAXED);
	return 0;
}

static int torture_writer(void *unused)
{
	for (u64 seq = 1; ktime_get_ns() < torture_end_ns; seq++) {
		struct torture_obj *o = kzalloc(sizeof(*o), GFP_KERNEL), *old;

		if (!o) {
			msleep(1);
			continue;
		}
		o->magic = TORTURE_LIVE;
		o->seq = seq;
		old = __atomic_exchange_n(&torture_cur, o, __ATOMIC_ACQ_REL);
		if (old && seq % 8 == 0) {
			synchronize_rcu();
			torture_free(&old->rcu);
		} else if (old) {
			call_rcu(&old->rcu, torture_free);
		}
		torture_updates++;
		cond_resched();
	}
	return 0;
}

/* Insert at an empty index, erase at a full one; erased objects die a grace period later. */
static void torture_xa_update(u64 *seed, u64 n)
{
	unsigned long index = torture_xa_index(seed), flags;
	struct torture_obj *o = kzalloc(sizeof(*o), GFP_KERNEL), *old;

	if (!o)
		return;
	o->magic = TORTURE_LIVE;
	o->seq = n;
	o->index = index;
	xa_lock_irqsave(&torture_xa, flags);
	old = xa_erase(&torture_xa, index);
	if (!old && !xa_insert(&torture_xa, index, o, GFP_ATOMIC))
		o = NULL;
	xa_unlock_irqrestore(&torture_xa, flags);
	kfree(o);
	if (old)
		call_rcu(&old->rcu, torture_free);
}

static int torture_xa_writer(void *unused)
{
	u64 seed = 12345, n;

	for (n = 1; ktime_get_ns() < torture_end_ns; n++) {
		torture_xa_update(&seed, n);
		cond_resched();
	}
	torture_xa_updates = n - 1;
	return 0;
}

/* Empty the xarray once the readers are gone. */
static void torture_xa_drain(void)
{
	struct torture_obj *o;
	unsigned long index, flags;

	xa_lock_irqsave(&torture_xa, flags);
	xa_for_each_range(&torture_xa, index, o, 0, ~0UL, XA_PRESENT)
	{
		xa_erase(&torture_xa, index);
		call_rcu(&o->rcu, torture_free);
	}
	xa_unlock_irqrestore(&torture_xa, flags);
}

void rcu_torture_run(const char *seconds)
{
	struct task_struct *tasks[NR_CPUS + 2];
	unsigned int n = 0, cpu, secs;
	unsigned long gp0 = rcu_gp_completed();

	if (kstrtouint(seconds, 10, &secs) || !secs) {
		pr_err("cgwb.rcutorture=%s: not a number of seconds\n", seconds);
		return;
	}
	torture_end_ns = ktime_get_ns() + (u64)secs * NSEC_PER_SEC;
	xa_init(&torture_xa);
	for_each_online_cpu(cpu)
	{
		struct task_struct *t = kthread_create(torture_reader, NULL, "rcu_reader/%u", cpu);

		if (!t)
			break;
		set_cpus_allowed(t, 1UL << cpu);
		wake_up_process(t);
		tasks[n++] = t;
	}
	tasks[n] = kthread_run(torture_writer, NULL, "rcu_writer");
	if (tasks[n])
		n++;
	tasks[n] = kthread_run(torture_xa_writer, NULL, "rcu_xa_writer");
	if (tasks[n])
		n++;
	/* in short sleeps, not one long join: a wait of minutes is no hung task */
	while (ktime_get_ns() < torture_end_ns)
		msleep(100);
	for (unsigned int i = 0; i < n; i++)
		kthread_join(tasks[i]);
	torture_xa_drain();
	synchronize_rcu();
	pr_notice("rcutorture: %llu reads, %llu updates, %llu xarray lookups, %llu xarray updates, "
		  "%lu grace periods, %llu errors\n",
		  (unsigned long long)torture_reads, (unsigned long long)torture_updates,
		  (unsigned long long)torture_xa_lookups, (unsigned long long)torture_xa_updates,
		  rcu_gp_completed() - gp0, (unsigned long long)torture_errors);
}
