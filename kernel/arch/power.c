/*
 * Power off with an exit status. QEMU's isa-debug-exit device (port 0xf4) ends QEMU with
 * status (v << 1) | 1; because that collides with QEMU's own error status 1, the code is
 * also announced on the debugcon log ("cgwb: poweroff CODE"), which scripts/run-qemu reads to
 * report exactly CODE. Without that device, ACPI soft-off is the fallback.
 */
#include <cgwb/types.h>
#include <cgwb/printk.h>
#include <cgwb/string.h>
#include <cgwb/io.h>
#include <cgwb/irqflags.h>
#include "x86.h"
#include <cgwb/reboot.h>

#define ISA_DEBUG_EXIT 0xf4

__noreturn void machine_poweroff(int code)
{
	char line[48];
	int n = snprintf(line, sizeof(line), "\ncgwb: poweroff %d\n", code & 0xff);

	local_irq_disable();
	debugcon_write(line, (size_t)n);
	outb(ISA_DEBUG_EXIT, (u8)code);
	if (!acpi_poweroff()) {
		/* the chipset takes a moment to cut the power: give it a second */
		u64 start = rdtsc(), khz = tsc_frequency_khz();
		while (rdtsc() - start < khz * 1000)
			cpu_relax();
	}
	debugcon_write("cgwb: power-off did not happen, halting\n", 40);
	for (;;)
		halt();
}

__noreturn void machine_halt(void)
{
	local_irq_disable();
	debugcon_write("\ncgwb: halted\n", 14);
	for (;;)
		halt();
}
