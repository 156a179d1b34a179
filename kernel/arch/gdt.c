/*
 * Final GDT and the TSS, one of each per CPU (a TSS is marked busy by the CPU that loads
 * it, so no two can share one). The TSS gives two kinds of stack: rsp0, the running task's
 * kernel stack, where an interrupt from user mode lands (set at every switch); and the
 * interrupt stacks: double faults, NMIs and machine checks switch to a known-good stack so
 * that a kernel stack overflow is reported instead of triple-faulting.
 *
 * The user segments follow the order SYSRET needs (Linux's): STAR names 0x28, SYSRET takes
 * SS from 0x28 + 8 and the 64-bit CS from 0x28 + 16.
 */
#include <cgwb/types.h>
#include <cgwb/compiler.h>
#include <cgwb/string.h>
#include <cgwb/percpu.h>
#include "x86.h"

struct tss {
	u32 reserved0;
	u64 rsp[3];
	u64 reserved1;
	u64 ist[7];
	u64 reserved2;
	u16 reserved3;
	u16 iomap_base;
} __packed;

#define IST_STACK_SIZE 8192
struct cpu_gdt {
	u64 gdt[8] __aligned(16);
	struct tss tss;
	u8 ist_stacks[3][IST_STACK_SIZE] __aligned(16);
};
static struct cpu_gdt cpu_gdt[NR_CPUS];

struct gdt_desc {
	u16 limit;
	u64 base;
} __packed;

static void load_gdt_and_tss(const u64 *gdt, size_t size)
{
	struct gdt_desc desc = { size - 1, (u64)(uintptr_t)gdt };

	__asm__ volatile("lgdt %0\n\t"
			 "pushq %1\n\t"
			 "leaq 1f(%%rip), %%rax\n\t"
			 "pushq %%rax\n\t"
			 "lretq\n"
			 "1:\n\t"
			 "movw %w2, %%ax\n\t"
			 "movw %%ax, %%ds\n\t"
			 "movw %%ax, %%es\n\t"
			 "movw %%ax, %%ss\n\t"
			 "ltr %w3\n\t"
			 :
			 : "m"(desc), "i"(KERNEL_CS), "r"(KERNEL_DS), "r"(TSS_SEL)
			 : "rax", "memory");
}

void gdt_init(unsigned int cpu)
{
	struct cpu_gdt *c = &cpu_gdt[cpu];
	struct tss *tss = &c->tss;
	u64 *gdt = c->gdt;
	u64 base = (u64)(uintptr_t)tss;
	u64 limit = sizeof(*tss) - 1;

	memset(tss, 0, sizeof(*tss));
	for (int i = 0; i < 3; i++)
		tss->ist[i] = (u64)(uintptr_t)(c->ist_stacks[i] + IST_STACK_SIZE);
	tss->iomap_base = sizeof(*tss);

	gdt[0] = 0;
	gdt[1] = 0x00af9a000000ffffULL; /* 64-bit code, DPL 0 */
	gdt[2] = 0x00cf92000000ffffULL; /* data */
	/* 64-bit available TSS: a 16-byte descriptor */
	gdt[3] = (limit & 0xffff) | ((base & 0xffffff) << 16) | (0x89ULL << 40) |
		 (((limit >> 16) & 0xf) << 48) | (((base >> 24) & 0xff) << 56);
	gdt[4] = base >> 32;
	gdt[5] = 0x00cffa000000ffffULL; /* 0x28: 32-bit user code (the SYSRET base; unused) */
	gdt[6] = 0x00cff2000000ffffULL; /* 0x30: user data, DPL 3 */
	gdt[7] = 0x00affa000000ffffULL; /* 0x38: 64-bit user code, DPL 3 */
	load_gdt_and_tss(gdt, sizeof(c->gdt));
}

void tss_set_rsp0(unsigned int cpu, u64 rsp0)
{
	cpu_gdt[cpu].tss.rsp[0] = rsp0;
}

/* The TSS is packed: rsp0 sits 4 bytes in, which x86 stores to unaligned without fuss. */
void *tss_rsp0_slot(unsigned int cpu)
{
	return (char *)&cpu_gdt[cpu].tss + __builtin_offsetof(struct tss, rsp);
}
