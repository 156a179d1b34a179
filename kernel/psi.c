/*
 * Pressure stall information (Linux's kernel/sched/psi.c), one set of counts per group for
 * all CPUs (docs/psi.md says what that changes).
 *
 * The problem: tell how much of the time a group's tasks could not make progress for
 * want of the CPU, memory or IO, so that an operator (or a test) sees who waits.
 *
 * The policy, Linux's: every task carries flags (TSK_RUNNING, TSK_ONCPU, TSK_IOWAIT,
 * TSK_MEMSTALL, TSK_MEMSTALL_RUNNING) that the scheduler and the stall sites change, and
 * each group counts its tasks per flag, in its own group and in every ancestor up to
 * psi_system. From the counts follows which states the group is in (some: at least one
 * task stalled; full: stalled with nothing of the group running), and the time in each
 * state accumulates at every change. Every 2 s, while anything happens, a timer folds
 * the time spent in each state over the last period into running averages over 10, 60
 * and 300 s (Linux's exponential decays); idle periods decay them with zeros.
 *
 * The races: flags, counts and times change under psi_lock with interrupts off (the
 * scheduler calls in with them off); a task's group changes only under it, so a task is
 * always counted in exactly the groups its flags were added to.
 */
#include <cgwb/psi.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include <cgwb/sched.h>
#include <cgwb/timer.h>
#include <cgwb/seq_buf.h>
#include <cgwb/spinlock.h>
#include <cgwb/bug.h>
#include <cgwb/jiffies.h>

#define PSI_FREQ_NS (2 * NSEC_PER_SEC) /* the averages' period */
#define FSHIFT 11
#define FIXED_1 (1UL << FSHIFT)
#define EXP_10s 1677 /* 1/exp(2s/10s) as fixed-point */
#define EXP_60s 1981
#define EXP_300s 2034

static DEFINE_SPINLOCK(psi_lock);
static LIST_HEAD(psi_groups);
static void psi_avgs_timer_fn(struct timer_list *timer);
static struct timer_list psi_avgs_timer = { .entry = LIST_HEAD_INIT(psi_avgs_timer.entry),
					    .function = psi_avgs_timer_fn };

struct psi_group psi_system = { .node = LIST_HEAD_INIT(psi_system.node) };

static struct psi_group *task_psi_group(const struct task_struct *task)
{
	return task->psi_group ? task->psi_group : &psi_system;
}

static bool test_state(const unsigned int *tasks, enum psi_states state)
{
	switch (state) {
	case PSI_IO_SOME:
		return tasks[NR_IOWAIT];
	case PSI_IO_FULL:
		return tasks[NR_IOWAIT] && !tasks[NR_RUNNING];
	case PSI_MEM_SOME:
		return tasks[NR_MEMSTALL];
	case PSI_MEM_FULL:
		return tasks[NR_MEMSTALL] && tasks[NR_RUNNING] == tasks[NR_MEMSTALL_RUNNING];
	case PSI_CPU_SOME:
		return tasks[NR_RUNNING] > tasks[NR_ONCPU];
	case PSI_CPU_FULL:
		return tasks[NR_RUNNING] && !tasks[NR_ONCPU];
	case PSI_NONIDLE:
		return tasks[NR_IOWAIT] || tasks[NR_MEMSTALL] || tasks[NR_RUNNING];
	default:
		return false;
	}
}

/* The time since the last change goes to the states the group was in (psi_lock). */
static void record_times(struct psi_group *group, u64 now)
{
	u64 delta = now - group->state_start;

	group->state_start = now;
	for (int s = 0; s < NR_PSI_STATES; s++)
		if (group->state_mask & (1U << s))
			group->total[s] += delta;
}

static void group_change(struct psi_group *group, unsigned int clear, unsigned int set, u64 now)
{
	unsigned int mask = 0;

	record_times(group, now);
	for (int t = 0; t < NR_PSI_TASK_COUNTS; t++) {
		if ((clear & (1U << t)) && !WARN_ON_ONCE(!group->tasks[t]))
			group->tasks[t]--;
		if (set & (1U << t))
			group->tasks[t]++;
	}
	for (int s = 0; s < NR_PSI_STATES; s++)
		if (test_state(group->tasks, s))
			mask |= 1U << s;
	group->state_mask = mask;
}

/* Change task's flags and every count of its groups (psi_lock). */
static void psi_task_change(struct task_struct *task, unsigned int clear, unsigned int set)
{
	u64 now = ktime_get_ns();

	clear &= task->psi_flags;
	set &= ~task->psi_flags;
	if (!clear && !set)
		return;
	task->psi_flags = (task->psi_flags & ~clear) | set;
	for (struct psi_group *g = task_psi_group(task); g; g = g->parent)
		group_change(g, clear, set, now);
	if (!timer_pending(&psi_avgs_timer))
		mod_timer(&psi_avgs_timer, jiffies + nsecs_to_jiffies(PSI_FREQ_NS));
}

