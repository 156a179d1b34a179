/* /proc/cpuinfo's description of a CPU, from CPUID (brand string) and the TSC's clock. */
#include <cgwb/smp.h>
#include <cgwb/seq_buf.h>
#include <cgwb/string.h>
#include "../arch/x86.h"

void arch_show_cpuinfo(struct seq_buf *s, unsigned int cpu)
{
	u32 r[12] = { 0 }, max_ext, b, c, d;
	char vendor[13];

	cpuid(0, 0, &b, &r[0], &r[2], &r[1]);
	memcpy(vendor, r, 12);
	vendor[12] = '\0';
	cpuid(0x80000000, 0, &max_ext, &b, &c, &d);
	if (max_ext >= 0x80000004)
		for (u32 i = 0; i < 3; i++)
			cpuid(0x80000002 + i, 0, &r[4 * i], &r[4 * i + 1], &r[4 * i + 2],
			      &r[4 * i + 3]);
	else
		memset(r, 0, sizeof(r));
	seq_printf(s, "vendor_id\t: %s\n", vendor);
	seq_printf(s, "model name\t: %.48s\n", max_ext >= 0x80000004 ? (char *)r : "unknown");
	seq_printf(s, "cpu MHz\t\t: %llu.%03llu\n", tsc_frequency_khz() / 1000,
		   tsc_frequency_khz() % 1000);
	seq_printf(s, "apicid\t\t: %u\n", cpu_to_apic_id(cpu));
}
