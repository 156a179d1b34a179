/* cut -f LIST [-d DELIM] [-s] [FILE...] and cut -c LIST [FILE...], as coreutils. */
#include <cgwb/shell.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include "textio.h"
#include "internal.h"

#define CUT_MAX_RANGES 16

#define CUT_OPEN_END ((u32)-1)

/* LIST: N, N-M, N-, -M, separated by commas; 1-based and inclusive. */
struct cut_list {
	int n;
	struct {
		u32 lo, hi;
	} r[CUT_MAX_RANGES];
};

/* Decimal digits at *s (moved past them); 0 if there are none (0 is no position). */
static u32 take_num(const char **s)
{
	u32 v = 0;

	while (**s >= '0' && **s <= '9' && v < 100000000)
		v = v * 10 + (u32)(*(*s)++ - '0');
	return v;
}

static int parse_list(const char *s, struct cut_list *l)
{
	l->n = 0;
	while (*s) {
		u32 lo = 1, hi = CUT_OPEN_END;

		if (l->n == CUT_MAX_RANGES)
			return -E2BIG;
		if (*s != '-') {
			lo = take_num(&s);
			if (!lo)
				return -EINVAL;
			hi = *s == '-' ? CUT_OPEN_END : lo;
		}
		if (*s == '-') {
			s++;
			if (*s && *s != ',') {
				hi = take_num(&s);
				if (!hi || hi < lo)
					return -EINVAL;
			}
		}
		if (*s && *s++ != ',')
			return -EINVAL;
		l->r[l->n].lo = lo;
		l->r[l->n].hi = hi;
		l->n++;
	}
	return l->n ? 0 : -EINVAL;
}

static bool selected(const struct cut_list *l, u32 i)
{
	for (int k = 0; k < l->n; k++)
		if (i >= l->r[k].lo && i <= l->r[k].hi)
			return true;
	return false;
}

/* What to cut: the options. */
struct cut_opts {
	struct cut_list l;
	bool chars;          /* -c: characters, else -f: fields */
	char delim;          /* -d: between fields (a tab) */
	bool only_delimited; /* -s: lines without delim are left out */
};

/* One line: the chosen characters (-c) or fields (-f) with their delimiters between. */
static int cut_line(const char *s, size_t len, void *ctx)
{
	const struct cut_opts *o = ctx;
	struct strbuf out = STRBUF_INIT;
	bool first = true;
	u32 field = 1;

	if (!o->chars && !memchr(s, o->delim, len)) {
		if (!o->only_delimited) {
			sh_write(s, len);
			sh_write("\n", 1);
		}
		return 0;
	}
	for (size_t i = 0; i < len; i++) {
		if (o->chars) {
			if (selected(&o->l, (u32)i + 1))
				sb_addc(&out, s[i]);
			continue;
		}
		if (s[i] == o->delim) {
			field++;
			continue;
		}
		if (!selected(&o->l, field))
			continue;
		/* the first character of a chosen field after another chosen one */
		if (!first && (i == 0 || s[i - 1] == o->delim))
			sb_addc(&out, o->delim);
		first = false;
		sb_addc(&out, s[i]);
	}
	sb_addc(&out, '\n');
	sh_write(sb_str(&out), out.len);
	sb_release(&out);
	return 0;
}

/* One FILE ("-": standard input); ctx: the options. */
static int cut_file(const char *name, void *ctx)
{
	return text_in_each_line("cut", name, cut_line, ctx);
}

/* The options into o: the index of the first FILE, or a status after a message. */
static int cut_options(int argc, char **argv, struct cut_opts *o)
{
	struct sh_getopt g = { 0 };
	const char *list = NULL;
	int c;

	while ((c = sh_getopt(&g, argc, argv, "sd:f:c:")) > 0) {
		if (c == '?')
			return -2;
		if (c == 's') {
			o->only_delimited = true;
		} else if (c == 'd') {
			if (strlen(g.arg) != 1)
				return -sh_error("cut", "the delimiter must be a single character");
			o->delim = g.arg[0];
		} else {
			list = g.arg;
			o->chars = c == 'c';
		}
	}
	if (!list)
		return -sh_error("cut", "you must specify a list of bytes, characters, or fields");
	if (parse_list(list, &o->l))
		return -sh_error("cut", "invalid field value '%s'", list);
	return g.ind;
}

static int cmd_cut(int argc, char **argv)
{
	struct cut_opts o = { .delim = '\t' };
	int first = cut_options(argc, argv, &o);

	if (first < 0)
		return -first;
	return sh_for_each_input(argc, argv, first, cut_file, &o);
}
DEFINE_SHELL_CMD(cut, "cut", "cut -f LIST [-d DELIM] [-s] [FILE...] | cut -c LIST [FILE...]",
		 "print chosen fields (or characters) of each line", cmd_cut, 0);
