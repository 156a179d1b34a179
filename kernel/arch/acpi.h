/* What the kernel needs from ACPI: interrupt routing (MADT) and soft-off (FADT + \_S5). */
#ifndef CGWB_ARCH_ACPI_H
#define CGWB_ARCH_ACPI_H

#include <cgwb/types.h>
#include <cgwb/percpu.h>

struct acpi_irq_override {
	u8 source_irq;
	u32 gsi;
	u16 flags;
};

struct acpi_madt_info {
	u64 lapic_addr;
	u64 ioapic_addr;
	u32 ioapic_gsi_base;
	unsigned int nr_overrides;
	struct acpi_irq_override overrides[16];
	/* the processors' local APIC ids, enabled or startable, in the table's order */
	unsigned int nr_cpus;
	u8 lapic_ids[NR_CPUS];
	/* processors listed neither enabled nor startable (QEMU's beyond -smp, up to maxcpus) */
	unsigned int nr_absent_cpus;
};

const struct acpi_madt_info *acpi_madt(void);

#endif
