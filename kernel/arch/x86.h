/* x86_64 CPU helpers for kernel/arch (drivers use <cgwb/io.h> and <cgwb/irq.h>). */
#ifndef CGWB_ARCH_X86_H
#define CGWB_ARCH_X86_H

#include <cgwb/platform.h>
#include <cgwb/types.h>
#include <cgwb/io.h>
#include <cgwb/irq.h>
#include <cgwb/user.h>

#define KERNEL_CS 0x08
#define KERNEL_DS 0x10
#define TSS_SEL 0x18
#define USER32_CS 0x28 /* the base STAR gives SYSRET */
#define USER_DS (0x30 | 3)
#define USER_CS (0x38 | 3)

#define X86_EFLAGS_IF 0x200

/* The FXSAVE area: x87, SSE and MXCSR, as after FNINIT in fxsave_init() (user.c). */
#define FXSAVE_SIZE 512
void fxsave_init(u8 *fx);

static inline u64 rdtsc(void)
{
	u32 lo, hi;
	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return ((u64)hi << 32) | lo;
}

static inline u64 rdmsr(u32 msr)
{
	u32 lo, hi;
	__asm__ volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return ((u64)hi << 32) | lo;
}

static inline void wrmsr(u32 msr, u64 v)
{
	__asm__ volatile("wrmsr" : : "c"(msr), "a"((u32)v), "d"((u32)(v >> 32)));
}

static inline void cpuid(u32 leaf, u32 sub, u32 *a, u32 *b, u32 *c, u32 *d)
{
	__asm__ volatile("cpuid" : "=a"(*a), "=b"(*b), "=c"(*c), "=d"(*d) : "a"(leaf), "c"(sub));
}

static inline u64 read_cr0(void)
{
	u64 v;
	__asm__ volatile("mov %%cr0, %0" : "=r"(v));
	return v;
}
static inline u64 read_cr2(void)
{
	u64 v;
	__asm__ volatile("mov %%cr2, %0" : "=r"(v));
	return v;
}
static inline u64 read_cr3(void)
{
	u64 v;
	__asm__ volatile("mov %%cr3, %0" : "=r"(v));
	return v;
}
static inline u64 read_cr4(void)
{
	u64 v;
	__asm__ volatile("mov %%cr4, %0" : "=r"(v));
	return v;
}
static inline void write_cr3(u64 v)
{
	__asm__ volatile("mov %0, %%cr3" : : "r"(v) : "memory");
}
static inline u64 read_rflags(void)
{
	u64 f;
	__asm__ volatile("pushfq; popq %0" : "=r"(f));
	return f;
}
static inline void halt(void)
{
	__asm__ volatile("hlt");
}
/* sti takes effect after the next instruction, so sti;hlt cannot miss a wakeup interrupt. */
static inline void safe_halt(void)
{
	__asm__ volatile("sti; hlt" : : : "memory");
}
static inline void invlpg(u64 va)
{
	__asm__ volatile("invlpg (%0)" : : "r"(va) : "memory");
}

/* struct pt_regs (saved by isr.S and entry_64.S) is in <cgwb/user.h>. */

/* clock.c: the wall-clock time at boot, from the RTC (rtc.c) */
void rtc_set_boot_epoch(u64 seconds);

/* Called from assembly: do_interrupt by isr.S (idt.c); kmain by boot/entry.S is init's. */
void do_interrupt(struct pt_regs *regs);
/* Where the interrupt this CPU is handling came in, for the profiler (0 outside one): idt.c. */
u64 profile_pc(void);

/* Tasks: switch.S saves callee-saved registers on prev's stack and resumes next's;
 * a new task's first switch returns into ret_from_kthread. task.c checks the stack canary. */
struct task_struct;
void __switch_to(unsigned long *prev_sp, unsigned long next_sp);
void ret_from_kthread(void);
bool arch_stack_corrupted(const struct task_struct *task);

/* idt.c: install the handler of an IDT vector (32..254); -EBUSY if it has one. */
int register_vector(unsigned int vector, void (*handler)(void *data), void *data);

