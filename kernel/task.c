/* Task state that does not depend on the platform scheduler (portable). */
#include <cgwb/sched.h>
#include <cgwb/cgroup.h>
#include <cgwb/fs.h>
#include <cgwb/writeback.h>
#include <cgwb/irqflags.h>
#include "sched-internal.h"

#define DIRTY_THROTTLE_INITIAL_PAUSE 32 /* 128 KiB in pages, as in Linux */

void task_init_defaults(struct task_struct *t)
{
	t->nr_dirtied = 0;
	t->nr_dirtied_pause = DIRTY_THROTTLE_INITIAL_PAUSE;
	t->dirty_paused_when = 0;
	t->kill_signal = 0;
	t->oom_score_adj = 0;
	for (int fd = 0; fd < TASK_NR_FILES; fd++)
		t->files[fd] = NULL;
	t->cgroup = NULL;
	cgroup_attach_task(&cgroup_root, t);
}

void task_exit_hook(struct task_struct *t)
{
	unsigned long flags;

	/* pages dirtied since its last throttling check: charged to the next dirtiers */
	local_irq_save(flags);
	dirty_throttle_leaks += t->nr_dirtied;
	local_irq_restore(flags);
	for (int fd = 0; fd < TASK_NR_FILES; fd++) {
		struct file *f = t->files[fd];
		t->files[fd] = NULL;
		fput(f);
	}
	exit_fs(t);
	cgroup_exit_task(t);
}

const char *task_state_name(const struct task_struct *t)
{
	switch (t->state) {
	case TASK_RUNNING: return "R";
	case TASK_INTERRUPTIBLE: return "S";
	case TASK_UNINTERRUPTIBLE: return "D";
	case TASK_IDLE: return "I";
	case TASK_DEAD: return "Z";
	default: return "?";
	}
}
