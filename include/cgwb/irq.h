/*
 * Interrupt lines for drivers (kernel only; kernel/arch/apic.c implements them). A handler
 * runs in interrupt context, interrupts off, and must not sleep.
 *
 * Two ways in: a line routed through the IOAPIC (a GSI; ISA IRQ numbers are translated
 * through the ACPI overrides first), or a vector of its own that a device targets with a
 * message (MSI/MSI-X: the device writes the vector to msi_address()).
 */
#ifndef CGWB_IRQ_H
#define CGWB_IRQ_H

#include <cgwb/types.h>

typedef void (*irq_handler_t)(void *data);

int request_isa_irq(unsigned int isa_irq, irq_handler_t handler, void *data);
/**
 * request_gsi() - route an IOAPIC line to a handler, on this CPU
 * @gsi: the global system interrupt
 * @level_low: level-triggered, active low (PCI INTx); otherwise edge-triggered, active
 *             high
 * @handler: called in interrupt context, interrupts off, with @data
 * @data: passed to @handler
 *
 * The interrupts go to the CPU that asks (the driver's probe).
 *
 * Context: process context (probe); never sleeps.
 * Return: 0; -EINVAL for a line the IOAPIC does not have; or the vector's registration
 * error.
 */
int request_gsi(unsigned int gsi, bool level_low, irq_handler_t handler, void *data);
/**
 * alloc_msi_vector() - allocate a vector for MSI/MSI-X
 * @handler: called in interrupt context, interrupts off, with @data
 * @data: passed to @handler
 *
 * Vectors are never freed.
 *
 * Context: process context (probe); never sleeps.
 * Return: the vector (>= 48), -ENOSPC when none is left, or the registration's error.
 */
int alloc_msi_vector(irq_handler_t handler, void *data);
/**
 * msi_address() - the message address that delivers an MSI to this CPU's local APIC
 *
 * Context: any context; the answer is this CPU's (call it where the device is set up).
 * Return: the address.
 */
u32 msi_address(void);

#endif