/* kernel/arch */
void load_percpu_segment(unsigned int cpu);
extern u64 boot_pml4[512];
/* The page table entry e points to, made (zeroed) if not present; NULL if out of memory. */
u64 *pt_next_table(u64 *e);
/*
 * The kernel's top-table slots made at boot (mmu.c), before any program copies them; and
 * whether any program's page tables exist yet (pgtable.c), after which none may be added.
 */
void kernel_pgd_prefill(void);
bool kernel_pgd_frozen(void);
void gdt_init(unsigned int cpu);
/* Where cpu's TSS says an interrupt from user mode lands: the running program's stack
 * (set, or the slot's address for entry_64.S). */
void tss_set_rsp0(unsigned int cpu, u64 rsp0);
void *tss_rsp0_slot(unsigned int cpu);
/* user.c: this CPU's SYSCALL MSRs and FPU (SSE) enabled; before it runs a program. */
void user_cpu_init(unsigned int cpu);
/* user.c: the program state of the task switched to (page tables, FPU, TLS, rsp0). */
void user_switch(struct task_struct *prev, struct task_struct *next);
/* user.c: an exception, for the system-call layer first (its user_trap hook). */
bool user_trap(struct pt_regs *regs);
void user_exit_to_user_mode(struct pt_regs *regs);
/* entry_64.S and uaccess.S */
void entry_SYSCALL_64(void);
int arch_run_user(struct pt_regs *regs, unsigned long *kernel_sp, void *rsp0);
__noreturn void arch_leave_user(unsigned long kernel_sp, int code);
extern char copy_user_generic_insn[], copy_user_generic_fixup[];
void idt_init(void);
void idt_load(void);
void apic_init(void);
void clock_init(void);
u64 tsc_frequency_khz(void);
void rtc_init(void);
void serial_init(void);
void serial_enable_irq(void);
void serial_rx_resume(void);
void serial_putc(char c);
void debugcon_write(const char *s, size_t n);
/* rsdp: the copy of the RSDP the boot loader handed over, or NULL */
void acpi_init(const void *rsdp);
int acpi_poweroff(void);
u64 acpi_find_table_phys(const char sig[4]);
void dump_regs_and_backtrace(const struct pt_regs *regs);
void show_backtrace(u64 rbp);

/* Interrupt lines: the drivers' interface is <cgwb/irq.h>. */
void lapic_eoi(void);
/* apic.c: this CPU's local APIC, and interrupts to other CPUs (by local APIC id) */
unsigned int lapic_id(void);
unsigned int cpu_to_apic_id(unsigned int cpu); /* smpboot.c */
/* smpboot.c: a started CPU's first C code, called by the trampoline */
__noreturn void start_secondary(unsigned int cpu);
void lapic_setup_this_cpu(void);
void apic_send_ipi(unsigned int apic_id, unsigned int vector);
void apic_send_init(unsigned int apic_id);
void apic_send_startup(unsigned int apic_id, unsigned int page);
void lapic_timer_calibrate(unsigned int hz);
void lapic_timer_start(void);
#define LOCAL_TIMER_VECTOR 0xec
#define INVALIDATE_TLB_VECTOR 0xfc
#define RESCHEDULE_VECTOR 0xfd
/*
 * tlb.c: drop the kernel's translations of [start, end) on every online CPU, waiting until
 * all have (interrupts on); tlb_init() before the other CPUs start.
 */
void flush_tlb_kernel_range(u64 start, u64 end);
void tlb_init(void);
/*
 * tcg-tlb.c: under QEMU's TCG, let the emulator resize its TLB: tcg_tlb_init() once before
 * the ticks start, tcg_tlb_tick() from each CPU's tick with jiffies.
 */
void tcg_tlb_init(void);
void tcg_tlb_tick(unsigned long now);
/* tlb-local.c: drop this CPU's whole TLB (nothing is global), counted. */
void flush_tlb_local(void);

#endif
