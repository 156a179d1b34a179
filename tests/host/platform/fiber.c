/*
 * Task contexts: each kthread gets its own mmap'd stack (a guard page below it, so an
 * overflow faults at once instead of corrupting a neighbour), "main" keeps the thread's
 * stack. AddressSanitizer tracks one stack per thread; every switch tells it which stack
 * comes next, or it would take the other stack's frames for overflows.
 *
 * A switch saves the callee-saved registers on the old stack and moves the stack pointer
 * (host_switch_stack, x86-64): glibc's getcontext/setcontext also save and restore the
 * signal mask, two system calls per switch that took a third of a many-task simulation's
 * time. Nothing here uses signals, and the compiler saves everything else around a call.
 */
#include <sys/mman.h>
#include <unistd.h>
#include <stdlib.h>
#include <cgwb/sched.h>
#include <cgwb/errno.h>
#include <cgwb/bug.h>
#include "../../../kernel/sched-internal.h"
#include "host_internal.h"

#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

/* ASan and UBSan frames are big, and a simulator runs dozens of tasks: be generous */
#define HOST_STACK_SIZE (256 * 1024)

/* Frames that never returned (a dead task's) leave poisoned shadow behind: not for reuse. */
static void clean_stack(const void *bottom, size_t size)
{
#ifdef __SANITIZE_ADDRESS__
	ASAN_UNPOISON_MEMORY_REGION(bottom, size);
#else
	(void)bottom;
	(void)size;
#endif
}

/*
 * host_switch_stack(&save_sp, to_sp): push rbp rbx r12-r15, store rsp in *save_sp, load
 * to_sp, pop them, return where to_sp's owner called from. A new task's stack starts with
 * six zero registers and host_task_start as the return address, which calls kthread_entry
 * (which never returns) on a 16-byte aligned stack.
 */
__asm__(".text\n"
	".globl host_switch_stack\n"
	".type host_switch_stack, @function\n"
	"host_switch_stack:\n"
	"\tpushq %rbp\n\tpushq %rbx\n\tpushq %r12\n\tpushq %r13\n\tpushq %r14\n\tpushq %r15\n"
	"\tmovq %rsp, (%rdi)\n"
	"\tmovq %rsi, %rsp\n"
	"\tpopq %r15\n\tpopq %r14\n\tpopq %r13\n\tpopq %r12\n\tpopq %rbx\n\tpopq %rbp\n"
	"\tret\n"
	".size host_switch_stack, .-host_switch_stack\n"
	".globl host_task_start\n"
	".type host_task_start, @function\n"
	"host_task_start:\n"
	"\tandq $-16, %rsp\n"
	"\tcall kthread_entry\n"
	"\tud2\n"
	".size host_task_start, .-host_task_start\n");

static void *host_initial_stack(const void *bottom, size_t size)
{
	void **sp = (void **)(((unsigned long)bottom + size) & ~15UL);

	*--sp = NULL; /* alignment: host_task_start is entered as if called */
	*--sp = (void *)host_task_start;
	for (int i = 0; i < 6; i++)
		*--sp = NULL;
	return sp;
}

int arch_task_init(struct task_struct *task)
{
	size_t guard = (size_t)sysconf(_SC_PAGESIZE);
	struct host_task *ht = calloc(1, sizeof(*ht));
	void *map;

	if (!ht)
		return -ENOMEM;
	map = mmap(NULL, guard + HOST_STACK_SIZE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	if (map == MAP_FAILED) {
		free(ht);
		return -ENOMEM;
	}
	if (mprotect(map, guard, PROT_NONE))
		panic("host: cannot protect a stack guard page");
	ht->map = map;
	ht->map_size = guard + HOST_STACK_SIZE;
	ht->stack_bottom = (char *)map + guard;
	ht->stack_size = HOST_STACK_SIZE;
	clean_stack(ht->stack_bottom, ht->stack_size);
	ht->sp = host_initial_stack(ht->stack_bottom, ht->stack_size);

	task->platform = ht;
	task->stack = (void *)ht->stack_bottom;
	task->stack_size = ht->stack_size;
	return 0;
}

void arch_task_free(struct task_struct *task)
{
	struct host_task *ht = task->platform;

	if (!ht)
		return;
	if (ht->map) {
		clean_stack(ht->stack_bottom, ht->stack_size);
		munmap(ht->map, ht->map_size);
	}
	free(ht);
	task->platform = NULL;
	task->stack = NULL;
}

/* Main runs on the thread's own stack; ASan reports its bounds at the first switch away. */
void host_fiber_init_main(struct host_task *ht)
{
	*ht = (struct host_task){ 0 };
}

/* The fiber the last switch left: a switch between virtual CPUs has no rq->prev to tell. */
static struct task_struct *switched_from;

/*
 * First thing on the stack just switched to (after host_fiber_switch returns, or at the start
 * of a new task): complete ASan's switch, and learn main's stack from the first switch away.
 */
void host_fiber_finish(struct task_struct *self)
{
#ifdef __SANITIZE_ADDRESS__
	struct host_task *ht = host_task(self);
	struct task_struct *from = switched_from;
	const void *from_bottom;
	size_t from_size;

	__sanitizer_finish_switch_fiber(ht->fake_stack, &from_bottom, &from_size);
	ht->fake_stack = NULL;
	if (from && from->platform && !host_task(from)->stack_size) {
		host_task(from)->stack_bottom = from_bottom;
		host_task(from)->stack_size = from_size;
	}
#else
	(void)self;
#endif
}

void host_fiber_switch(struct task_struct *prev, struct task_struct *next, bool final)
{
	struct host_task *p = host_task(prev), *n = host_task(next);

	switched_from = prev;

#ifdef __SANITIZE_ADDRESS__
	if (!n->stack_size)
		panic("host: switching to task %d whose stack is unknown", next->pid);
	/* a dead task's last switch never comes back: NULL lets ASan free its fake stack now */
	__sanitizer_start_switch_fiber(final ? NULL : &p->fake_stack, n->stack_bottom, n->stack_size);
#else
	(void) final;
#endif
	host_switch_stack(&p->sp, n->sp);
}
