/* head [-n N|-N] [-c N] [FILE], wc [-l] [-c] [FILE...], cmp FILE1 FILE2. */
#include <cgwb/shell.h>
#include <cgwb/sched.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include <cgwb/fs.h>
#include "internal.h"

#define TEXT_BUF 4096

/* FILE or standard input ("-" or none); *owned tells whether to fput it. */
static struct file *open_input(const char *name, bool *owned)
{
	*owned = name && strcmp(name, "-");
	if (!*owned)
		return current->files[0] ? current->files[0] : ERR_PTR(-EBADF);
	return filp_open(name, O_RDONLY, 0);
}

static void close_input(struct file *f, bool owned)
{
	if (owned)
		fput(f);
}

/* ---------------------------------------------------------------- head */

static int head_copy(struct file *f, u64 count, bool bytes, char *buf)
{
	while (count && !signal_pending(current)) {
		ssize_t n = file_read(f, buf, TEXT_BUF), take = 0;

		if (n <= 0)
			return (int)n;
		while (take < n && count) {
			if (bytes || buf[take] == '\n')
				count--;
			take++;
		}
		if (sh_write(buf, (size_t)take) < 0)
			return 0;
	}
	return 0;
}

static int cmd_head(int argc, char **argv)
{
	u64 count = 10;
	bool bytes = false, owned;
	const char *name = NULL;
	struct file *f;
	char *buf;
	int err;

	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i], *num = NULL;

		if ((!strcmp(arg, "-n") || !strcmp(arg, "-c")) && i + 1 < argc)
			num = argv[++i];
		else if ((str_has_prefix(arg, "-n") || str_has_prefix(arg, "-c")) && arg[2])
			num = arg + 2;
		else if (arg[0] == '-' && arg[1] >= '0' && arg[1] <= '9')
			num = arg + 1; /* the old form, `head -20` */
		else if (arg[0] == '-' && arg[1])
			return sh_usage("head");
		else if (name)
			return sh_error("head", "only one FILE is supported");
		else
			name = arg;
		if (num) {
			bytes = arg[1] == 'c';
			if (parse_size(num, &count))
				return sh_error("head", "invalid number of %s: '%s'",
						bytes ? "bytes" : "lines", num);
		}
	}
	f = open_input(name, &owned);
	if (IS_ERR(f))
		return sh_error("head", "cannot open '%s' for reading: %s", name,
				errstr((int)PTR_ERR(f)));
	buf = kmalloc(TEXT_BUF, GFP_KERNEL);
	err = buf ? head_copy(f, count, bytes, buf) : -ENOMEM;
	kfree(buf);
	close_input(f, owned);
	if (err)
		return sh_operand_error("head", "error reading", name ? name : "standard input", err);
	return signal_pending(current) ? SH_STATUS_KILLED : 0;
}
DEFINE_SHELL_CMD(head, "head", "head [-n N|-N] [-c N] [FILE]",
		 "print the first lines (or -c bytes) of a file", cmd_head, 0);

/* ---------------------------------------------------------------- wc */

struct wc_counts {
	u64 lines, words, bytes;
};

static int wc_count(struct file *f, struct wc_counts *c, char *buf)
{
	bool in_word = false;

	for (;;) {
		ssize_t n = file_read(f, buf, TEXT_BUF);

		if (n <= 0)
			return (int)n;
		if (signal_pending(current))
			return -EINTR;
		c->bytes += (u64)n;
		for (ssize_t i = 0; i < n; i++) {
			bool space = buf[i] == ' ' || (buf[i] >= '\t' && buf[i] <= '\r');
			if (buf[i] == '\n')
				c->lines++;
			if (!space && !in_word)
				c->words++;
			in_word = !space;
		}
	}
}

static int digits(u64 v)
{
	int d = 1;

	while (v >= 10) {
		v /= 10;
		d++;
	}
	return d;
}

static void wc_print(const struct wc_counts *c, u64 show, int width, const char *name)
{
	const char *sep = "";

	if (show & SH_OPT('l')) {
		sh_out("%*llu", width, c->lines);
		sep = " ";
	}
	if (show & SH_OPT('w')) {
		sh_out("%s%*llu", sep, width, c->words);
		sep = " ";
	}
	if (show & SH_OPT('c'))
		sh_out("%s%*llu", sep, width, c->bytes);
	sh_out(name ? " %s\n" : "\n", name);
}

