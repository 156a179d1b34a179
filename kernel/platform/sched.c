/*
 * The kernel's side of the scheduler (the core is kernel/sched-core.c): the idle task that
 * halts the CPU, the stack switch, and the 1000 Hz tick that ends time slices and
 * preempts at interrupt exit.
 */
#include <cgwb/sched.h>
#include <cgwb/bug.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/smp.h>
#include "../arch/x86.h"
#include "../sched-internal.h"

static struct task_struct idle_task;
static struct task_struct *idle_tasks[NR_CPUS];

struct task_struct *pick_next_task(void)
{
	struct task_struct *t = runqueue_pop();

	return t ? t : &idle_task;
}

void arch_switch_to(struct task_struct *prev, struct task_struct *next)
{
	if (arch_stack_corrupted(prev))
		panic("stack overflow in task %d (%s)", prev->pid, prev->comm);
	__switch_to(&prev->sp, next->sp);
}

/* Nothing to finish: __switch_to has restored everything. */
void arch_finish_switch(struct task_struct *self, struct task_struct *from)
{
}

/* Interrupt exit with preemption allowed (called by do_interrupt, interrupts off). */
void preempt_schedule_irq(void)
{
	if (need_resched())
		__schedule(true);
}

/* The timer interrupt: a task that used up its slice gives way to a runnable one. */
void sched_tick(void)
{
	struct task_struct *t = current;
	u64 now;

	if (!t)
		return;
	if (t->flags & PF_IDLE) {
		if (!runqueue_empty())
			set_need_resched();
		return;
	}
	now = ktime_get_ns();
	if (sched_slice_expired(t, now))
		set_need_resched();
}

/* The boot context becomes the idle task (pid 0). */
void sched_init(void)
{
	sched_init_boot_task(&idle_task, 0, "idle", PF_IDLE | PF_KTHREAD);
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
	snprintf(t->comm, sizeof(t->comm), "idle/%u", cpu);
	t->flags = PF_IDLE | PF_KTHREAD;
	idle_tasks[cpu] = t;
	return (char *)t->stack + t->stack_size;
}

/* On the new CPU, interrupts off: the code running is its idle task. */
void sched_init_secondary(unsigned int cpu)
{
	__pcpu_hot_write(current_task, idle_tasks[cpu]);
}

__noreturn void cpu_idle_loop(void)
{
	if (smp_processor_id() != 0)
		for (;;)
			safe_halt();
	for (;;) {
		arch_local_irq_disable();
		if (runqueue_empty())
			safe_halt();
		else
			arch_local_irq_enable();
		schedule();
	}
}
