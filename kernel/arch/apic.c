/*
 * Interrupt controllers: the legacy 8259 PICs are remapped and masked; device interrupts
 * arrive through the IOAPIC (ISA lines via the ACPI overrides, PCI INTx lines by GSI) or as
 * MSI/MSI-X messages, all delivered to the boot CPU's local APIC. CPUs interrupt each other
 * through their local APICs (inter-processor interrupts, IPIs).
 *
 * Vectors: 32 + GSI for IOAPIC lines (GSI < 24), 64..223 for MSI, 0xec each CPU's local
 * timer, 0xfd the reschedule IPI, 255 spurious.
 */
#include <cgwb/types.h>
#include <cgwb/errno.h>
#include <cgwb/printk.h>
#include <cgwb/io.h>
#include <cgwb/mm.h>
#include <cgwb/bug.h>
#include <cgwb/irqflags.h>
#include <cgwb/jiffies.h>
#include "x86.h"
#include "acpi.h"

#define LAPIC_DEFAULT_BASE 0xfee00000UL
#define LAPIC_ID 0x20
#define LAPIC_TPR 0x80
#define LAPIC_EOI 0xb0
#define LAPIC_SVR 0xf0
#define LAPIC_ICR_LOW 0x300
#define LAPIC_ICR_HIGH 0x310
#define ICR_DELIVERY_PENDING (1u << 12)
#define ICR_ASSERT (1u << 14)
#define ICR_INIT 0x500
#define ICR_STARTUP 0x600
#define LAPIC_LVT_TIMER 0x320
#define LAPIC_TIMER_INIT 0x380
#define LAPIC_TIMER_CUR 0x390
#define LAPIC_TIMER_DIV 0x3e0
#define LVT_TIMER_PERIODIC (1u << 17)
#define TIMER_DIV_16 0x3
#define LAPIC_LVT_LINT0 0x350
#define LAPIC_LVT_LINT1 0x360
#define LAPIC_LVT_ERROR 0x370
#define LVT_MASKED 0x10000

#define IOAPIC_REGSEL 0x00
#define IOAPIC_WIN 0x10
#define IOAPIC_VER 0x01
#define IOAPIC_REDTBL(n) (0x10 + 2 * (n))
#define IOAPIC_LEVEL (1u << 15)
#define IOAPIC_ACTIVE_LOW (1u << 13)
#define IOAPIC_MASKED (1u << 16)

#define IRQ_VECTOR_BASE 32
#define MSI_VECTOR_FIRST 64
#define MSI_VECTOR_LAST 223

static volatile u8 *lapic;
static volatile u8 *ioapic;
static unsigned int ioapic_gsi_base, ioapic_nr_pins;
static unsigned int next_msi_vector = MSI_VECTOR_FIRST;

static u32 lapic_read(u32 reg)
{
	return readl(lapic + reg);
}
static void lapic_write(u32 reg, u32 v)
{
	writel(v, lapic + reg);
}

static u32 ioapic_read(u32 reg)
{
	writel(reg, ioapic + IOAPIC_REGSEL);
	return readl(ioapic + IOAPIC_WIN);
}

static void ioapic_write(u32 reg, u32 v)
{
	writel(reg, ioapic + IOAPIC_REGSEL);
	writel(v, ioapic + IOAPIC_WIN);
}

void lapic_eoi(void)
{
	lapic_write(LAPIC_EOI, 0);
}

static void pic_disable(void)
{
	/* remap to 0x20/0x28 so a stray legacy interrupt cannot look like an exception, then mask */
	outb(0x20, 0x11);
	outb(0xa0, 0x11);
	outb(0x21, 0x20);
	outb(0xa1, 0x28);
	outb(0x21, 0x04);
	outb(0xa1, 0x02);
	outb(0x21, 0x01);
	outb(0xa1, 0x01);
	outb(0x21, 0xff);
	outb(0xa1, 0xff);
}

unsigned int lapic_id(void)
{
	return lapic_read(LAPIC_ID) >> 24;
}

/* Every CPU, its own local APIC: accept every priority, no timer yet, enabled. */
void lapic_setup_this_cpu(void)
{
	lapic_write(LAPIC_TPR, 0);
	lapic_write(LAPIC_LVT_TIMER, LVT_MASKED);
	lapic_write(LAPIC_LVT_ERROR, LVT_MASKED);
	lapic_write(LAPIC_SVR, 0x100 | 0xff); /* enable, spurious vector 255 */
}

/* The ICR is this CPU's: interrupts off so that no handler's IPI comes between the halves. */
static void apic_send(unsigned int apic_id, u32 low)
{
	unsigned long flags = arch_local_irq_save();

	lapic_write(LAPIC_ICR_HIGH, apic_id << 24);
	lapic_write(LAPIC_ICR_LOW, low);
	while (lapic_read(LAPIC_ICR_LOW) & ICR_DELIVERY_PENDING)
		cpu_relax();
	arch_local_irq_restore(flags);
}

void apic_send_ipi(unsigned int apic_id, unsigned int vector)
{
	apic_send(apic_id, ICR_ASSERT | vector);
}

void apic_send_init(unsigned int apic_id)
{
	apic_send(apic_id, ICR_ASSERT | ICR_INIT);
}

