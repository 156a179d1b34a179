/*
 * The second reading of an events header (<cgwb/tracepoint.h>), by the one .c file that
 * defines CREATE_TRACE_POINTS before it includes the header, as Linux's
 * <trace/define_trace.h>: the header, read again with each pass's meaning of its macros,
 * becomes for each class a formatter and a recorder, for each event its trace_event and
 * __trace_<event>(), and the system <TRACE_SYSTEM>_trace_system that registers them.
 *
 * An events header sets TRACE_SYSTEM (the system's name) and TRACE_INCLUDE_FILE (its own
 * path) and includes this file last, outside its guard. The assignments and TP_printk's
 * arguments are compiled here, in the .c file: the helpers they call are that file's.
 */
#ifdef CREATE_TRACE_POINTS
#undef CREATE_TRACE_POINTS /* the readings below must not come back here */
#define TRACE_HEADER_MULTI_READ

#include <cgwb/seq_buf.h>

#undef DECLARE_EVENT_CLASS
#undef DEFINE_EVENT
#undef __field
#undef __array
#define __field(type, item)
#define __array(type, item, len)

/*
 * The fields live in the entry's data as the class's struct: the ring copies entries whole,
 * and only the class's own formatter reads them back.
 */
#define DECLARE_EVENT_CLASS(call, proto, args, tstruct, assign, print)                           \
	static void trace_event_print_##call(struct seq_buf *s, const struct trace_entry *__ent) \
	{                                                                                        \
		const struct trace_event_raw_##call *__entry = (const void *)__ent->data;        \
		struct trace_print_tmp __tmp, *p __maybe_unused = &__tmp;                        \
                                                                                                 \
		__tmp.len = 0;                                                                   \
		seq_printf(s, print);                                                            \
	}                                                                                        \
	static void trace_event_record_##call(struct trace_event *__event, proto)                \
	{                                                                                        \
		struct trace_entry __ent;                                                        \
		struct trace_event_raw_##call *__entry = (void *)__ent.data;                     \
                                                                                                 \
		assign;                                                                          \
		trace_record(__event, &__ent);                                                   \
	}
#define DEFINE_EVENT(template, event, proto, args)                         \
	void __trace_##event(proto)                                        \
	{                                                                  \
		trace_event_record_##template(&trace_event_##event, args); \
	}                                                                  \
	struct trace_event trace_event_##event = { .name = #event,         \
						   .print = trace_event_print_##template }
#include TRACE_INCLUDE_FILE

/* The system, whose events join it at its registration: in a function, one statement each. */
#undef DECLARE_EVENT_CLASS
#undef DEFINE_EVENT
#define DECLARE_EVENT_CLASS(call, proto, args, tstruct, assign, print)
#define DEFINE_EVENT(template, name, proto, args) trace_add_event(sys, &trace_event_##name)
static void __PASTE(TRACE_SYSTEM, _trace_add_events)(struct trace_system *sys)
{
#include TRACE_INCLUDE_FILE
}

struct trace_system __PASTE(TRACE_SYSTEM, _trace_system) = {
	.name = __stringify(TRACE_SYSTEM),
	.add_events = __PASTE(TRACE_SYSTEM, _trace_add_events),
};

/* the macros' meaning when an events header is read as any header, for the headers after */
#undef DECLARE_EVENT_CLASS
#undef DEFINE_EVENT
#undef __field
#undef __array
#undef TRACE_HEADER_MULTI_READ
#include <cgwb/tracepoint.h>
#define CREATE_TRACE_POINTS
#endif /* CREATE_TRACE_POINTS */
