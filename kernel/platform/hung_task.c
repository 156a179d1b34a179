/*
 * The hung-task detector, as Linux's khungtaskd: a task that has slept uninterruptibly
 * (TASK_UNINTERRUPTIBLE) without running again for hung_task_timeout_secs is reported once
 * per sleep, with its stack, so that a lost wake-up or a deadlock leaves its place in the
 * log instead of a silent timeout. It only reports: the task is left as it is.
 *
 * An NMI asks it for every task's state and stack at once (hung_task.h): a guest where
 * everything waits on something that sleeps interruptibly, or on a timer that never fires,
 * says where each task is before the host kills it.
 *
 * hung_task_timeout_secs=N on the command line; 0 turns it off. Linux's default is 120 s;
 * ours is 30 s, so that the report comes well before a system test's 120 s timeout. A
 * writer held back by io.max may legitimately wait longer: the line is information, not
 * an error.
 */
#include <cgwb/sched.h>
#include <cgwb/spinlock.h>
#include <cgwb/jiffies.h>
#include <cgwb/printk.h>
#include <cgwb/string.h>
#include "../arch/x86.h"
#include "cmdline.h"
#include "ksyms.h"
#include "hung_task.h"
#include <cgwb/platform.h>

#define HUNG_TASK_DEFAULT_SECS 30

static unsigned long hung_task_timeout_secs = HUNG_TASK_DEFAULT_SECS;
static struct task_struct *khungtaskd_task;
static int show_state_asked; /* set by an NMI, taken by khungtaskd */

/* The frame __switch_to left on a sleeping task's stack: r15..r12, rbx, rbp, return. */
static void show_sleeping_stack(const struct task_struct *t)
{
	const u64 *frame = (const u64 *)t->sp;

	print_symbol(LOGLEVEL_ERR, "  switched out at [<%016llx>] ", frame[6]);
	show_backtrace(frame[5]);
}

static void check_hung_task(struct task_struct *t, void *now_ns)
{
	u64 now = *(u64 *)now_ns, timeout = hung_task_timeout_secs * NSEC_PER_SEC;

	if (t == current || t->state != TASK_UNINTERRUPTIBLE ||
	    t->hung_switches != t->nr_switches || !t->hung_since_ns) {
		/* running, asleep since its last look, or never looked at (a task just made,
		 * not yet woken, has run 0 times as it had at "time 0"): counting starts now */
		t->hung_switches = t->nr_switches;
		t->hung_since_ns = now;
		t->hung_reported = false;
		return;
	}
	if (t->hung_reported || now - t->hung_since_ns < timeout)
		return;
	t->hung_reported = true;
	pr_err("INFO: task %s:%d blocked for more than %lu seconds.\n", t->comm, t->pid,
	       (unsigned long)((now - t->hung_since_ns) / NSEC_PER_SEC));
	show_sleeping_stack(t);
}

static void show_task(struct task_struct *t, void *unused)
{
	(void)unused;
	pr_err("  task %-16s pid %-4d %s on CPU %u%s\n", t->comm, t->pid, task_state_name(t),
	       t->cpu, t->on_cpu ? ", running" : "");
	/* a running task's stack is moving; an idle worker's says nothing */
	if (t != current && !t->on_cpu && t->state != TASK_IDLE)
		show_sleeping_stack(t);
}

static struct show_state_hook *show_state_hooks;
static DEFINE_SPINLOCK(show_state_hooks_lock);

void register_show_state_hook(struct show_state_hook *hook)
{
	spin_lock(&show_state_hooks_lock);
	hook->next = show_state_hooks;
	show_state_hooks = hook;
	spin_unlock(&show_state_hooks_lock);
}

static void show_state(void)
{
	struct show_state_hook *hook;

	pr_err("show_state: every task, asked by an NMI\n");
	for_each_task(show_task, NULL)
		;
	spin_lock(&show_state_hooks_lock);
	hook = show_state_hooks;
	spin_unlock(&show_state_hooks_lock);
	for (; hook; hook = hook->next) /* never removed: the walk needs no lock */
		hook->show();
	pr_err("show_state: end\n");
}

void hung_task_nmi(void)
{
	__atomic_store_n(&show_state_asked, 1, __ATOMIC_RELAXED);
}

void hung_task_tick(void)
{
	struct task_struct *t = __atomic_load_n(&khungtaskd_task, __ATOMIC_ACQUIRE);

	if (t && __atomic_load_n(&show_state_asked, __ATOMIC_RELAXED))
		wake_up_process(t);
}

static int khungtaskd(void *unused)
{
	(void)unused;
	for (;;) {
		u64 now;

		/* a quarter of the timeout: a hang is reported within 1.25 times it */
		schedule_timeout_interruptible(msecs_to_jiffies(hung_task_timeout_secs * 250));
		if (__atomic_exchange_n(&show_state_asked, 0, __ATOMIC_RELAXED)) {
			show_state();
			continue;
		}
		now = ktime_get_ns();
		for_each_task(check_hung_task, &now)
			;
	}
	return 0;
}

void hung_task_init(void)
{
	const char *v = cmdline_get("hung_task_timeout_secs");
	u64 secs;
	struct task_struct *t;

	if (v && !kstrtoull(v, 10, &secs))
		hung_task_timeout_secs = (unsigned long)min(secs, 24ULL * 3600);
	if (!hung_task_timeout_secs)
		return;
	t = kthread_run(khungtaskd, NULL, "khungtaskd");
	if (!t) {
		pr_warn("hung_task: no detector thread\n");
		return;
	}
	kthread_detach(t);
	__atomic_store_n(&khungtaskd_task, t, __ATOMIC_RELEASE);
}
