/* Shared between the platform schedulers and the portable task code (kernel/task.c). */
#ifndef CGWB_KERNEL_SCHED_INTERNAL_H
#define CGWB_KERNEL_SCHED_INTERNAL_H

#include <cgwb/sched.h>

/*
 * A new task starts in the root cgroup with no open files, like a kthread: whoever spawns a
 * command (the shell, cgexec) gives it files and a cgroup before waking it.
 */
void task_init_defaults(struct task_struct *task);
/* Release what a task holds (files, cgroup membership, dirty-throttle leaks) as it exits. */
void task_exit_hook(struct task_struct *task);

void sched_init(void);
__noreturn void cpu_idle_loop(void);

/* kernel/sched.c, called by kernel/arch: the timer tick, and interrupt exit (may switch). */
void sched_tick(void);
void preempt_schedule_irq(void);

#endif
