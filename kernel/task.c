/* Task state that does not depend on the platform scheduler (portable). */
#include <cgwb/sched.h>
#include <cgwb/bug.h>
#include "sched-internal.h"

#define DIRTY_THROTTLE_INITIAL_PAUSE 32 /* 128 KiB in pages, as in Linux */
#define TASK_HOOKS_MAX 8

static const struct task_hooks *task_hooks[TASK_HOOKS_MAX];
static unsigned int nr_task_hooks;

void register_task_hooks(const struct task_hooks *hooks)
{
	for (unsigned int i = 0; i < nr_task_hooks; i++)
		if (task_hooks[i] == hooks)
			return; /* a floor started twice (the host tests) */
	BUG_ON(nr_task_hooks == TASK_HOOKS_MAX);
	task_hooks[nr_task_hooks++] = hooks;
}

static void (*cpu_idle_hook)(void);

void register_cpu_idle_hook(void (*fn)(void))
{
	WRITE_ONCE(cpu_idle_hook, fn);
}

void run_cpu_idle_hook(void)
{
	void (*fn)(void) = READ_ONCE(cpu_idle_hook);

	if (fn)
		fn();
}

void task_init_defaults(struct task_struct *t)
{
	t->nr_dirtied = 0;
	t->nr_dirtied_pause = DIRTY_THROTTLE_INITIAL_PAUSE;
	t->dirty_paused_when = 0;
	t->kill_signal = 0;
	t->signal = NULL;
	t->oom_score_adj = 0;
	for (int fd = 0; fd < TASK_NR_FILES; fd++)
		t->files[fd] = NULL;
	t->files_shared = NULL;
	t->nr_files_held = 0;
	t->files_borrowed = NULL;
	t->cgroup = NULL;
	t->sleep_flush = NULL;
	for (unsigned int i = 0; i < nr_task_hooks; i++)
		if (task_hooks[i]->init)
			task_hooks[i]->init(t);
}

void task_exit_hook(struct task_struct *t)
{
	for (unsigned int i = nr_task_hooks; i-- > 0;)
		if (task_hooks[i]->exit)
			task_hooks[i]->exit(t);
}

const char *task_state_name(const struct task_struct *t)
{
	switch (t->state) {
	case TASK_RUNNING:
		return "R";
	case TASK_INTERRUPTIBLE:
		return "S";
	case TASK_UNINTERRUPTIBLE:
		return "D";
	case TASK_IDLE:
		return "I";
	case TASK_DEAD:
		return "Z";
	default:
		return "?";
	}
}
