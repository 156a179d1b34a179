/*
 * The helpers TP_printk's arguments call (<cgwb/tracepoint.h>), as Linux's
 * kernel/trace/trace_output.c: each builds a string in the formatter's scratch buffer.
 */
#include <cgwb/tracepoint.h>
#include <cgwb/string.h>

/* Append str to p, cut at its end; p stays terminated. */
static void tmp_puts(struct trace_print_tmp *p, const char *str)
{
	p->len += strlcpy(p->buf + p->len, str, sizeof(p->buf) - p->len);
	p->len = min(p->len, sizeof(p->buf) - 1);
}

const char *trace_print_flags_seq(struct trace_print_tmp *p, const char *delim, unsigned long flags,
				  const struct trace_print_flags *names)
{
	const char *ret = p->buf + p->len;
	const char *sep = "";
	char hex[2 + 16 + 1];

	/* no flag set appends nothing: the empty string still needs its terminator */
	p->buf[p->len] = 0;
	for (; names->name && flags; names++) {
		if ((flags & names->mask) != names->mask)
			continue;
		flags &= ~names->mask;
		tmp_puts(p, sep);
		tmp_puts(p, names->name);
		sep = delim;
	}
	if (flags) {
		snprintf(hex, sizeof(hex), "0x%lx", flags);
		tmp_puts(p, sep);
		tmp_puts(p, hex);
	}
	/* the next string starts after this one's terminator */
	p->len = min(p->len + 1, sizeof(p->buf) - 1);
	return ret;
}
