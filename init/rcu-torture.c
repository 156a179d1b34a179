/*
 * cgwb.rcutorture=SECONDS: Linux's rcutorture in miniature, for make stress. One reader per
 * CPU (pinned) dereferences a shared object inside a read-side section, checks it is live,
 * spins a little and checks again; a writer replaces the object again and again and frees
 * the old one through call_rcu() (or after synchronize_rcu(), every eighth time), marking
 * it dead first. A reader that ever sees a dead object saw a grace period end under it.
 * At the end one line: "rcutorture: N reads, N updates, N grace periods, N errors".
 */
#include <cgwb/sched.h>
#include <cgwb/rcupdate.h>
#include <cgwb/smp.h>
#include <cgwb/slab.h>
#include <cgwb/printk.h>
#include <cgwb/string.h>
#include <cgwb/platform.h>
#include "main.h"

#define TORTURE_LIVE 0x1eafcafe
#define TORTURE_DEAD 0xdeadbeef

struct torture_obj {
	struct rcu_head rcu;
	unsigned int magic;
	u64 seq;
};

static struct torture_obj *torture_cur;
static u64 torture_end_ns, torture_reads, torture_updates, torture_errors;

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

static int torture_reader(void *unused)
{
	u64 reads = 0;

	while (ktime_get_ns() < torture_end_ns) {
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

void rcu_torture_run(const char *seconds)
{
	struct task_struct *tasks[NR_CPUS + 1];
	unsigned int n = 0, cpu, secs;
	unsigned long gp0 = rcu_gp_completed();

	if (kstrtouint(seconds, 10, &secs) || !secs) {
		pr_err("cgwb.rcutorture=%s: not a number of seconds\n", seconds);
		return;
	}
	torture_end_ns = ktime_get_ns() + (u64)secs * NSEC_PER_SEC;
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
	/* in short sleeps, not one long join: a wait of minutes is no hung task */
	while (ktime_get_ns() < torture_end_ns)
		msleep(100);
	for (unsigned int i = 0; i < n; i++)
		kthread_join(tasks[i]);
	synchronize_rcu();
	pr_notice("rcutorture: %llu reads, %llu updates, %lu grace periods, %llu errors\n",
		  (unsigned long long)torture_reads, (unsigned long long)torture_updates,
		  rcu_gp_completed() - gp0, (unsigned long long)torture_errors);
}
