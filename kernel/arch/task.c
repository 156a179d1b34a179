/* Architecture side of tasks: stacks, the initial frame, and interrupt flags. */
#include <cgwb/sched.h>
#include <cgwb/mm.h>
#include <cgwb/errno.h>
#include <cgwb/string.h>
#include "x86.h"
#include "../sched-internal.h"

#define KSTACK_ORDER 3 /* 32 KiB */
#define STACK_CANARY 0x57ac4ca7a1c0ffeeULL

int arch_task_init(struct task_struct *task)
{
	void *stack = __get_free_pages(GFP_KERNEL, KSTACK_ORDER);
	if (!stack)
		return -ENOMEM;
	task->stack = stack;
	task->stack_size = PAGE_SIZE << KSTACK_ORDER;
	*(u64 *)stack = STACK_CANARY;

	/* __switch_to pops r15 r14 r13 r12 rbx rbp, then returns into ret_from_kthread */
	u64 *sp = (u64 *)((char *)stack + task->stack_size);
	*--sp = (u64)(uintptr_t)ret_from_kthread; /* after this ret, rsp is 16-byte aligned */
	for (int i = 0; i < 6; i++)
		*--sp = 0;
	task->sp = (unsigned long)(uintptr_t)sp;
	return 0;
}

void arch_task_free(struct task_struct *task)
{
	if (task->stack)
		free_pages(task->stack, KSTACK_ORDER);
	task->stack = NULL;
}

bool arch_stack_corrupted(const struct task_struct *task)
{
	return task->stack && *(const u64 *)task->stack != STACK_CANARY;
}

unsigned long arch_local_irq_save(void)
{
	unsigned long flags = read_rflags();
	__asm__ volatile("cli" : : : "memory");
	return flags;
}

void arch_local_irq_restore(unsigned long flags)
{
	if (flags & X86_EFLAGS_IF)
		__asm__ volatile("sti" : : : "memory");
	else
		__asm__ volatile("cli" : : : "memory");
}

void arch_local_irq_enable(void)
{
	__asm__ volatile("sti" : : : "memory");
}

void arch_local_irq_disable(void)
{
	__asm__ volatile("cli" : : : "memory");
}

bool arch_irqs_disabled(void)
{
	return !(read_rflags() & X86_EFLAGS_IF);
}
