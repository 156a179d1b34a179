/*
 * The scheduler core (kernel/sched-*.c and kthread.c, portable) and the platform under it.
 *
 * The core owns everything about tasks that is the same on every platform: the task list and
 * pids, one run queue per CPU in fair order, wake-ups and their placement, load balancing and
 * affinity, what schedule() does with the task leaving the CPU, kthread creation, exit, join
 * and detach. A platform supplies only the machine:
 *
 *   kernel: kernel/platform/sched.c,              host: tests/host/platform/sched.c,
 *           kernel/arch/task.c                          fiber.c
 *   - one idle task per CPU, halting it           - one CPU, no idle task: the idle loop
 *                                                   moves virtual time; fibers; or several
 *                                                   virtual CPUs with idle tasks (vcpu.c)
 *   - stacks and __switch_to                      - host_consume_ns() ends time slices
 *   - the tick that ends time slices and
 *     balances the queues, the IPIs
 *
 * Locking, in this order: the task list's lock, a task's pi_lock, then run queue locks (two at once only through
 * double_rq_lock(), lower CPU first). A run queue's lock is held
 * across a switch: taken by the task leaving, released by the one arriving
 * (finish_task_switch()). Every hook is called with interrupts off.
 */
#ifndef CGWB_KERNEL_SCHED_INTERNAL_H
#define CGWB_KERNEL_SCHED_INTERNAL_H

#include <cgwb/sched.h>
#include <cgwb/smp.h>

/*
 * Fair picking, as Linux's CFS per CPU: within SCHED_LATENCY_NS every runnable task of a
 * queue runs once (a slice is the latency shared among them, at least SCHED_MIN_GRAN_NS); a
 * task woken from sleep preempts one that has had SCHED_WAKEUP_GRAN_NS more CPU time than it.
 */
#define SCHED_LATENCY_NS (6 * NSEC_PER_MSEC)
#define SCHED_MIN_GRAN_NS (750 * NSEC_PER_USEC)
#define SCHED_WAKEUP_GRAN_NS (1 * NSEC_PER_MSEC)
/* How often a CPU's tick looks for a busier queue to pull from. */
#define SCHED_BALANCE_INTERVAL_NS (4 * NSEC_PER_MSEC)
/* The most tasks one balancing pass moves, interrupts off (Linux's sysctl_sched_nr_migrate). */
#define SCHED_NR_MIGRATE 32

struct rq {
	spinlock_t lock;
	unsigned int cpu;
	struct task_struct *curr;
	struct task_struct *idle; /* NULL on the host */
	struct list_head queue;   /* runnable and not running, in vruntime order */
	unsigned int nr_queued;
	u64 min_vruntime;
	bool need_resched;
	struct task_struct *prev; /* the task switched away from, for finish_task_switch() */
	u64 next_balance_ns;
	u64 nr_switches;
};

DECLARE_PER_CPU(struct rq, runqueues);
#define cpu_rq(cpu) per_cpu_ptr(&runqueues, (cpu))
#define this_rq() this_cpu_ptr(&runqueues)
#define task_rq(t) cpu_rq(task_cpu(t))

/*
 * A new task has no open files and, through the cgroup's init hook, starts in the root
 * cgroup, like a kthread: whoever spawns a command (the shell, cgexec) gives it files and a
 * cgroup before waking it.
 */
void task_init_defaults(struct task_struct *task);
/* The platform's idle loop, interrupts off, before it halts (register_cpu_idle_hook()). */
void run_cpu_idle_hook(void);
/* Run the exit hooks: the task's files, cgroup membership, dirty-throttle leaks go. */
void task_exit_hook(struct task_struct *task);

/* ---------------------------------------------------------------- fair queues (sched-fair.c) */

