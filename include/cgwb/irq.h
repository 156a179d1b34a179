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
/* level_low: level-triggered, active low (PCI INTx); otherwise edge-triggered, active high. */
int request_gsi(unsigned int gsi, bool level_low, irq_handler_t handler, void *data);
/* Allocate a vector for MSI/MSI-X; returns it (>= 48) or -ENOSPC. */
int alloc_msi_vector(irq_handler_t handler, void *data);
/* The message address that delivers an MSI to this CPU's local APIC. */
u32 msi_address(void);

#endif
