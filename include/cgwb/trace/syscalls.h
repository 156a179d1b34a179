/*
 * The raw_syscalls trace events (Linux's include/trace/events/syscalls.h): every system call
 * of a program on its way in and out, in Linux's format, so that a program's calls can be
 * followed as with strace (`echo 1 > events/raw_syscalls/enable`, then trace_pipe).
 *
 *	sys_enter: NR 1 (1, 4a7000, c, 0, 0, 0)
 *	sys_exit: NR 1 = 12
 *
 * sys/trace-syscalls.c compiles them.
 */
#ifndef CGWB_TRACE_SYSCALLS_H
#define CGWB_TRACE_SYSCALLS_H

#include <cgwb/tracepoint.h>

struct pt_regs;

extern struct trace_system raw_syscalls_trace_system;

#define trace_sys_enter(regs) TRACE_CALL(sys_enter, regs)
#define trace_sys_exit(regs) TRACE_CALL(sys_exit, regs)

#endif /* CGWB_TRACE_SYSCALLS_H */

#if !defined(CGWB_TRACE_SYSCALLS_EVENTS) || defined(TRACE_HEADER_MULTI_READ)
#define CGWB_TRACE_SYSCALLS_EVENTS

/* The number and the six arguments, in the registers of the system-call ABI. */
TRACE_EVENT(sys_enter,
	TP_PROTO(const struct pt_regs *regs),
	TP_ARGS(regs),
	TP_STRUCT__entry(
		__field(long, id)
		__array(unsigned long, args, 6)
	),
	TP_fast_assign(
		__entry->id = (long)regs->vector;
		__entry->args[0] = regs->rdi;
		__entry->args[1] = regs->rsi;
		__entry->args[2] = regs->rdx;
		__entry->args[3] = regs->r10;
		__entry->args[4] = regs->r8;
		__entry->args[5] = regs->r9;
	),
	TP_printk("NR %ld (%lx, %lx, %lx, %lx, %lx, %lx)", __entry->id, __entry->args[0],
		  __entry->args[1], __entry->args[2], __entry->args[3], __entry->args[4],
		  __entry->args[5])
);

TRACE_EVENT(sys_exit,
	TP_PROTO(const struct pt_regs *regs),
	TP_ARGS(regs),
	TP_STRUCT__entry(
		__field(long, id)
		__field(long, ret)
	),
	TP_fast_assign(
		__entry->id = (long)regs->vector;
		__entry->ret = (long)regs->rax;
	),
	TP_printk("NR %ld = %ld", __entry->id, __entry->ret)
);

#endif /* the events */

#undef TRACE_SYSTEM
#define TRACE_SYSTEM raw_syscalls
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE <cgwb/trace/syscalls.h>
#include <cgwb/trace/define_trace.h>