static int cmd_wc(int argc, char **argv)
{
	u64 show;
	int first = sh_flags(argc, argv, "lwc", &show), status = 0, nfiles, width;
	struct wc_counts *counts, total = { 0 };
	char *buf;

	if (first < 0)
		return 2;
	if (!show)
		show = SH_OPT('l') | SH_OPT('w') | SH_OPT('c');
	nfiles = argc - first;
	counts = kcalloc((size_t)(nfiles ? nfiles : 1), sizeof(*counts), GFP_KERNEL);
	buf = kmalloc(TEXT_BUF, GFP_KERNEL);
	if (!counts || !buf) {
		kfree(counts);
		kfree(buf);
		return sh_error("wc", "%s", errstr(-ENOMEM));
	}
	bool *ok = (bool *)kcalloc((size_t)(nfiles ? nfiles : 1), sizeof(bool), GFP_KERNEL);
	for (int i = 0; i < (nfiles ? nfiles : 1) && ok; i++) {
		const char *name = nfiles ? argv[first + i] : NULL;
		bool owned;
		struct file *f = open_input(name, &owned);
		int err = IS_ERR(f) ? (int)PTR_ERR(f) : wc_count(f, &counts[i], buf);

		if (!IS_ERR(f))
			close_input(f, owned);
		if (err) {
			status = sh_operand_error("wc", NULL, name ? name : "-", err);
			continue;
		}
		ok[i] = true;
		total.lines += counts[i].lines;
		total.words += counts[i].words;
		total.bytes += counts[i].bytes;
	}
	/* one number alone needs no padding; columns line up on the widest total */
	width = (!(show & (show - 1)) && nfiles <= 1) ?
			1 :
			max(digits(max(max(total.lines, total.words), total.bytes)), nfiles ? 1 : 7);
	for (int i = 0; i < (nfiles ? nfiles : 1) && ok; i++)
		if (ok[i])
			wc_print(&counts[i], show, width, nfiles ? argv[first + i] : NULL);
	if (nfiles > 1)
		wc_print(&total, show, width, "total");
	kfree(ok);
	kfree(counts);
	kfree(buf);
	return status;
}
DEFINE_SHELL_CMD(wc, "wc", "wc [-l] [-w] [-c] [FILE...]", "count lines, words and bytes", cmd_wc, 0);

/* ---------------------------------------------------------------- cmp */

struct cmp_pos {
	u64 byte, line;
};

/* 0 same, 1 differ or EOF (reported), or -errno. */
static int cmp_files(struct file *a, struct file *b, const char *na, const char *nb, char *ba,
		     char *bb)
{
	struct cmp_pos pos = { 0, 1 };
	char last = 0;

	for (;;) {
		ssize_t ra = file_read(a, ba, TEXT_BUF), rb;

		if (ra < 0)
			return (int)ra;
		rb = file_read(b, bb, (size_t)(ra ? ra : 1));
		if (rb < 0)
			return (int)rb;
		ssize_t n = min(ra, rb);
		for (ssize_t i = 0; i < n; i++) {
			pos.byte++;
			if (ba[i] != bb[i]) {
				sh_out("%s %s differ: byte %llu, line %llu\n", na, nb, pos.byte,
				       pos.line);
				return 1;
			}
			if (ba[i] == '\n')
				pos.line++;
			last = ba[i];
		}
		if (ra != rb) {
			if (!pos.byte) {
				sh_err("cmp: EOF on %s which is empty\n", ra < rb ? na : nb);
				return 1;
			}
			/* coreutils counts the line the last byte is on */
			sh_err("cmp: EOF on %s after byte %llu, line %llu\n", ra < rb ? na : nb,
			       pos.byte, pos.line - (last == '\n'));
			return 1;
		}
		if (!ra)
			return 0;
		if (signal_pending(current))
			return -EINTR;
	}
}

static int cmd_cmp(int argc, char **argv)
{
	struct file *a, *b;
	bool own_a, own_b;
	char *ba, *bb;
	int ret;

	if (argc != 3)
		return sh_usage("cmp");
	a = open_input(argv[1], &own_a);
	if (IS_ERR(a)) {
		sh_operand_error("cmp", NULL, argv[1], (int)PTR_ERR(a));
		return 2;
	}
	b = open_input(argv[2], &own_b);
	if (IS_ERR(b)) {
		close_input(a, own_a);
		sh_operand_error("cmp", NULL, argv[2], (int)PTR_ERR(b));
		return 2;
	}
	ba = kmalloc(TEXT_BUF, GFP_KERNEL);
	bb = kmalloc(TEXT_BUF, GFP_KERNEL);
	ret = ba && bb ? cmp_files(a, b, argv[1], argv[2], ba, bb) : -ENOMEM;
	kfree(ba);
	kfree(bb);
	close_input(a, own_a);
	close_input(b, own_b);
	if (ret < 0) {
		sh_error("cmp", "%s", errstr(ret));
		return 2;
	}
	return ret;
}
DEFINE_SHELL_CMD(cmp, "cmp", "cmp FILE1 FILE2", "compare two files byte by byte", cmd_cmp, 0);
