/*
 * The IDT and the C side of interrupt entry: exceptions are reported (vector, error code,
 * RIP, CR2, registers, a symbolised backtrace) and stop the kernel; device interrupts are
 * dispatched to their handlers and may end in a preemptive reschedule.
 */
#include <cgwb/types.h>
#include <cgwb/compiler.h>
#include <cgwb/printk.h>
#include <cgwb/errno.h>
#include <cgwb/bug.h>
#include <cgwb/sched.h>
#include <cgwb/mm.h>
#include "x86.h"
#include "../platform/ksyms.h"
#include "../platform/panic.h"
#include "../platform/hung_task.h"
#include "../sched-internal.h"

struct idt_entry {
	u16 offset_lo;
	u16 selector;
	u8 ist;
	u8 type_attr;
	u16 offset_mid;
	u32 offset_hi;
	u32 zero;
} __packed;

struct idt_desc {
	u16 limit;
	u64 base;
} __packed;

extern const u64 isr_table[256];
static struct idt_entry idt[256] __aligned(16);

struct irq_action {
	irq_handler_t handler;
	void *data;
};
static struct irq_action irq_actions[256];

#define SPURIOUS_VECTOR 0xff

static const char *const exception_names[32] = {
	"divide error",
	"debug",
	"NMI",
	"breakpoint",
	"overflow",
	"bound range exceeded",
	"invalid opcode",
	"device not available",
	"double fault",
	"coprocessor segment overrun",
	"invalid TSS",
	"segment not present",
	"stack-segment fault",
	"general protection fault",
	"page fault",
	"reserved",
	"x87 floating-point error",
	"alignment check",
	"machine check",
	"SIMD floating-point error",
	"virtualization exception",
	"control protection exception",
	"reserved",
	"reserved",
	"reserved",
	"reserved",
	"reserved",
	"reserved",
	"hypervisor injection",
	"VMM communication",
	"security exception",
	"reserved",
};

static void set_gate(int vec, u64 addr, u8 ist)
{
	idt[vec] = (struct idt_entry){
		.offset_lo = addr & 0xffff,
		.selector = KERNEL_CS,
		.ist = ist,
		.type_attr = 0x8e, /* present, DPL 0, 64-bit interrupt gate */
		.offset_mid = (addr >> 16) & 0xffff,
		.offset_hi = addr >> 32,
	};
}

/* Every CPU loads the one table. */
void idt_load(void)
{
	struct idt_desc desc = { sizeof(idt) - 1, (u64)(uintptr_t)idt };

	__asm__ volatile("lidt %0" : : "m"(desc));
}

void idt_init(void)
{
	for (int v = 0; v < 256; v++)
		set_gate(v, isr_table[v], 0);
	set_gate(2, isr_table[2], 2);   /* NMI */
	set_gate(8, isr_table[8], 1);   /* double fault */
	set_gate(18, isr_table[18], 3); /* machine check */
	idt_load();
}

int register_vector(unsigned int vector, irq_handler_t handler, void *data)
{
	if (vector < 32 || vector >= SPURIOUS_VECTOR)
		return -EINVAL;
	if (irq_actions[vector].handler)
		return -EBUSY;
	irq_actions[vector].handler = handler;
	irq_actions[vector].data = data;
	return 0;
}

/* Kernel stacks are in the direct map (task stacks) or the image (the boot stack). */
static bool kernel_stack_frame_ok(u64 rbp)
{
	u64 direct_end = PAGE_OFFSET + ((u64)max_pfn << PAGE_SHIFT);

	if (rbp & 7)
		return false;
	return (rbp >= PAGE_OFFSET && rbp + 16 <= direct_end) ||
	       (rbp >= (u64)(uintptr_t)__kernel_start && rbp + 16 <= (u64)(uintptr_t)__kernel_end);
}

void show_backtrace(u64 rbp)
{
	printk(KERN_EMERG "Call Trace:\n");
	for (int depth = 0; depth < 32 && rbp; depth++) {
		const u64 *frame = (const u64 *)(uintptr_t)rbp;

		if (!kernel_stack_frame_ok(rbp))
			break;
		u64 ret = frame[1];
		if (!ret)
			break;
		print_symbol(LOGLEVEL_EMERG, "  [<%016llx>] ", ret);
		rbp = frame[0];
	}
}

void dump_stack(void)
{
	show_backtrace((u64)(uintptr_t)__builtin_frame_address(0));
}

