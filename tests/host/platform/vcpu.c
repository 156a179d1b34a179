/*
 * Several virtual CPUs with a seeded interleaving (host_smp_start()), so that a race between
 * CPUs, once found, replays every time.
 *
 * The model. Still one host thread: exactly one virtual CPU executes at a time, and the
 * others stand still where they were. Each CPU has what the kernel's has: its hot words
 * (current task, preemption count, number: struct pcpu_hot), its interrupt flag, its run
 * queue (online, so wake-ups and balancing place tasks on it) and an idle task. A change of
 * CPU saves the running CPU's words and flag, loads another's and switches to the fiber of
 * that CPU's current task; the task switched away from stays current on its own CPU, in the
 * middle of whatever it was doing: holding locks, in a read-side section, interrupts off.
 *
 * Where the CPU changes: at switch points, which are every change of the preemption count
 * (preempt_disable(), preempt_enable(): so every spin lock and unlock, every RCU read-side
 * section's start and end), every release of a spin lock (the raw ones too, which the
 * scheduler lets go with interrupts off), every enabling of interrupts (also at the end of
 * schedule()), every test-and-set or test-and-clear of a page flag (where CPUs meet
 * without a lock), and every cpu_relax(). There the seeded PRNG decides whether to go on with another CPU that
 * can run (one not idle, or an idle one with a task queued), picked by the PRNG too. Each
 * CPU leaves at its switch points with its own probability, drawn from the seed between 1
 * and 1/256: a race that needs one CPU stopped in a short window while another goes a long
 * way (a whole inode switch) has seeds where one CPU stops often and the other runs long
 * stretches; a uniform choice at every point would almost never let a CPU run that far. A
 * spin (cpu_relax(): a ticket lock taken elsewhere, a mutex's optimistic spin, a wake-up
 * waiting for a task to leave its CPU) must let another CPU run, so it always changes CPU;
 * with none left, nothing can release what it waits for: a deadlock, reported at once. No
 * change happens in interrupt context or inside this file.
 *
 * Idle. A CPU's idle task reports an RCU quiescent state and runs the idle hook (vmstat
 * folds), then parks and hands over to a CPU that can run. When every CPU is parked, the
 * last one runs the events due, or moves virtual time to the next (host_idle_step()), and a
 * parked CPU counts as quiescent for RCU, as Linux's idle CPUs (they hold no read-side
 * section). Virtual time moves only when every CPU is idle, or when a task spends CPU time
 * (host_consume_ns(): the clock is shared, so CPUs spend their time in turns, not in
 * parallel: the simulator finds orderings, it does not measure parallel speed-up).
 *
 * What it can find: interleavings of the CPUs at switch-point granularity, so an unlocked
 * access racing with a locked one, a missing grace period, a lost update under a broken
 * lock, a lost wake-up between CPUs; and, being random, only with some probability per
 * seed. What it cannot: races between two switch points (plain loads and stores in between
 * are atomic here: a window with no switch point in it is never entered), memory ordering
 * (the host thread is sequentially consistent: a missing barrier is invisible), interrupts
 * at other instants than interrupt enabling, and preemption by a tick (there is none: a
 * task that never blocks, yields or spends CPU time keeps its CPU).
 *
 * Replay: the interleaving is a function of the seed and the test alone. A test that tries
 * many seeds (host_smp_seeds()) prints SIM_SEED=S for the one that fails; SIM_SEED=S in the
 * environment runs that seed alone.
 */
#include <stdio.h>
#include <stdlib.h>
#include <cgwb/sched.h>
#include <cgwb/smp.h>
#include <cgwb/bug.h>
#include <cgwb/rcupdate.h>
#include "../../../kernel/sched-internal.h"
#include "host_internal.h"

struct vcpu {
	struct pcpu_hot hot; /* saved while another CPU executes */
	bool irqs_off;
	bool parked;               /* its idle task waits for work */
	unsigned int switch_shift; /* its switch points leave it once in 2^switch_shift */
};

#define MAX_SWITCH_SHIFT 8

bool host_smp_on;
static struct vcpu vcpus[NR_CPUS];
static unsigned int nr_vcpus = 1;
static u64 prng_state;

