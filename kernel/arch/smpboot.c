/*
 * Starting the other CPUs (Linux's arch/x86/kernel/smpboot.c). The MADT lists the
 * processors' local APICs; for each one that is not the boot CPU, smp_init() copies the
 * real-mode trampoline to TRAMPOLINE_BASE, gives it the page tables, a stack (the new CPU's
 * idle task's) and the CPU's number, and sends INIT, then a startup IPI (twice if the first
 * goes unheeded, as the SDM's sequence has it). The new CPU sets itself up on the way to its
 * idle loop and marks itself online; the boot CPU waits for that before starting the next,
 * so one trampoline serves them all.
 *
 * nr_cpus=N on the command line starts at most N CPUs (the boot CPU included).
 */
#include <cgwb/platform.h>
#include <cgwb/sched.h>
#include <cgwb/smp.h>
#include <cgwb/string.h>
#include <cgwb/printk.h>
#include <cgwb/bug.h>
#include <cgwb/errno.h>
#include <cgwb/mm.h>
#include <cgwb/memlayout.h>
#include "x86.h"
#include "acpi.h"
#include "../sched-internal.h"

#define TRAMPOLINE_BASE 0x8000
#define CPU_START_TIMEOUT_NS (1000 * NSEC_PER_MSEC)

extern char trampoline_start[], trampoline_end[], trampoline_cr3[], trampoline_stack[];
extern char trampoline_entry[], trampoline_cpu[];

static unsigned int cpu_apic_id[NR_CPUS];

unsigned int cpu_to_apic_id(unsigned int cpu)
{
	return cpu_apic_id[cpu];
}

static void *trampoline_word(const char *sym)
{
	return phys_to_virt(TRAMPOLINE_BASE + (u64)(sym - trampoline_start));
}

/*
 * The page tables the trampoline turns paging on with: the kernel's half of boot_pml4 and,
 * in slot 0, the direct map's first PDPT again, so that the trampoline's page is mapped at
 * its physical address (the kernel's own tables map nothing in the low half).
 */
static u64 *trampoline_pgd_alloc(void)
{
	u64 *pgd = (u64 *)__get_free_pages(GFP_KERNEL | __GFP_ZERO, 0);

	if (!pgd)
		panic("smp: no page for the trampoline's page tables");
	memcpy(pgd + PGD_KERNEL_FIRST, boot_pml4 + PGD_KERNEL_FIRST,
	       (512 - PGD_KERNEL_FIRST) * sizeof(u64));
	pgd[0] = boot_pml4[pgd_index(PAGE_OFFSET)];
	return pgd;
}

static void delay_ns(u64 ns)
{
	u64 end = ktime_get_ns() + ns;

	while (ktime_get_ns() < end)
		cpu_relax();
}

/* The boot CPU's tick is the PIT's (clock.c); the others have their local timers. */
static void local_timer_interrupt(void *unused)
{
	tcg_tlb_tick(jiffies);
	sched_tick();
}

/* The new CPU's first C code, on its idle task's stack, interrupts off. */
__noreturn void start_secondary(unsigned int cpu)
{
	load_percpu_segment(cpu);
	gdt_init(cpu); /* the trampoline's GDT is in the low page that goes next */
	write_cr3(virt_to_phys(boot_pml4));
	user_cpu_init(cpu);
	idt_load();
	lapic_setup_this_cpu();
	sched_init_secondary(cpu);
	lapic_timer_start();
	set_cpu_online(cpu, true);
	cpu_idle_loop();
}

static bool cpu_came_up(unsigned int cpu, u64 wait_ns)
{
	u64 end = ktime_get_ns() + wait_ns;

	while (!cpu_online(cpu)) {
		if (ktime_get_ns() >= end)
			return false;
		cpu_relax();
	}
	return true;
}

static int boot_secondary(unsigned int cpu, unsigned int apic_id)
{
	void *stack_top = sched_alloc_idle_stack(cpu);

	if (!stack_top)
		return -ENOMEM;
	*(u64 *)trampoline_word(trampoline_stack) = (u64)(uintptr_t)stack_top;
	*(u32 *)trampoline_word(trampoline_cpu) = cpu;
	cpu_apic_id[cpu] = apic_id;
	smp_mb();
	apic_send_init(apic_id);
	delay_ns(10 * NSEC_PER_USEC);
	apic_send_startup(apic_id, TRAMPOLINE_BASE >> 12);
	if (cpu_came_up(cpu, 200 * NSEC_PER_USEC))
		return 0;
	apic_send_startup(apic_id, TRAMPOLINE_BASE >> 12);
	return cpu_came_up(cpu, CPU_START_TIMEOUT_NS) ? 0 : -ETIMEDOUT;
}

static unsigned int cpus_wanted(unsigned int present)
{
	const char *v = cmdline_get("nr_cpus");
	unsigned int n;

	if (!v)
		return present;
	if (kstrtouint(v, 10, &n) || n == 0) {
		pr_err("nr_cpus=%s: not a number of CPUs; starting all %u\n", v, present);
		return present;
	}
	return min(n, present);
}

void smp_init(void)
{
	const struct acpi_madt_info *madt = acpi_madt();
	unsigned int self = lapic_id(), want = cpus_wanted(max(madt->nr_cpus, 1u)), cpu = 1;

	cpu_apic_id[0] = self;
	if (want > 1) {
		tlb_init();
		lapic_timer_calibrate(HZ);
		BUG_ON(register_vector(LOCAL_TIMER_VECTOR, local_timer_interrupt, NULL));
	}
	memcpy(trampoline_word(trampoline_start), trampoline_start,
	       (size_t)(trampoline_end - trampoline_start));
	u64 *tramp_pgd = trampoline_pgd_alloc();
	*(u64 *)trampoline_word(trampoline_cr3) = virt_to_phys(tramp_pgd);
	*(u64 *)trampoline_word(trampoline_entry) = (u64)(uintptr_t)start_secondary;
	nr_cpu_ids = want;
	for (unsigned int i = 0; i < madt->nr_cpus && cpu < want; i++) {
		int err;

		if (madt->lapic_ids[i] == self)
			continue;
		err = boot_secondary(cpu, madt->lapic_ids[i]);
		if (err) {
			pr_err("smp: CPU %u (APIC %u) did not start: %d\n", cpu, madt->lapic_ids[i],
			       err);
			break;
		}
		cpu++;
	}
	nr_cpu_ids = cpu;
	if (cpu == want) /* a CPU that did not answer might still run the trampoline later */
		free_pages(tramp_pgd, 0);
	pr_info("smp: %u of %u CPUs running, %u more listed absent\n", num_online_cpus(), want,
		madt->nr_absent_cpus);
}
