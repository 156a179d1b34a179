/*
 * sort [-n] [-r] [-u] [-t C] [-k N[,M]] [FILE...] and uniq [-c] [FILE]: coreutils' rules
 * for the subset. A key is fields N..M (blank-separated with the blanks before a field
 * part of it, or split at C with -t); lines whose keys compare equal are ordered by their
 * whole text, and -r reverses both.
 */
#include <cgwb/shell.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include "textio.h"
#include "internal.h"

struct sort_opts {
	bool numeric, reverse, unique;
	int sep;            /* -t character, or -1: blank transitions */
	int key_lo, key_hi; /* fields, 1-based; 0: the whole line / to the end */
};

static bool is_blank_char(char c)
{
	return c == ' ' || c == '\t';
}

/* The start of field n (1-based) of line, or its end if the line has fewer fields. */
static const char *field_start(const char *s, int n, int sep)
{
	for (int f = 1; f < n && *s; f++) {
		if (sep >= 0) {
			const char *next = strchr(s, sep);

			s = next ? next + 1 : s + strlen(s);
			continue;
		}
		while (is_blank_char(*s))
			s++;
		while (*s && !is_blank_char(*s))
			s++;
	}
	return s;
}

/* The end of field n: where field n + 1's separator (or blanks) starts. */
static const char *field_end(const char *s, int n, int sep)
{
	s = field_start(s, n, sep);
	if (sep >= 0)
		return s + strcspn(s, (char[]){ (char)sep, '\0' });
	while (is_blank_char(*s))
		s++;
	while (*s && !is_blank_char(*s))
		s++;
	return s;
}

/* Numbers as sort -n reads them: blanks, '-', digits, '.', digits; anything else is 0. */
static int compare_numeric(const char *a, const char *ae, const char *b, const char *be)
{
	int sa, sb, c = 0;
	size_t ia, ib;

	while (a < ae && is_blank_char(*a))
		a++;
	while (b < be && is_blank_char(*b))
		b++;
	sa = a < ae && *a == '-' ? -1 : 1;
	sb = b < be && *b == '-' ? -1 : 1;
	a += sa < 0;
	b += sb < 0;
	while (a < ae && *a == '0')
		a++;
	while (b < be && *b == '0')
		b++;
	for (ia = 0; a + ia < ae && a[ia] >= '0' && a[ia] <= '9'; ia++)
		;
	for (ib = 0; b + ib < be && b[ib] >= '0' && b[ib] <= '9'; ib++)
		;
	/* -0 and 0 are equal; otherwise the sign, then the length of the integer part */
	if (!ia && !ib && (a >= ae || *a != '.') && (b >= be || *b != '.'))
		return 0;
	if (sa != sb)
		return sa < sb ? -1 : 1;
	if (ia != ib)
		c = ia < ib ? -1 : 1;
	else
		c = memcmp(a, b, ia);
	if (!c) {
		/* the fractions, digit by digit (a missing digit is 0) */
		const char *fa = a + ia, *fb = b + ib;

		fa += fa < ae && *fa == '.';
		fb += fb < be && *fb == '.';
		while (!c && ((fa < ae && *fa >= '0' && *fa <= '9') ||
			      (fb < be && *fb >= '0' && *fb <= '9'))) {
			char da = fa < ae && *fa >= '0' && *fa <= '9' ? *fa++ : '0';
			char db = fb < be && *fb >= '0' && *fb <= '9' ? *fb++ : '0';

			c = da - db;
		}
	}
	return sa * c;
}

static int compare_keys(const char *a, const char *b, const struct sort_opts *o)
{
	const char *as = a, *ae = a + strlen(a), *bs = b, *be = b + strlen(b);
	int c;

	if (o->key_lo) {
		as = field_start(a, o->key_lo, o->sep);
		bs = field_start(b, o->key_lo, o->sep);
		if (o->key_hi) {
			ae = field_end(a, o->key_hi, o->sep);
			be = field_end(b, o->key_hi, o->sep);
		}
	}
	if (o->numeric)
		return compare_numeric(as, max(as, ae), bs, max(bs, be));
	c = memcmp(as, bs, min(ae - as, be - bs) > 0 ? (size_t)min(ae - as, be - bs) : 0);
	if (!c)
		c = (ae - as > be - bs) - (ae - as < be - bs);
	return c;
}

static int compare_lines(const char *a, const char *b, const struct sort_opts *o)
{
	int c = compare_keys(a, b, o);

	/* the last resort: the whole lines, byte by byte (not with -u) */
	if (!c && !o->unique)
		c = strcmp(a, b);
	return o->reverse ? -c : c;
}

/* Merge sort (stable, n log n): v and tmp have n entries. */
static void merge_sort(char **v, char **tmp, int n, const struct sort_opts *o)
{
	int mid = n / 2, i = 0, j = mid, k = 0;

	if (n < 2)
		return;
	merge_sort(v, tmp, mid, o);
	merge_sort(v + mid, tmp, n - mid, o);
	while (i < mid && j < n)
		tmp[k++] = compare_lines(v[j], v[i], o) < 0 ? v[j++] : v[i++];
	while (i < mid)
		tmp[k++] = v[i++];
	while (j < n)
		tmp[k++] = v[j++];
	memcpy(v, tmp, (size_t)n * sizeof(*v));
}

