/*
 * The kernel's side of the scheduler (the core is kernel/sched-core.c): the idle task that
 * halts the CPU, the stack switch, and the 1000 Hz tick that ends time slices and
 * preempts at interrupt exit.
 */
#include <cgwb/sched.h>
#include <cgwb/bug.h>
#include "../arch/x86.h"
#include "../sched-internal.h"

static struct task_struct idle_task;

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

__noreturn void cpu_idle_loop(void)
{
	for (;;) {
		arch_local_irq_disable();
		if (runqueue_empty())
			safe_halt();
		else
			arch_local_irq_enable();
		schedule();
	}
}
