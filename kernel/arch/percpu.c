/*
 * Each CPU reaches its own hot words (<cgwb/percpu.h>) through GS: its base is the CPU's
 * struct pcpu_hot. Set before anything takes a lock or reads current, first thing on every
 * CPU; nothing reloads GS afterwards (the GDT's reload leaves it alone).
 */
#include <cgwb/percpu.h>
#include "x86.h"

#define MSR_GS_BASE 0xc0000101

void load_percpu_segment(unsigned int cpu)
{
	pcpu_hot[cpu].cpu_number = cpu;
	wrmsr(MSR_GS_BASE, (u64)(uintptr_t)&pcpu_hot[cpu]);
}