/* One line kept; ctx: the lines. */
static int keep_line(const char *line, size_t len, void *ctx)
{
	struct strv *lines = ctx;

	strv_push(lines, kstrndup(line, len, GFP_KERNEL));
	return lines->failed ? -ENOMEM : 0;
}

static int read_lines(const char *cmd, const char *name, struct strv *lines)
{
	return text_in_each_line(cmd, name, keep_line, lines);
}

/* -k N[,M] (character positions N.C are not supported). */
static int parse_key(const char *s, struct sort_opts *o)
{
	const char *comma = strchr(s, ',');
	char lo[12];

	if (!comma) {
		o->key_hi = 0;
		return kstrtoint(s, 10, &o->key_lo) || o->key_lo < 1 ? -EINVAL : 0;
	}
	if ((size_t)(comma - s) >= sizeof(lo))
		return -EINVAL;
	memcpy(lo, s, (size_t)(comma - s));
	lo[comma - s] = '\0';
	if (kstrtoint(lo, 10, &o->key_lo) || kstrtoint(comma + 1, 10, &o->key_hi) ||
	    o->key_lo < 1 || o->key_hi < o->key_lo)
		return -EINVAL;
	return 0;
}

/* The index of the first FILE, or -1 after a message (bad usage, a bad value). */
static int sort_options(int argc, char **argv, struct sort_opts *o)
{
	struct sh_getopt g = { 0 };
	int c;

	while ((c = sh_getopt(&g, argc, argv, "nrut:k:")) > 0) {
		if (c == '?')
			return -1;
		o->numeric |= c == 'n';
		o->reverse |= c == 'r';
		o->unique |= c == 'u';
		if (c == 't' && strlen(g.arg) != 1) {
			sh_error("sort", "multi-character tab '%s'", g.arg);
			return -1;
		}
		if (c == 't') {
			o->sep = (unsigned char)g.arg[0];
		} else if (c == 'k' && parse_key(g.arg, o)) {
			sh_error("sort", "invalid field specification '%s'", g.arg);
			return -1;
		}
	}
	return g.ind;
}

static int cmd_sort(int argc, char **argv)
{
	struct sort_opts o = { .sep = -1 };
	struct strv lines = STRV_INIT;
	char **tmp;
	int i = sort_options(argc, argv, &o), status = 0;

	if (i < 0)
		return 2;
	if (i == argc)
		status = read_lines("sort", NULL, &lines);
	for (; i < argc && !status; i++)
		status = read_lines("sort", argv[i], &lines);
	tmp = kcalloc((size_t)lines.n + 1, sizeof(*tmp), GFP_KERNEL);
	if (!status && !tmp)
		status = sh_error("sort", "%s", errstr(-ENOMEM));
	if (!status) {
		merge_sort(lines.v, tmp, lines.n, &o);
		for (int k = 0; k < lines.n; k++)
			if (!o.unique || !k || compare_keys(lines.v[k - 1], lines.v[k], &o))
				sh_out("%s\n", lines.v[k]);
	}
	kfree(tmp);
	strv_free(&lines);
	return status;
}
DEFINE_SHELL_CMD(sort, "sort", "sort [-n] [-r] [-u] [-t C] [-k N[,M]] [FILE...]",
		 "print the lines of the files sorted", cmd_sort, 0);

/* uniq [-c] [FILE]: adjacent equal lines once (-c: with their count, as "%7d line"). */
static int cmd_uniq(int argc, char **argv)
{
	struct strbuf prev = STRBUF_INIT;
	bool count = argc > 1 && !strcmp(argv[1], "-c"), have = false;
	struct text_in in;
	const char *line;
	size_t len;
	long n = 0;
	int got;

	if (argc > 2 + count)
		return sh_usage("uniq");
	if (text_in_open(&in, "uniq", argc > 1 + count ? argv[1 + count] : NULL))
		return 1;
	for (;;) {
		got = text_in_line(&in, &line, &len);
		if (have && (got <= 0 || len != prev.len || memcmp(line, sb_str(&prev), len))) {
			if (count)
				sh_out("%7ld %s\n", n, sb_str(&prev));
			else
				sh_out("%s\n", sb_str(&prev));
			n = 0;
		}
		if (got <= 0)
			break;
		if (!n) {
			sb_truncate(&prev, 0);
			sb_addn(&prev, line, len);
		}
		have = true;
		n++;
	}
	text_in_close(&in);
	sb_release(&prev);
	return got < 0 ? sh_error("uniq", "%s", errstr(got)) : 0;
}
DEFINE_SHELL_CMD(uniq, "uniq", "uniq [-c] [FILE]",
		 "print adjacent equal lines once (-c: with their count)", cmd_uniq, 0);
