/* grep: print the lines that match a pattern (basic or -E extended regex, or -F fixed). */
#include <cgwb/shell.h>
#include <cgwb/fs.h>
#include <cgwb/sched.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include "lang/regex.h"
#include "internal.h"

#define GREP_LINE_MAX 4096

struct grep {
	struct regex *re;
	const char *fixed;
	bool invert, count, quiet, icase, number, names, only;
	unsigned long matches;
};

static bool fixed_match(const struct grep *g, const char *line)
{
	if (!g->icase)
		return strstr(line, g->fixed);
	size_t n = strlen(g->fixed);
	for (const char *p = line; *p; p++) {
		size_t i = 0;
		while (i < n && p[i] && (p[i] | 0x20) == (g->fixed[i] | 0x20) &&
		       ((p[i] | 0x20) >= 'a' && (p[i] | 0x20) <= 'z' ? true : p[i] == g->fixed[i]))
			i++;
		if (i == n)
			return true;
	}
	return !n;
}

/* The prefix of an output line: "name:" and "lineno:" when asked for. */
static int grep_prefix(struct grep *g, const char *name, unsigned long lineno)
{
	if (g->names && sh_out("%s:", name) < 0)
		return -EPIPE;
	if (g->number && sh_out("%lu:", lineno) < 0)
		return -EPIPE;
	return 0;
}

/* -o: each non-empty match on a line of its own (a regex; -F matches are the string). */
static int grep_only(struct grep *g, const char *name, unsigned long lineno, const char *line)
{
	int from = 0, so, eo;
	size_t flen = g->fixed ? strlen(g->fixed) : 0;

	while (line[from]) {
		if (g->fixed) {
			const char *at = strstr(line + from, g->fixed);

			if (!at || !flen)
				break;
			so = (int)(at - line);
			eo = so + (int)flen;
		} else if (!regex_search(g->re, line, from, &so, &eo)) {
			break;
		}
		if (eo == so) { /* an empty match prints nothing: try further on */
			from = so + 1;
			continue;
		}
		if (grep_prefix(g, name, lineno) || sh_out("%.*s\n", eo - so, line + so) < 0)
			return -EPIPE;
		from = eo;
	}
	return 0;
}

static int grep_line(struct grep *g, const char *name, unsigned long lineno, const char *line)
{
	bool hit = (g->fixed ? fixed_match(g, line) : regex_match(g->re, line)) != g->invert;

	if (!hit)
		return 0;
	g->matches++;
	if (g->quiet || g->count)
		return 0;
	if (g->only && !g->invert)
		return grep_only(g, name, lineno, line);
	if (g->only)
		return 0; /* -o -v: the lines have no matching part to print */
	if (grep_prefix(g, name, lineno))
		return -EPIPE;
	return sh_out("%s\n", line) < 0 ? -EPIPE : 0;
}

/* Split f into lines and grep each; a line longer than GREP_LINE_MAX is cut in pieces. */
static int grep_file(struct grep *g, struct file *f, const char *name)
{
	char *buf = kmalloc(GREP_LINE_MAX + 1, GFP_KERNEL);
	size_t len = 0;
	unsigned long lineno = 0;
	int err = 0;

	if (!buf)
		return -ENOMEM;
	for (;;) {
		ssize_t n = file_read(f, buf + len, GREP_LINE_MAX - len);
		if (n < 0) {
			err = (int)n;
			break;
		}
		len += (size_t)n;
		size_t start = 0;
		for (size_t i = 0; i < len && !err; i++) {
			char c = buf[i];
			if (c != '\n' && i - start < GREP_LINE_MAX - 1)
				continue;
			buf[i] = '\0';
			err = grep_line(g, name, ++lineno, buf + start);
			if (c == '\n') {
				start = i + 1;
			} else { /* a cut in an overlong line: the char starts the next piece */
				buf[i] = c;
				start = i;
			}
		}
		memmove(buf, buf + start, len - start);
		len -= start;
		if (err || (g->quiet && g->matches) || signal_pending(current))
			break;
		if (!n) {
			if (len) {
				buf[len] = '\0';
				err = grep_line(g, name, ++lineno, buf);
			}
			break;
		}
	}
	kfree(buf);
	return err;
}

/* One FILE ("-": standard input): 0, or 2 after a message; ctx: the search. */
static int grep_operand(const char *name, void *ctx)
{
	struct grep *g = ctx;
	bool is_stdin = !strcmp(name, "-");
	struct file *file = is_stdin ? current->files[0] : filp_open(name, O_RDONLY, 0);
	unsigned long before = g->matches;
	int err;

	if (IS_ERR_OR_NULL(file)) {
		sh_operand_error("grep", NULL, name, file ? (int)PTR_ERR(file) : -EBADF);
		return 2;
	}
	err = grep_file(g, file, name);
	if (!is_stdin)
		fput(file);
	if (err == -EPIPE)
		return 0; /* the reader went away: the kill that came with it ends the loop */
	if (err) {
		sh_operand_error("grep", NULL, name, err);
		return 2;
	}
	if (g->count && !g->quiet)
		sh_out(g->names ? "%s:%lu\n" : "%.0s%lu\n", name, g->matches - before);
	return 0;
}

static int cmd_grep(int argc, char **argv)
{
	struct grep g = { 0 };
	u64 flags;
	int i = sh_flags(argc, argv, "EFvcqino", &flags), status;

	if (i < 0)
		return 2;
	if (i >= argc)
		return sh_usage("grep");
	g.invert = flags & SH_OPT('v');
	g.count = flags & SH_OPT('c');
	g.quiet = flags & SH_OPT('q');
	g.icase = flags & SH_OPT('i');
	g.number = flags & SH_OPT('n');
	g.only = flags & SH_OPT('o');
	const char *pattern = argv[i++];
	if (flags & SH_OPT('F')) {
		g.fixed = pattern;
	} else {
		int err = regex_compile(&g.re, pattern, flags & SH_OPT('E'), g.icase);
		if (err) {
			sh_operand_error("grep", "invalid pattern", pattern, err);
			return 2;
		}
	}
	g.names = argc - i > 1;
	status = sh_for_each_input(argc, argv, i, grep_operand, &g);
	if (g.re)
		regex_free(g.re);
	if (status)
		return status;
	return g.matches ? 0 : 1;
}
DEFINE_SHELL_CMD(grep, "grep", "grep [-EFvcqino] PATTERN [FILE...]",
		 "print lines matching a regular expression (-E extended, -F fixed string)",
		 cmd_grep, 0);