/* splitmix64: small, spreads any seed well, and the same on every host */
static u64 prng_next(void)
{
	u64 z = (prng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Not idle, or idle with a task queued, or RCU waits for it (it then reports and parks). */
static bool vcpu_can_run(unsigned int cpu)
{
	struct rq *rq = cpu_rq(cpu);

	return !vcpus[cpu].parked || READ_ONCE(rq->nr_queued) || READ_ONCE(rq->need_resched) ||
	       rcu_needs_cpu_qs(cpu);
}

/*
 * Where to go on from self: another CPU that can run, chosen by the PRNG, with probability
 * 1 / 2^(self's switch_shift), always when self must give way; else self. -1: self must give
 * way and no other CPU can run.
 */
static int vcpu_choose(unsigned int self, bool give_way)
{
	unsigned int cand[NR_CPUS], n = 0;
	u64 r = prng_next();

	if (!give_way && (r & ((1ULL << vcpus[self].switch_shift) - 1)))
		return (int)self;
	for (unsigned int cpu = 0; cpu < nr_vcpus; cpu++)
		if (cpu != self && vcpu_can_run(cpu))
			cand[n++] = cpu;
	if (!n)
		return give_way ? -1 : (int)self;
	return (int)cand[(r >> 32) % n];
}

/*
 * Leave this CPU as it is and go on with to. Returns when some CPU switches back to this
 * one, whose words it has loaded by then. Nothing in here is a switch point.
 */
static void vcpu_switch(unsigned int to)
{
	unsigned int from = raw_smp_processor_id();
	struct task_struct *prev = current;

	vcpus[from].hot = pcpu_hot[0];
	vcpus[from].irqs_off = host_irq_swap(vcpus[to].irqs_off);
	pcpu_hot[0] = vcpus[to].hot;
	host_fiber_switch(prev, current, false); /* prev may be dead, on its way out: not yet */
	host_fiber_finish(prev);
}

void host_switch_point(bool spinning)
{
	unsigned int self = raw_smp_processor_id();
	int to;

	if (!current || in_interrupt())
		return;
	to = vcpu_choose(self, spinning);
	if (to < 0)
		panic("host: CPU %u spins and no other CPU can run: deadlock", self);
	if ((unsigned int)to == self)
		return;
	vcpu_switch((unsigned int)to);
	/* what a reschedule IPI sent meanwhile does once interrupts are on */
	if (need_resched())
		preempt_check_resched();
}

/*
 * Interrupts off: until this CPU has work, report a quiescent state, fold vmstat, and park
 * while another CPU runs; when none can, every CPU is idle and this one moves time.
 */
static void vcpu_idle(unsigned int cpu)
{
	struct rq *rq = this_rq();

	while (!READ_ONCE(rq->nr_queued) && !need_resched()) {
		int to;

		rcu_note_context_switch();
		run_cpu_idle_hook();
		vcpus[cpu].parked = true;
		to = vcpu_choose(cpu, true);
		if (to >= 0)
			vcpu_switch((unsigned int)to);
		vcpus[cpu].parked = false;
		/* a period started by this CPU's own report waits for it: report first */
		if (to < 0 && !rcu_needs_cpu_qs(cpu))
			host_idle_step();
	}
}

static int vcpu_idle_fn(void *arg)
{
	unsigned int cpu = (unsigned int)(unsigned long)arg;

	BUG_ON(cpu != raw_smp_processor_id());
	for (;;) {
		arch_local_irq_disable();
		vcpu_idle(cpu);
		arch_local_irq_enable();
		schedule();
	}
	return 0;
}

/* The scheduler's pick with several CPUs, rq's lock held: as the kernel's. */
struct task_struct *host_vcpu_pick(struct rq *rq)
{
	struct task_struct *t = pick_next_fair(rq);

	if (!t && load_balance(rq, true))
		t = pick_next_fair(rq);
	return t ? t : rq->idle;
}

static struct task_struct *vcpu_idle_task(unsigned int cpu)
{
	struct task_struct *t =
		kthread_create(vcpu_idle_fn, (void *)(unsigned long)cpu, "idle/%u", cpu);

	BUG_ON(!t);
	t->flags |= PF_IDLE | PF_KTHREAD;
	t->cpus_mask = 1UL << cpu;
	t->cpu = cpu;
	t->state = TASK_RUNNING; /* never woken: picked when its CPU has nothing else */
	cpu_rq(cpu)->idle = t;
	return t;
}

/*
 * Start CPU cpu (from CPU 0) on its idle task, which enters as a new task does, through
 * kthread_entry() with its queue's lock held (finish_task_switch() releases it), finds
 * nothing to do and parks, handing back to CPU 0.
 */
static void vcpu_boot(unsigned int cpu)
{
	struct task_struct *idle = vcpu_idle_task(cpu), *me = current;
	struct rq *rq = cpu_rq(cpu);

	rq->curr = idle;
	idle->on_cpu = true;
	vcpus[cpu].parked = false;
	set_cpu_online(cpu, true);
	vcpus[0].hot = pcpu_hot[0];
	vcpus[0].irqs_off = host_irq_swap(true);
	pcpu_hot[0] = (struct pcpu_hot){ .current_task = idle, .cpu_number = cpu };
	/* the new CPU's lock, taken as that CPU */
	raw_spin_lock(&rq->lock);
	host_fiber_switch(me, idle, false);
	host_fiber_finish(me);
}

void host_smp_start(unsigned int n, u64 seed)
{
	host_check_initialized(__func__);
	BUG_ON(host_smp_on || n < 2 || n > NR_CPUS);
	BUG_ON(raw_smp_processor_id() != 0 || preempt_count() || irqs_disabled());
	host_set_nr_cpus(n);
	prng_state = seed;
	/*
	 * Each CPU its own rate, 1 to 1/256: a race that needs one CPU stopped inside a short
	 * window while another runs a long way gets seeds where one stops often and the other
	 * runs long stretches.
	 */
	for (unsigned int cpu = 0; cpu < n; cpu++)
		vcpus[cpu].switch_shift = prng_next() % (MAX_SWITCH_SHIFT + 1);
	vcpu_idle_task(0);
	nr_vcpus = n;
	for (unsigned int cpu = 1; cpu < n; cpu++) {
		sched_init_rq(cpu);
		vcpus[cpu].parked = true;
	}
	host_smp_on = true;
	for (unsigned int cpu = 1; cpu < n; cpu++)
		vcpu_boot(cpu);
}