void sched_init_rq(unsigned int cpu);
/* Queue a runnable task that is not running / take it off; rq's lock held. */
void enqueue_task(struct rq *rq, struct task_struct *task);
void dequeue_task(struct rq *rq, struct task_struct *task);
/* The queued task that has had least CPU time, taken off the queue; NULL if none. */
struct task_struct *pick_next_fair(struct rq *rq);
/* Charge the running task the time since it last was; moves min_vruntime. */
void update_curr(struct rq *rq, u64 now);
/* A woken task is placed at most half a latency period behind the least-served. */
void place_woken(struct rq *rq, struct task_struct *task);
/* Would the woken task preempt the running one? */
bool wakeup_preempt(struct rq *rq, struct task_struct *task);
u64 sched_slice_ns(struct rq *rq);
/*
 * The tick's question: has the running task used its slice while another waits? With
 * nobody waiting it starts a fresh slice instead.
 */
bool sched_slice_expired(struct rq *rq, struct task_struct *curr, u64 now);
/* A reschedule is due on this CPU at the next chance / on rq's CPU (an IPI if remote). */
void set_need_resched(void);
void resched_curr(struct rq *rq);

/* ---------------------------------------------------------------- balancing (sched-balance.c) */

struct rq *task_rq_lock(struct task_struct *task, unsigned long *flags);
void task_rq_unlock(struct rq *rq, struct task_struct *task, unsigned long flags);
void double_rq_lock(struct rq *a, struct rq *b);
void double_rq_unlock(struct rq *a, struct rq *b);
/* Where a waking task should run: pi_lock held. */
unsigned int select_task_rq(struct task_struct *task);
/* Move a task's accounting to another CPU (both queues' locks, or pi_lock if not on_rq). */
void set_task_cpu(struct task_struct *task, unsigned int cpu);
/* Pull a task from the busiest queue to this one (rq's lock held; may drop it). */
bool load_balance(struct rq *rq, bool idle);

/* ---------------------------------------------------------------- core, for the platforms */

/*
 * The context the platform starts in becomes a task: pid 0 and PF_IDLE for the kernel's
 * idle tasks, pid 1 for the host's "main". It is on the task list but never exits.
 */
void sched_init_boot_task(struct task_struct *task, int pid, const char *comm, unsigned int flags);
/* preempt: the task did not ask to sleep (tick, wake-up, cond_resched). Interrupts off. */
void __schedule(bool preempt);
/* The periodic tick of this CPU: slices, and balancing every SCHED_BALANCE_INTERVAL_NS. */
void scheduler_tick(void);
/* A new task's first code, on its own stack: runs the task's function, then exits. */
__noreturn void kthread_entry(void);
/* A new task's first steps on its stack: finish the switch that started it. */
void schedule_tail(void);
/* kthread.c: the dead task is off its CPU; its joiner or its own detach frees it. */
void task_dead(struct task_struct *task);
void kthread_init_cpu_task(struct task_struct *task);

/* ---------------------------------------------------------------- platform hooks */

/* A fresh stack (or context) whose first call is kthread_entry(); and freeing it. */
int arch_task_init(struct task_struct *task);
void arch_task_free(struct task_struct *task);
/*
 * The task to run next, rq's lock held: pick_next_fair(), or when nobody is runnable, what
 * this platform does instead (the kernel's idle task after trying to pull work; the host's
 * idle loop moving virtual time, which drops the lock while it runs events). Never NULL.
 */
struct task_struct *pick_next_task(struct rq *rq);
/* Leave prev's stack for next's; returns when prev is switched back to. */
void arch_switch_to(struct task_struct *prev, struct task_struct *next);
/* First thing on a stack switched to, from: a resumed task, or a new one in kthread_entry(). */
void arch_finish_switch(struct task_struct *self, struct task_struct *from);
/* Make cpu look at its need_resched (an IPI; on the host, it looks when it next runs). */
void arch_send_reschedule(unsigned int cpu);

/* kernel/platform/sched.c (its start: <cgwb/platform.h>) */
/* Called by kernel/arch: the timer tick, and interrupt exit (may switch). */
void sched_tick(void);
void preempt_schedule_irq(void);
/* Bringing a CPU up (kernel/arch/smpboot.c): its idle task's stack, then on the CPU itself. */
void *sched_alloc_idle_stack(unsigned int cpu);
void sched_init_secondary(unsigned int cpu);

#endif
