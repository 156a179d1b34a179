/* cut -f LIST [-d DELIM] [-s] [FILE...] and cut -c LIST [FILE...], as coreutils. */
#include <cgwb/shell.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include "textio.h"

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

/* One line: the chosen characters (-c) or fields (-f) with their delimiters between. */
static void cut_line(const char *s, size_t len, const struct cut_list *l, bool chars, char delim,
		     bool only_delimited)
{
	struct strbuf out = STRBUF_INIT;
	bool first = true;
	u32 field = 1;

	if (!chars && !memchr(s, delim, len)) {
		if (!only_delimited) {
			sh_write(s, len);
			sh_write("\n", 1);
		}
		return;
	}
	for (size_t i = 0; i < len; i++) {
		if (chars) {
			if (selected(l, (u32)i + 1))
				sb_addc(&out, s[i]);
			continue;
		}
		if (s[i] == delim) {
			field++;
			continue;
		}
		if (!selected(l, field))
			continue;
		/* the first character of a chosen field after another chosen one */
		if (!first && (i == 0 || s[i - 1] == delim))
			sb_addc(&out, delim);
		first = false;
		sb_addc(&out, s[i]);
	}
	sb_addc(&out, '\n');
	sh_write(sb_str(&out), out.len);
	sb_release(&out);
}

static int cut_file(const char *name, const struct cut_list *l, bool chars, char delim,
		    bool only_delimited)
{
	struct text_in in;
	const char *line;
	size_t len;
	int got;

	if (text_in_open(&in, "cut", name))
		return 1;
	while ((got = text_in_line(&in, &line, &len)) > 0)
		cut_line(line, len, l, chars, delim, only_delimited);
	text_in_close(&in);
	return got < 0 ? sh_error("cut", "%s: %s", name ? name : "-", errstr(got)) : 0;
}

static int cmd_cut(int argc, char **argv)
{
	const char *list = NULL;
	bool chars = false, only_delimited = false;
	struct cut_list l;
	char delim = '\t';
	int i, status = 0;

	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		char opt = argv[i][1];
		const char *val = argv[i][2] ? argv[i] + 2 : NULL;

		if (opt == 's' && !val) {
			only_delimited = true;
			continue;
		}
		if (!strchr("dfc", opt) || (!val && i + 1 == argc))
			return sh_usage("cut");
		if (!val)
			val = argv[++i];
		if (opt == 'd') {
			if (strlen(val) != 1)
				return sh_error("cut", "the delimiter must be a single character");
			delim = val[0];
		} else {
			list = val;
			chars = opt == 'c';
		}
	}
	if (!list)
		return sh_error("cut", "you must specify a list of bytes, characters, or fields");
	if (parse_list(list, &l))
		return sh_error("cut", "invalid field value '%s'", list);
	if (i == argc)
		return cut_file(NULL, &l, chars, delim, only_delimited);
	for (; i < argc; i++)
		status |= cut_file(argv[i], &l, chars, delim, only_delimited);
	return status;
}
DEFINE_SHELL_CMD(cut, "cut", "cut -f LIST [-d DELIM] [-s] [FILE...] | cut -c LIST [FILE...]",
		 "print chosen fields (or characters) of each line", cmd_cut, 0);
