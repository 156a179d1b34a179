/*
 * Interrupt state and preemption, both this CPU's own. Disabling interrupts keeps this CPU's
 * interrupt handlers out, and nothing else: other CPUs run on, so shared data needs a
 * spinlock. The host platform keeps the same state as plain variables so that "sleeping
 * while atomic" is caught there too.
 */
#ifndef CGWB_IRQFLAGS_H
#define CGWB_IRQFLAGS_H

#include <cgwb/compiler.h>
#include <cgwb/percpu.h>

/**
 * arch_local_irq_save() - turn this CPU's interrupts off, saving their state
 *
 * Context: any context.
 * Return: the state to give arch_local_irq_restore().
 */
unsigned long arch_local_irq_save(void);
/**
 * arch_local_irq_restore() - restore this CPU's interrupt state
 * @flags: what arch_local_irq_save() returned
 *
 * Context: any context.
 */
void arch_local_irq_restore(unsigned long flags);
/**
 * arch_local_irq_enable() - turn this CPU's interrupts on
 *
 * The host build delivers the interrupts that came meanwhile here.
 *
 * Context: any context that may take interrupts.
 */
void arch_local_irq_enable(void);
/**
 * arch_local_irq_disable() - turn this CPU's interrupts off
 *
 * Context: any context.
 */
void arch_local_irq_disable(void);
/**
 * arch_irqs_disabled() - are this CPU's interrupts off?
 *
 * Context: any context.
 * Return: true if they are.
 */
bool arch_irqs_disabled(void);

#define local_irq_save(flags)                    \
	do {                                     \
		(flags) = arch_local_irq_save(); \
	} while (0)
#define local_irq_restore(flags) arch_local_irq_restore(flags)
#define local_irq_enable() arch_local_irq_enable()
#define local_irq_disable() arch_local_irq_disable()
#define irqs_disabled() arch_irqs_disabled()

/* This CPU's nesting of preempt_disable() plus hard-interrupt nesting (HARDIRQ_OFFSET units). */
#define preempt_count() __pcpu_hot_read(preempt_count)
#define preempt_count_add(n) __preempt_count_add(n)
#define preempt_count_sub(n) __preempt_count_add(-(n))
#define HARDIRQ_OFFSET 0x10000

/**
 * preempt_check_resched() - reschedule now if a wake-up asked for it
 *
 * Only when nothing forbids it: preemption on, interrupts on, a task running.
 *
 * Context: any context; may switch tasks.
 */
void preempt_check_resched(void);

static inline void preempt_disable(void)
{
	preempt_count_add(1);
	barrier();
	host_preempt_point(false);
}
static inline void preempt_enable_no_resched(void)
{
	barrier();
	preempt_count_sub(1);
}
static inline void preempt_enable(void)
{
	preempt_enable_no_resched();
	host_preempt_point(false);
	preempt_check_resched();
}

#define in_interrupt() ((preempt_count() & ~0xffff) != 0)
#define in_atomic() (preempt_count() != 0)

#endif
