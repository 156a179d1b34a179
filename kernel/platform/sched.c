/*
 * The kernel's side of the scheduler (the core is kernel/sched-*.c): one idle task per CPU
 * that halts it, the stack switch, the tick that ends time slices, preemption at interrupt
 * exit, and the reschedule IPI.
 */
#include <cgwb/sched.h>
#include <cgwb/bug.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/smp.h>
#include <cgwb/rcupdate.h>
#include <cgwb/profile.h>
#include "../arch/x86.h"
#include "../sched-internal.h"
#include "hung_task.h"

static struct task_struct boot_idle_task;
static struct task_struct *idle_tasks[NR_CPUS];

/* Nobody queued: before idling, pull work from a busier CPU. */
struct task_struct *pick_next_task(struct rq *rq)
{
	struct task_struct *t = pick_next_fair(rq);

	if (!t && num_online_cpus() > 1 && load_balance(rq, true))
		t = pick_next_fair(rq);
	return t ? t : rq->idle;
}

void arch_switch_to(struct task_struct *prev, struct task_struct *next)
{
	if (arch_stack_corrupted(prev))
		panic("stack overflow in task %d (%s)", prev->pid, prev->comm);
	if (prev->uthread || next->uthread)
		user_switch(prev, next);
	__switch_to(&prev->sp, next->sp);
}

/* Nothing to finish: __switch_to has restored everything. */
void arch_finish_switch(struct task_struct *self, struct task_struct *from)
{
}

void arch_send_reschedule(unsigned int cpu)
{
	apic_send_ipi(cpu_to_apic_id(cpu), RESCHEDULE_VECTOR);
}

/* The IPI's work is done by interrupt exit, which sees need_resched. */
static void reschedule_interrupt(void *unused)
{
}

/* Interrupt exit with preemption allowed (called by do_interrupt, interrupts off). */
void preempt_schedule_irq(void)
{
	if (need_resched())
		__schedule(true);
}

void sched_tick(void)
{
	profile_tick(profile_pc());
	if (!current)
		return;
	scheduler_tick();
	rcu_sched_clock_irq(current->flags & PF_IDLE);
	hung_task_tick();
}

/* The boot context becomes CPU 0's idle task (pid 0). */
void sched_init(void)
{
	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++)
		sched_init_rq(cpu);
	sched_init_boot_task(&boot_idle_task, 0, "idle", PF_IDLE | PF_KTHREAD);
	idle_tasks[0] = &boot_idle_task;
	BUG_ON(register_vector(RESCHEDULE_VECTOR, reschedule_interrupt, NULL));
}

/* A CPU about to start: its idle task, whose stack it starts on (the top is returned). */
void *sched_alloc_idle_stack(unsigned int cpu)
{
	struct task_struct *t = kzalloc(sizeof(*t), GFP_KERNEL);

	if (!t)
		return NULL;
	if (arch_task_init(t)) {
		kfree(t);
		return NULL;
	}
	idle_tasks[cpu] = t;
	return (char *)t->stack + t->stack_size;
}

/* On the new CPU, interrupts off: the code running becomes its idle task. */
void sched_init_secondary(unsigned int cpu)
{
	char comm[TASK_COMM_LEN];

	snprintf(comm, sizeof(comm), "idle/%u", cpu);
	sched_init_boot_task(idle_tasks[cpu], 0, comm, PF_IDLE | PF_KTHREAD);
}

__noreturn void cpu_idle_loop(void)
{
	for (;;) {
		arch_local_irq_disable();
		if (!need_resched()) {
			run_cpu_idle_hook(); /* vmstat: the counters stay exact while it sleeps */
			safe_halt();
		} else {
			arch_local_irq_enable();
		}
		schedule();
	}
}