void psi_task_wake(struct task_struct *task)
{
	unsigned long flags;

	if (task->flags & PF_IDLE)
		return;
	spin_lock_irqsave(&psi_lock, flags);
	psi_task_change(task, TSK_IOWAIT,
			TSK_RUNNING | (task->in_memstall ? TSK_MEMSTALL_RUNNING : 0));
	spin_unlock_irqrestore(&psi_lock, flags);
}

void psi_task_sleep(struct task_struct *task, bool dead)
{
	unsigned int clear = TSK_RUNNING | TSK_ONCPU | TSK_MEMSTALL_RUNNING;
	unsigned long flags;

	if (task->flags & PF_IDLE)
		return;
	if (dead)
		clear |= TSK_IOWAIT | TSK_MEMSTALL;
	spin_lock_irqsave(&psi_lock, flags);
	psi_task_change(task, clear, !dead && task->in_iowait ? TSK_IOWAIT : 0);
	spin_unlock_irqrestore(&psi_lock, flags);
}

void psi_task_switch(struct task_struct *prev, struct task_struct *next)
{
	unsigned long flags;

	spin_lock_irqsave(&psi_lock, flags);
	if (prev != next && !(prev->flags & PF_IDLE))
		psi_task_change(prev, TSK_ONCPU, 0);
	if (!(next->flags & PF_IDLE))
		psi_task_change(next, 0, TSK_ONCPU);
	spin_unlock_irqrestore(&psi_lock, flags);
}

void psi_task_move(struct task_struct *task, struct psi_group *group)
{
	unsigned int tsk_flags;
	unsigned long flags;

	spin_lock_irqsave(&psi_lock, flags);
	tsk_flags = task->psi_flags;
	psi_task_change(task, tsk_flags, 0);
	task->psi_group = group == &psi_system ? NULL : group;
	psi_task_change(task, 0, tsk_flags);
	spin_unlock_irqrestore(&psi_lock, flags);
}

void psi_memstall_enter(unsigned long *flags)
{
	unsigned long irqflags;

	*flags = current->in_memstall;
	if (*flags)
		return;
	spin_lock_irqsave(&psi_lock, irqflags);
	current->in_memstall = true;
	psi_task_change(current, 0, TSK_MEMSTALL | TSK_MEMSTALL_RUNNING);
	spin_unlock_irqrestore(&psi_lock, irqflags);
}

void psi_memstall_leave(unsigned long *flags)
{
	unsigned long irqflags;

	if (*flags)
		return;
	spin_lock_irqsave(&psi_lock, irqflags);
	current->in_memstall = false;
	psi_task_change(current, TSK_MEMSTALL | TSK_MEMSTALL_RUNNING, 0);
	spin_unlock_irqrestore(&psi_lock, irqflags);
}

void psi_group_init(struct psi_group *group, struct psi_group *parent)
{
	unsigned long flags;
	u64 now = ktime_get_ns();

	*group = (struct psi_group){ .parent = parent ? parent : &psi_system };
	group->state_start = group->avg_last_update = now;
	group->avg_next_update = now + PSI_FREQ_NS;
	spin_lock_irqsave(&psi_lock, flags);
	list_add_tail(&group->node, &psi_groups);
	spin_unlock_irqrestore(&psi_lock, flags);
}

void psi_group_exit(struct psi_group *group)
{
	unsigned long flags;

	spin_lock_irqsave(&psi_lock, flags);
	list_del_init(&group->node);
	spin_unlock_irqrestore(&psi_lock, flags);
}

/* ---------------------------------------------------------------- averages */

static unsigned long calc_load(unsigned long load, unsigned long exp, unsigned long active)
{
	unsigned long newload = load * exp + active * (FIXED_1 - exp);

	if (active >= load)
		newload += FIXED_1 - 1;
	return newload / FIXED_1;
}

/* period 0 (an update on the grid point itself): only the missed periods count. */
static void calc_avgs(unsigned long avg[3], u64 missed, u64 time, u64 period)
{
	static const unsigned long exps[3] = { EXP_10s, EXP_60s, EXP_300s };
	unsigned long pct = period ? (unsigned long)(min(time * 100 / period, (u64)100) * FIXED_1) :
				     0;

	for (int i = 0; i < 3; i++) {
		/* periods without any activity count as zeroes */
		for (u64 m = 0; m < missed && avg[i]; m++)
			avg[i] = calc_load(avg[i], exps[i], 0);
		if (period)
			avg[i] = calc_load(avg[i], exps[i], pct);
	}
}

/*
 * Fold the time since the last update into the averages (psi_lock): was it nonidle? As
 * Linux's update_averages(): the updates keep a fixed grid of PSI_FREQ_NS, the periods
 * missed (idle, the timer stopped) count as zeros, and the sample is the time since the
 * last update less those periods, so a stall after a long idle time weighs as it should.
 * A sample longer than its period (time that slipped in from the next) is taken in up to
 * the period, the rest in the next.
 */
