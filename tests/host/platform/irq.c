/*
 * The interrupt flag as a plain variable. Nothing can interrupt a host task for real; the
 * flag exists so that the portable code's irq-safe locking is exercised and checked
 * (sleeping with interrupts off panics), and so that time consumed with interrupts off
 * delivers its events late, when they are enabled again, as the hardware would.
 */
#include <cgwb/irqflags.h>
#include "host_internal.h"

#define HOST_IRQ_ENABLED 0x200UL /* where x86 keeps IF in rflags, for familiar dumps */

static bool irqs_off;
static bool irq_pending; /* the clock moved while interrupts were off */

static void deliver_pending(void)
{
	if (irq_pending && !in_interrupt()) {
		irq_pending = false;
		host_run_events();
	}
}

unsigned long arch_local_irq_save(void)
{
	unsigned long flags = irqs_off ? 0 : HOST_IRQ_ENABLED;

	irqs_off = true;
	return flags;
}

void arch_local_irq_restore(unsigned long flags)
{
	if (flags & HOST_IRQ_ENABLED)
		arch_local_irq_enable();
	else
		irqs_off = true;
}

void arch_local_irq_enable(void)
{
	irqs_off = false;
	deliver_pending();
	host_preempt_point(false);
}

void arch_local_irq_disable(void)
{
	irqs_off = true;
}

bool arch_irqs_disabled(void)
{
	return irqs_off;
}

/* A change of virtual CPU (vcpu.c): each has its own flag. */
bool host_irq_swap(bool off)
{
	bool old = irqs_off;

	irqs_off = off;
	return old;
}

void host_irq_set_pending(void)
{
	irq_pending = true;
}

/* Interrupt context: what the kernel's interrupt entry sets up around a handler. */
unsigned long host_irq_enter(void)
{
	unsigned long saved = irqs_off;

	irqs_off = true;
	preempt_count_add(HARDIRQ_OFFSET);
	irq_pending = false;
	return saved;
}

void host_irq_exit(unsigned long saved)
{
	preempt_count_sub(HARDIRQ_OFFSET);
	irqs_off = saved;
}