/* A startup IPI: the CPU starts in real mode at page << 12. */
void apic_send_startup(unsigned int apic_id, unsigned int page)
{
	apic_send(apic_id, ICR_STARTUP | page);
}

static u32 lapic_timer_per_tick;

/*
 * The local timer's rate, measured against the TSC over LAPIC_CALIBRATE_NS (boot CPU). A
 * millisecond is tens of thousands of counts, and the ticks it times only run timers and
 * the scheduler: jiffies come from the TSC. Each millisecond here is one of the boot's.
 */
#define LAPIC_CALIBRATE_NS (1 * NSEC_PER_MSEC)
void lapic_timer_calibrate(unsigned int hz)
{
	u64 start;
	u32 left;

	lapic_write(LAPIC_TIMER_DIV, TIMER_DIV_16);
	lapic_write(LAPIC_LVT_TIMER, LVT_MASKED);
	lapic_write(LAPIC_TIMER_INIT, 0xffffffffu);
	start = ktime_get_ns();
	while (ktime_get_ns() - start < LAPIC_CALIBRATE_NS)
		cpu_relax();
	left = lapic_read(LAPIC_TIMER_CUR);
	lapic_write(LAPIC_TIMER_INIT, 0);
	lapic_timer_per_tick =
		(u32)((0xffffffffu - left) * (u64)NSEC_PER_SEC / LAPIC_CALIBRATE_NS / hz);
	pr_info("apic: local timer %u counts per tick\n", lapic_timer_per_tick);
}

/* This CPU's periodic tick on LOCAL_TIMER_VECTOR (the CPUs other than the boot CPU). */
void lapic_timer_start(void)
{
	if (!lapic_timer_per_tick)
		return;
	lapic_write(LAPIC_TIMER_DIV, TIMER_DIV_16);
	lapic_write(LAPIC_LVT_TIMER, LOCAL_TIMER_VECTOR | LVT_TIMER_PERIODIC);
	lapic_write(LAPIC_TIMER_INIT, lapic_timer_per_tick);
}

void apic_init(void)
{
	const struct acpi_madt_info *madt = acpi_madt();

	pic_disable();
	lapic = ioremap(madt->lapic_addr ? madt->lapic_addr : LAPIC_DEFAULT_BASE, PAGE_SIZE);
	lapic_setup_this_cpu();

	ioapic = ioremap(madt->ioapic_addr ? madt->ioapic_addr : 0xfec00000UL, PAGE_SIZE);
	BUG_ON(!lapic || !ioapic);
	ioapic_gsi_base = madt->ioapic_gsi_base;
	ioapic_nr_pins = ((ioapic_read(IOAPIC_VER) >> 16) & 0xff) + 1;
	for (unsigned int pin = 0; pin < ioapic_nr_pins; pin++) {
		ioapic_write(IOAPIC_REDTBL(pin), IOAPIC_MASKED);
		ioapic_write(IOAPIC_REDTBL(pin) + 1, 0);
	}
	pr_info("apic: local APIC at %p id %u, IOAPIC at %p with %u pins\n", (void *)lapic,
		lapic_read(LAPIC_ID) >> 24, (void *)ioapic, ioapic_nr_pins);
}

int request_gsi(unsigned int gsi, bool level_low, irq_handler_t handler, void *data)
{
	unsigned int pin = gsi - ioapic_gsi_base;
	unsigned int vector = IRQ_VECTOR_BASE + gsi;
	int err;

	if (gsi < ioapic_gsi_base || pin >= ioapic_nr_pins || vector >= MSI_VECTOR_FIRST)
		return -EINVAL;
	err = register_vector(vector, handler, data);
	if (err)
		return err;
	u32 low = vector;
	if (level_low)
		low |= IOAPIC_LEVEL | IOAPIC_ACTIVE_LOW;
	ioapic_write(IOAPIC_REDTBL(pin) + 1, (lapic_read(LAPIC_ID) >> 24) << 24);
	ioapic_write(IOAPIC_REDTBL(pin), low);
	return 0;
}

int request_isa_irq(unsigned int isa_irq, irq_handler_t handler, void *data)
{
	const struct acpi_madt_info *madt = acpi_madt();
	unsigned int gsi = isa_irq;
	bool level_low = false;

	for (unsigned int i = 0; i < madt->nr_overrides; i++) {
		if (madt->overrides[i].source_irq != isa_irq)
			continue;
		gsi = madt->overrides[i].gsi;
		/* MPS flags: polarity bits 0-1 (3 = active low), trigger bits 2-3 (3 = level) */
		level_low = (madt->overrides[i].flags & 0xc) == 0xc;
	}
	return request_gsi(gsi, level_low, handler, data);
}

int alloc_msi_vector(irq_handler_t handler, void *data)
{
	if (next_msi_vector > MSI_VECTOR_LAST)
		return -ENOSPC;
	int vector = (int)next_msi_vector++;
	int err = register_vector((unsigned int)vector, handler, data);
	return err ? err : vector;
}

u32 msi_address(void)
{
	return 0xfee00000u | ((lapic_read(LAPIC_ID) >> 24) << 12);
}
