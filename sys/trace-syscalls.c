/*
 * The raw_syscalls trace events (Linux's include/trace/events/syscalls.h): every system
 * call of a program on its way in and out, in Linux's format, so that a program's calls can
 * be followed as with strace (`echo 1 > events/raw_syscalls/enable`, then trace_pipe).
 *
 *	sys_enter: NR 1 (1, 4a7000, c, 0, 0, 0)
 *	sys_exit: NR 1 = 12
 */
#include <cgwb/trace.h>
#include <cgwb/seq_buf.h>
#include <cgwb/compiler.h>
#include "internal.h"

static void print_sys_enter(struct seq_buf *s, const struct trace_entry *e)
{
	seq_printf(s, "NR %lld (%llx, %llx, %llx, %llx, %llx, %llx)", (long long)e->field[0],
		   (unsigned long long)e->field[1], (unsigned long long)e->field[2],
		   (unsigned long long)e->field[3], (unsigned long long)e->field[4],
		   (unsigned long long)e->field[5], (unsigned long long)e->field[6]);
}

static void print_sys_exit(struct seq_buf *s, const struct trace_entry *e)
{
	seq_printf(s, "NR %lld = %lld", (long long)e->field[0], (long long)e->field[1]);
}

struct trace_event trace_event_sys_enter = { "sys_enter", false, print_sys_enter };
struct trace_event trace_event_sys_exit = { "sys_exit", false, print_sys_exit };

void __trace_sys_enter(const struct pt_regs *regs)
{
	struct trace_entry e;

	e.name[0] = 0;
	e.field[0] = regs->vector;
	e.field[1] = regs->rdi;
	e.field[2] = regs->rsi;
	e.field[3] = regs->rdx;
	e.field[4] = regs->r10;
	e.field[5] = regs->r8;
	e.field[6] = regs->r9;
	trace_record(&trace_event_sys_enter, &e);
}

void __trace_sys_exit(const struct pt_regs *regs)
{
	struct trace_entry e;

	e.name[0] = 0;
	e.field[0] = regs->vector;
	e.field[1] = regs->rax;
	trace_record(&trace_event_sys_exit, &e);
}

static struct trace_event *const syscall_trace_events[] = {
	&trace_event_sys_enter,
	&trace_event_sys_exit,
};

static struct trace_system raw_syscalls_trace_system = {
	.name = "raw_syscalls",
	.events = syscall_trace_events,
	.nr = ARRAY_SIZE(syscall_trace_events),
};

void syscall_trace_init(void)
{
	trace_register_system(&raw_syscalls_trace_system);
}
