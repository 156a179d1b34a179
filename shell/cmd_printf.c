/*
 * printf FORMAT [ARG...]: POSIX printf. Conversions %s %b %c %d %i %u %x %X %o %% with
 * flags, width and precision (numbers or *); the format is reused while arguments remain.
 */
#include <cgwb/shell.h>
#include <cgwb/string.h>
#include "escapes.h"

struct printf_state {
	int argc;
	char **argv;
	int next; /* next argument */
	int status;
	struct strbuf out;
};

static const char *next_arg(struct printf_state *st)
{
	return st->next < st->argc ? st->argv[st->next++] : NULL;
}

/* A numeric argument: decimal, 0x hex, 0 octal, or 'c for a character's code. */
static long long num_arg(struct printf_state *st)
{
	const char *a = next_arg(st);
	s64 v;

	if (!a || !*a)
		return 0;
	if ((a[0] == '\'' || a[0] == '"') && a[1])
		return (unsigned char)a[1];
	if (kstrtoll(a, 0, &v)) {
		st->status = sh_error("printf", "%s: invalid number", a);
		return 0;
	}
	return v;
}

static void add_string(struct printf_state *st, const char *flags, int width, int prec, const char *s)
{
	char spec[16];

	snprintf(spec, sizeof(spec), "%%%s*.*s", flags);
	sb_addf(&st->out, spec, width, prec, s);
}

static void add_number(struct printf_state *st, const char *flags, int width, int prec, char conv)
{
	char spec[16];
	long long v = num_arg(st);

	snprintf(spec, sizeof(spec), "%%%s*.*ll%c", flags, conv);
	if (conv == 'd' || conv == 'i')
		sb_addf(&st->out, spec, width, prec, v);
	else
		sb_addf(&st->out, spec, width, prec, (unsigned long long)v);
}

static int read_count(struct printf_state *st, const char **fmt)
{
	int v = 0;

	if (**fmt == '*') {
		(*fmt)++;
		return (int)num_arg(st);
	}
	while (**fmt >= '0' && **fmt <= '9')
		v = v * 10 + (*(*fmt)++ - '0');
	return v;
}

/* One conversion; fmt is just after the '%'. Returns where the format goes on. */
static const char *convert(struct printf_state *st, const char *fmt)
{
	char flags[8], one[2] = "";
	struct strbuf tmp = STRBUF_INIT;
	const char *a;
	size_t nf = 0;
	int width, prec = -1;

	while (*fmt && strchr("-+ #0", *fmt) && nf < sizeof(flags) - 1)
		flags[nf++] = *fmt++;
	flags[nf] = '\0';
	width = read_count(st, &fmt);
	if (*fmt == '.') {
		fmt++;
		prec = read_count(st, &fmt);
	}
	switch (*fmt) {
	case 'd':
	case 'i':
	case 'u':
	case 'x':
	case 'X':
	case 'o':
		add_number(st, flags, width, prec, *fmt);
		break;
	case 's':
		a = next_arg(st);
		add_string(st, flags, width, prec, a ? a : "");
		break;
	case 'b':
		a = next_arg(st);
		sh_unescape(a ? a : "", &tmp);
		add_string(st, flags, width, prec, sb_str(&tmp));
		sb_release(&tmp);
		break;
	case 'c':
		a = next_arg(st);
		one[0] = a ? a[0] : '\0';
		add_string(st, flags, width, -1, one);
		break;
	case '%':
		sb_addc(&st->out, '%');
		break;
	default:
		st->status = sh_error("printf", "%%%c: invalid directive", *fmt ? *fmt : '?');
		return *fmt ? fmt + 1 : fmt;
	}
	return fmt + 1;
}

/* One pass over the format; true if "\c" asked to stop. */
static bool format_once(struct printf_state *st, const char *fmt)
{
	bool stop = false;

	while (*fmt && !stop && !st->status) {
		if (*fmt == '%' && fmt[1])
			fmt = convert(st, fmt + 1);
		else if (*fmt == '\\' && fmt[1])
			fmt = sh_unescape_one(fmt + 1, &st->out, &stop);
		else
			sb_addc(&st->out, *fmt++);
	}
	return stop;
}

static int cmd_printf(int argc, char **argv)
{
	struct printf_state st = { .argc = argc, .argv = argv, .next = 2, .out = STRBUF_INIT };

	if (argc < 2)
		return sh_usage("printf");
	for (;;) {
		int before = st.next;

		if (format_once(&st, argv[1]) || st.status)
			break;
		if (st.next >= argc || st.next == before)
			break;
	}
	if (st.out.len && sh_write(sb_str(&st.out), st.out.len) < 0)
		st.status = 1;
	sb_release(&st.out);
	return st.status;
}
DEFINE_SHELL_CMD(printf, "printf", "printf FORMAT [ARG...]",
		 "formatted output: %s %b %c %d %i %u %x %o %%, width and precision; \\n \\t "
		 "escapes",
		 cmd_printf, 0);