static bool update_averages(struct psi_group *group, u64 now)
{
	u64 expires = group->avg_next_update, missed = 0, period;
	bool nonidle;

	if (now < expires)
		return group->state_mask != 0;
	record_times(group, now);
	if (now - expires >= PSI_FREQ_NS)
		missed = (now - expires) / PSI_FREQ_NS;
	period = now - (group->avg_last_update + missed * PSI_FREQ_NS);
	nonidle = group->total[PSI_NONIDLE] != group->avg_total[PSI_NONIDLE] || group->state_mask;
	for (int s = 0; s < NR_PSI_STATES - 1; s++) {
		u64 sample = min(group->total[s] - group->avg_total[s], period);

		group->avg_total[s] += sample;
		calc_avgs(group->avg[s], missed, sample, period);
	}
	group->avg_total[PSI_NONIDLE] = group->total[PSI_NONIDLE];
	group->avg_last_update = now;
	group->avg_next_update = expires + (1 + missed) * PSI_FREQ_NS;
	return nonidle;
}

/* Every 2 s while some group is not idle, as Linux's psi_avgs_work. */
static void psi_avgs_timer_fn(struct timer_list *timer)
{
	struct psi_group *group;
	unsigned long flags;
	bool nonidle;
	u64 now = ktime_get_ns();

	spin_lock_irqsave(&psi_lock, flags);
	nonidle = update_averages(&psi_system, now);
	list_for_each_entry(group, &psi_groups, node)
		nonidle |= update_averages(group, now);
	if (nonidle)
		mod_timer(timer, jiffies + nsecs_to_jiffies(PSI_FREQ_NS));
	spin_unlock_irqrestore(&psi_lock, flags);
}

/* ---------------------------------------------------------------- the files */

#define LOAD_INT(x) ((x) >> FSHIFT)
#define LOAD_FRAC(x) LOAD_INT(((x) & (FIXED_1 - 1)) * 100)

int psi_show(struct seq_buf *s, struct psi_group *group, enum psi_res res)
{
	unsigned long avg[2][3] = { { 0 } }, flags;
	u64 total[2] = { 0, 0 };

	spin_lock_irqsave(&psi_lock, flags);
	update_averages(group, ktime_get_ns());
	record_times(group, ktime_get_ns());
	for (int full = 0; full < 2; full++) {
		/* the CPU's full is not defined machine-wide: zeros, as Linux */
		if (group == &psi_system && res == PSI_CPU && full)
			continue;
		for (int i = 0; i < 3; i++)
			avg[full][i] = group->avg[res * 2 + full][i];
		total[full] = group->total[res * 2 + full] / NSEC_PER_USEC;
	}
	spin_unlock_irqrestore(&psi_lock, flags);
	for (int full = 0; full < 2; full++)
		seq_printf(s, "%s avg10=%lu.%02lu avg60=%lu.%02lu avg300=%lu.%02lu total=%llu\n",
			   full ? "full" : "some", LOAD_INT(avg[full][0]), LOAD_FRAC(avg[full][0]),
			   LOAD_INT(avg[full][1]), LOAD_FRAC(avg[full][1]), LOAD_INT(avg[full][2]),
			   LOAD_FRAC(avg[full][2]), (unsigned long long)total[full]);
	return 0;
}

/* ---------------------------------------------------------------- triggers */

#define WINDOW_MIN_US 500000 /* Linux's psi trigger window bounds */
#define WINDOW_MAX_US 10000000

/* Decimal digits at *p (at least one, no overflow) into *v, *p past them: 0 or -EINVAL. */
static int parse_u64(const char **p, u64 *v)
{
	const char *s = *p;

	*v = 0;
	if (*s < '0' || *s > '9')
		return -EINVAL;
	for (; *s >= '0' && *s <= '9'; s++) {
		if (*v > (~0ULL - 9) / 10)
			return -EINVAL;
		*v = *v * 10 + (u64)(*s - '0');
	}
	*p = s;
	return 0;
}

int psi_trigger_parse(const char *buf, enum psi_res res, struct psi_trigger_spec *spec)
{
	u64 threshold, window;
	const char *p = buf;
	bool full;

	if (!strncmp(p, "some ", 5)) {
		full = false;
		p += 5;
	} else if (!strncmp(p, "full ", 5)) {
		full = true;
		p += 5;
	} else {
		return -EINVAL;
	}
	if (parse_u64(&p, &threshold) || *p++ != ' ' || parse_u64(&p, &window))
		return -EINVAL;
	while (*p == ' ' || *p == '\n')
		p++;
	if (*p || window < WINDOW_MIN_US || window > WINDOW_MAX_US || !threshold || threshold > window)
		return -EINVAL;
	spec->state = (enum psi_states)(res * 2 + full);
	spec->threshold_us = threshold;
	spec->window_us = window;
	return 0;
}