void dump_regs_and_backtrace(const struct pt_regs *r)
{
	print_symbol(LOGLEVEL_EMERG, "RIP: %016llx ", r->rip);
	printk(KERN_EMERG "RSP: %016llx RFLAGS: %08llx CS: %04llx SS: %04llx\n", r->rsp, r->rflags,
	       r->cs, r->ss);
	printk(KERN_EMERG "RAX: %016llx RBX: %016llx RCX: %016llx\n", r->rax, r->rbx, r->rcx);
	printk(KERN_EMERG "RDX: %016llx RSI: %016llx RDI: %016llx\n", r->rdx, r->rsi, r->rdi);
	printk(KERN_EMERG "RBP: %016llx R08: %016llx R09: %016llx\n", r->rbp, r->r8, r->r9);
	printk(KERN_EMERG "R10: %016llx R11: %016llx R12: %016llx\n", r->r10, r->r11, r->r12);
	printk(KERN_EMERG "R13: %016llx R14: %016llx R15: %016llx\n", r->r13, r->r14, r->r15);
	printk(KERN_EMERG "CR0: %016llx CR2: %016llx CR3: %016llx CR4: %016llx\n", read_cr0(),
	       read_cr2(), read_cr3(), read_cr4());
	/* the faulting function first, then its callers */
	print_symbol(LOGLEVEL_EMERG, "  [<%016llx>] ", r->rip);
	show_backtrace(r->rbp);
}

static __noreturn void die(const struct pt_regs *r)
{
	const char *name = exception_names[r->vector];

	oops_begin();
	printk(KERN_EMERG "cgwb: exception %llu (%s), error code %#llx\n", r->vector, name,
	       r->error_code);
	if (r->vector == 14)
		printk(KERN_EMERG "cgwb: page fault at address %#llx (%s, %s)\n", read_cr2(),
		       (r->error_code & 1) ? "protection violation" : "not present",
		       (r->error_code & 2)  ? "write" :
		       (r->error_code & 16) ? "instruction fetch" :
					      "read");
	if (current)
		printk(KERN_EMERG "task %d (%s)\n", current->pid, current->comm);
	dump_regs_and_backtrace(r);
	panic_stop(PANIC_EXIT_CODE);
}

/* The registers of the interrupt each CPU is handling (the innermost), for profile_pc(). */
static DEFINE_PER_CPU(struct pt_regs *, irq_regs);

extern char __lock_text_start[], __lock_text_end[];

static bool in_lock_functions(u64 pc)
{
	return pc >= (u64)(uintptr_t)__lock_text_start && pc < (u64)(uintptr_t)__lock_text_end;
}

/*
 * Linux's profile_pc(): in a lock function, the first caller outside them (read from the
 * frames their prologues made: the kernel keeps frame pointers; spin_lock calls
 * raw_spin_lock). A tick in a prologue itself gives a caller one further up; a profile does
 * not mind.
 */
u64 profile_pc(void)
{
	struct pt_regs *regs = *this_cpu_ptr(&irq_regs);
	u64 pc, fp;

	if (!regs)
		return 0;
	pc = regs->rip;
	fp = regs->rbp;
	for (int depth = 0; depth < 4 && in_lock_functions(pc) && fp; depth++) {
		pc = *(const u64 *)(uintptr_t)(fp + sizeof(u64));
		fp = *(const u64 *)(uintptr_t)fp;
	}
	return pc;
}

void do_interrupt(struct pt_regs *regs)
{
	unsigned int vec = (unsigned int)regs->vector;
	struct pt_regs *outer;

	if (vec == 2) {
		hung_task_nmi(); /* the only NMI a guest gets: the host asking (hung_task.h) */
		return;
	}
	if (vec < 32) {
		if (!user_trap(regs))
			die(regs);
		if (user_mode(regs))
			user_exit_to_user_mode(regs);
		return;
	}
	if (vec == SPURIOUS_VECTOR)
		return;

	preempt_count_add(HARDIRQ_OFFSET);
	outer = *this_cpu_ptr(&irq_regs);
	*this_cpu_ptr(&irq_regs) = regs;
	struct irq_action *act = &irq_actions[vec];
	if (act->handler)
		act->handler(act->data);
	else
		printk(KERN_WARNING "cgwb: unexpected interrupt on vector %u\n", vec);
	*this_cpu_ptr(&irq_regs) = outer;
	lapic_eoi();
	preempt_count_sub(HARDIRQ_OFFSET);

	if (preempt_count() == 0 && (regs->rflags & X86_EFLAGS_IF))
		preempt_schedule_irq();
	if (user_mode(regs))
		user_exit_to_user_mode(regs);
}
