/*
 * The scheduler core (kernel/sched-core.c, portable) and the platform under it.
 *
 * The core owns everything about tasks that is the same on every platform: the task list and
 * pids, the run queue in fair order, wake-ups and kills, what schedule() does with the task leaving
 * the CPU, kthread creation, exit, join and detach. A platform supplies only the machine:
 *
 *   kernel: kernel/platform/sched.c,              host: tests/host/platform/sched.c,
 *           kernel/arch/task.c                          fiber.c
 *   - the idle task, halting the CPU              - no idle task: the idle loop moves virtual
 *   - stacks and __switch_to                        time; ucontext fibers
 *   - the tick that ends time slices              - host_consume_ns() ends time slices
 *
 * Every hook is called with interrupts off.
 */
#ifndef CGWB_KERNEL_SCHED_INTERNAL_H
#define CGWB_KERNEL_SCHED_INTERNAL_H

#include <cgwb/sched.h>

/*
 * Fair picking, as Linux's CFS with one CPU: within SCHED_LATENCY_NS every runnable task
 * runs once (a slice is the latency shared among them, at least SCHED_MIN_GRAN_NS); a task
 * woken from sleep preempts one that has had SCHED_WAKEUP_GRAN_NS more CPU time than it.
 */
#define SCHED_LATENCY_NS (6 * NSEC_PER_MSEC)
#define SCHED_MIN_GRAN_NS (750 * NSEC_PER_USEC)
#define SCHED_WAKEUP_GRAN_NS (1 * NSEC_PER_MSEC)

/*
 * A new task has no open files and, through the cgroup's init hook, starts in the root
 * cgroup, like a kthread: whoever spawns a command (the shell, cgexec) gives it files and a
 * cgroup before waking it.
 */
void task_init_defaults(struct task_struct *task);
/* Run the exit hooks: the task's files, cgroup membership, dirty-throttle leaks go. */
void task_exit_hook(struct task_struct *task);

/* ---------------------------------------------------------------- core, for the platforms */

/*
 * The context the platform starts in becomes a task: pid 0 and PF_IDLE for the kernel's
 * idle task, pid 1 for the host's "main". It is on the task list but never exits.
 */
void sched_init_boot_task(struct task_struct *task, int pid, const char *comm, unsigned int flags);
/* preempt: the task did not ask to sleep (tick, wake-up, cond_resched). Interrupts off. */
void __schedule(bool preempt);
bool runqueue_empty(void);
/* The runnable task that has had least CPU time, taken off the queue; NULL if none. */
struct task_struct *runqueue_pop(void);
/* The current slice's length: the latency shared by the runnable tasks. */
u64 sched_slice_ns(void);
/*
 * The tick's question: has the running task used its slice while another waits? With
 * nobody waiting it starts a fresh slice instead.
 */
bool sched_slice_expired(struct task_struct *curr, u64 now);
/* A reschedule is due at the next chance (preempt_enable, interrupt exit, cond_resched). */
void set_need_resched(void);
/* A new task's first code, on its own stack: runs the task's function, then exits. */
__noreturn void kthread_entry(void);

/* ---------------------------------------------------------------- platform hooks */

/* A fresh stack (or context) whose first call is kthread_entry(); and freeing it. */
int arch_task_init(struct task_struct *task);
void arch_task_free(struct task_struct *task);
/*
 * The task to run next: runqueue_pop(), or when nobody is runnable, what this platform does
 * instead (the kernel's idle task; the host's idle loop moving virtual time). Never NULL.
 */
struct task_struct *pick_next_task(void);
/* Leave prev's stack for next's; returns when prev is switched back to. */
void arch_switch_to(struct task_struct *prev, struct task_struct *next);
/* First thing on a stack switched to, from: a resumed task, or a new one in kthread_entry(). */
void arch_finish_switch(struct task_struct *self, struct task_struct *from);

/* kernel/platform/sched.c (its start: <cgwb/platform.h>) */
/* Called by kernel/arch: the timer tick, and interrupt exit (may switch). */
void sched_tick(void);
void preempt_schedule_irq(void);
/* Bringing a CPU up (kernel/arch/smpboot.c): its idle task's stack, then on the CPU itself. */
void *sched_alloc_idle_stack(unsigned int cpu);
void sched_init_secondary(unsigned int cpu);

#endif
