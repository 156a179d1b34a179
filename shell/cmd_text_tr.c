/*
 * tr [-d] [-s] SET1 [SET2]: translate, delete or squeeze characters of standard input.
 * Sets take ranges (a-z), escapes (\n \t \\ \NNN) and the classes [:lower:] [:upper:]
 * [:digit:] [:alpha:] [:alnum:] [:space:]; a short SET2 is padded with its last
 * character, as in coreutils.
 */
#include <cgwb/shell.h>
#include <cgwb/sched.h>
#include <cgwb/file.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include "internal.h"

#define TR_BUF 4096

struct tr_class {
	const char *name;
	const char *ranges; /* pairs lo,hi */
};

static const struct tr_class tr_classes[] = {
	{ "[:lower:]", "az" },     { "[:upper:]", "AZ" },
	{ "[:digit:]", "09" },     { "[:alpha:]", "AZaz" },
	{ "[:alnum:]", "09AZaz" }, { "[:space:]", "\t\r  " }, /* \t \n \v \f \r and space */
};

/* One character of a set at *s, its escapes decoded. */
static unsigned char set_char(const char **s)
{
	const char *p = *s;
	unsigned char c = (unsigned char)*p++;

	if (c == '\\' && *p) {
		c = (unsigned char)*p++;
		if (c == 'n')
			c = '\n';
		else if (c == 't')
			c = '\t';
		else if (c >= '0' && c <= '7') {
			c -= '0';
			for (int k = 0; k < 2 && *p >= '0' && *p <= '7'; k++)
				c = (unsigned char)(c * 8 + (*p++ - '0'));
		}
	}
	*s = p;
	return c;
}

static void add_range(unsigned char *out, int *n, unsigned lo, unsigned hi)
{
	for (unsigned c = lo; c <= hi && *n < 256; c++)
		out[(*n)++] = (unsigned char)c;
}

/* The set's characters in order into out (up to 256): their number, or -EINVAL. */
static int expand_set(const char *s, unsigned char *out)
{
	int n = 0;

	while (*s && n < 256) {
		unsigned char lo, hi;
		size_t k;

		for (k = 0; k < ARRAY_SIZE(tr_classes); k++)
			if (str_has_prefix(s, tr_classes[k].name))
				break;
		if (k < ARRAY_SIZE(tr_classes)) {
			const char *r = tr_classes[k].ranges;

			for (; *r; r += 2)
				add_range(out, &n, (unsigned char)r[0], (unsigned char)r[1]);
			s += strlen(tr_classes[k].name);
			continue;
		}
		lo = set_char(&s);
		if (*s == '-' && s[1]) {
			s++;
			hi = set_char(&s);
			if (hi < lo)
				return -EINVAL;
			add_range(out, &n, lo, hi);
		} else {
			out[n++] = lo;
		}
	}
	return n;
}

struct tr_spec {
	short map[256]; /* the replacement, or -1: delete */
	bool squeeze[256];
};

static int tr_run(const struct tr_spec *t)
{
	char *in = kmalloc(TR_BUF, GFP_KERNEL), *out = kmalloc(TR_BUF, GFP_KERNEL);
	int last = -1, err = in && out ? 0 : -ENOMEM;
	ssize_t n;

	while (!err && (n = file_read(current->files[0], in, TR_BUF)) > 0) {
		size_t o = 0;

		for (ssize_t i = 0; i < n; i++) {
			short c = t->map[(unsigned char)in[i]];

			if (c < 0 || (t->squeeze[c] && c == last))
				continue;
			out[o++] = (char)c;
			last = c;
		}
		if (sh_write(out, o) < 0 || signal_pending(current))
			break;
	}
	kfree(in);
	kfree(out);
	return err;
}

static int cmd_tr(int argc, char **argv)
{
	unsigned char set1[256], set2[256];
	struct tr_spec t;
	u64 flags;
	int i = sh_flags(argc, argv, "ds", &flags), n1, n2 = 0, nsets, err;
	bool del = flags & SH_OPT('d'), squeeze = flags & SH_OPT('s');

	if (i < 0)
		return 2;
	nsets = argc - i;
	/* -d takes SET1 (and the SET2 to squeeze with -s); translating takes both */
	if (del ? nsets != 1 + squeeze : squeeze ? nsets < 1 || nsets > 2 : nsets != 2)
		return sh_usage("tr");
	n1 = expand_set(argv[i], set1);
	if (i + 1 < argc)
		n2 = expand_set(argv[i + 1], set2);
	if (n1 < 0 || n2 < 0)
		return sh_error("tr", "range-endpoints are in reverse collating sequence order");
	if (!del && i + 1 < argc && !n2)
		return sh_error("tr", "when not truncating set1, string2 must be non-empty");
	for (int c = 0; c < 256; c++) {
		t.map[c] = (short)c;
		t.squeeze[c] = false;
	}
	for (int k = 0; k < n1; k++) {
		if (del)
			t.map[set1[k]] = -1;
		else if (i + 1 < argc)
			t.map[set1[k]] = set2[k < n2 ? k : n2 - 1];
	}
	/* -s squeezes the last set given (SET2 when translating, SET1 otherwise) */
	if (squeeze) {
		unsigned char *sq = i + 1 < argc ? set2 : set1;

		for (int k = 0, n = i + 1 < argc ? n2 : n1; k < n; k++)
			t.squeeze[sq[k]] = true;
	}
	err = tr_run(&t);
	return err ? sh_error("tr", "%s", errstr(err)) : 0;
}
DEFINE_SHELL_CMD(tr, "tr", "tr [-d] [-s] SET1 [SET2]",
		 "translate, delete (-d) or squeeze (-s) characters of stdin", cmd_tr, 0);
