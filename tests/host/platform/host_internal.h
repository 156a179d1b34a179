/* Shared between the host platform's files; tests use host.h. */
#ifndef CGWB_HOST_INTERNAL_H
#define CGWB_HOST_INTERNAL_H

#include <cgwb/sched.h>
#include "host.h"

/* task->platform: a task's machine context. */
struct host_task {
	void *sp;  /* saved stack pointer while switched out */
	void *map; /* the mmap'd stack with its guard page; NULL for main */
	size_t map_size;
	const void *stack_bottom; /* the usable stack, as AddressSanitizer must be told */
	size_t stack_size;
	void *fake_stack; /* AddressSanitizer's state while switched out */
};

static inline struct host_task *host_task(const struct task_struct *t)
{
	return t->platform;
}

/* fiber.c: context switches (the first two in assembly there) */
void host_switch_stack(void **save_sp, void *to_sp);
void host_task_start(void);
void host_fiber_init_main(struct host_task *ht);
/*
 * Returns when prev is switched back to; the caller then calls host_fiber_finish(). final:
 * prev never is (a dead task's last switch; not a change of CPU, which comes back).
 */
void host_fiber_switch(struct task_struct *prev, struct task_struct *next, bool final);
/* First thing on a stack switched to: in a resumed task and at the start of a new one. */
void host_fiber_finish(struct task_struct *self);

/* clock.c: the virtual clock and the event queue */
void host_clock_reset(void);
/* Earliest pending event (kernel timer or host timer), never before now. */
bool host_next_event(u64 *when_ns);
/* Move the clock to when_ns firing every event due on the way, in time order. */
void host_clock_advance(u64 when_ns);
/* Move the clock without firing: the caller has interrupts off (delivered at irq enable). */
void host_clock_skip(u64 when_ns);
/* Fire every event due now, in interrupt context. */
void host_run_events(void);

/* irq.c: the interrupt flag and interrupt context */
unsigned long host_irq_enter(void);
void host_irq_exit(unsigned long saved);
void host_irq_set_pending(void);
/* Set the flag to off (interrupts disabled), return what it was. */
bool host_irq_swap(bool off);

/* sched.c (the scheduler core's hooks are in kernel/sched-internal.h) */
void host_sched_init(void);
void host_sched_exit(void);
void host_wait_idle(void);
/* Every task's pid, name and state, into the log. */
void host_report_tasks(void);
/* Every CPU idle: run due events, let the run-until-idle waiter in, or move time. */
void host_idle_step(void);

/* vcpu.c: several virtual CPUs (host_smp_start()) */
struct rq;
struct task_struct *host_vcpu_pick(struct rq *rq);

/* mem.c */
void host_mem_init(size_t mem_bytes);
void host_mem_exit(void);

/* log.c */
void host_log_init(void);
void host_log_exit(void);
bool host_log_verbose(void);
/* Write the last max_bytes of the log to stderr, starting at a line boundary. */
void host_log_dump_tail(size_t max_bytes);

/* seeds.c: this process runs one seed of host_smp_seeds() */
extern bool host_seed_child;

/* platform.c */
bool host_platform_up(void);
void host_check_initialized(const char *what);

#endif
