/*
 * Declaring trace events, as Linux's TRACE_EVENT, DECLARE_EVENT_CLASS and DEFINE_EVENT do:
 * an events header (include/cgwb/trace/writeback.h) says once, for each class of events,
 *
 *	TP_PROTO(...)         the recorder's arguments, and TP_ARGS(...) their names
 *	TP_STRUCT__entry(...) its fields: __field(type, name), __array(type, name, len)
 *	TP_fast_assign(...)   how the recorder computes them into __entry->name
 *	TP_printk(fmt, ...)   the text a line of the trace shows, from __entry->name
 *
 * and DEFINE_EVENT(class, event, ...) adds an event of the class (TRACE_EVENT: a class of
 * one event of its name).
 *
 * Read as any header, an events header declares for each class struct trace_event_raw_<class>,
 * the fields as a trace_entry holds them in its data (tests fill it by name), and for each
 * event its struct trace_event trace_event_<event> and its recorder __trace_<event>(), which
 * call sites reach through a trace_<event>() macro (the TRACE_CALL test). One .c file per
 * header defines CREATE_TRACE_POINTS and includes it: <cgwb/trace/define_trace.h> then reads
 * it again to define the events, recorders, formatters and their trace_system.
 */
#ifndef CGWB_TRACEPOINT_H
#define CGWB_TRACEPOINT_H

#include <cgwb/trace.h>

#define PARAMS(args...) args
#define TP_PROTO(args...) args
#define TP_ARGS(args...) args
#define TP_STRUCT__entry(args...) args
#define TP_fast_assign(args...) args
#define TP_printk(fmt, args...) fmt, ##args

/* clang-format keeps the lines of a declaration of events as they are, so misaligns these */
/* clang-format off */
#define TRACE_EVENT(name, proto, args, tstruct, assign, print)                                  \
	DECLARE_EVENT_CLASS(name, PARAMS(proto), PARAMS(args), PARAMS(tstruct), PARAMS(assign), \
			    PARAMS(print));                                                     \
	DEFINE_EVENT(name, name, PARAMS(proto), PARAMS(args))
/* clang-format on */

/*
 * Where TP_printk's helpers build their strings: a line's worth, as Linux's iter->tmp_seq
 * (the formatter's `p`). A string that would not fit is cut.
 */
struct trace_print_tmp {
	char buf[256];
	size_t len;
};

struct trace_print_flags {
	unsigned long mask;
	const char *name;
};

/**
 * trace_print_flags_seq() - flags by name, as Linux's __print_flags()
 * @p: the formatter's line-sized scratch, where the string lives
 * @delim: what joins the names
 * @flags: the flags
 * @names: the masks and their names, ending with a NULL name
 *
 * Only in TP_printk (through __print_flags()). A string that would not fit is cut.
 *
 * Context: any context.
 * Return: the names of the masks set in @flags, joined by @delim, what no name covers in
 * hex after them; "" when no flag is set.
 */
const char *trace_print_flags_seq(struct trace_print_tmp *p, const char *delim, unsigned long flags,
				  const struct trace_print_flags *names);
#define __print_flags(flags, delim, names...)  \
	trace_print_flags_seq(p, delim, flags, \
			      (const struct trace_print_flags[]){ names, { 0, NULL } })

#endif /* CGWB_TRACEPOINT_H */

/*
 * What an events header declares when read as any header. Outside the guard: define_trace.h
 * undefines these for its passes and includes this file again to restore them.
 */
#ifndef DECLARE_EVENT_CLASS
#define DECLARE_EVENT_CLASS(call, proto, args, tstruct, assign, print) \
	struct trace_event_raw_##call {                                \
		tstruct                                                \
	};                                                             \
	BUILD_BUG_ON(sizeof(struct trace_event_raw_##call) > TRACE_DATA_SIZE)
#define DEFINE_EVENT(template, name, proto, args)     \
	extern struct trace_event trace_event_##name; \
	void __trace_##name(proto)
#define __field(type, item) type item;
#define __array(type, item, len) type item[len];
#endif
