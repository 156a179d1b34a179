/*
 * tail [-n N|-n +N|-N] [-f] [FILE]: the last N lines (10), or from line N on; -f then keeps
 * printing what is appended to FILE until killed (it polls: files have no notification).
 * -N is the old count form coreutils and busybox still take (`tail -20`).
 */
#include <cgwb/shell.h>
#include <cgwb/sched.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include "textio.h"
#include "internal.h"

#define TAIL_MAX_LINES 100000
#define TAIL_POLL_MS 100
#define TAIL_BUF 4096

/* The last n lines, kept in a ring of n slots. */
static int tail_last(struct text_in *in, u64 n)
{
	char **ring = n ? kcalloc(n, sizeof(*ring), GFP_KERNEL) : NULL;
	const char *line;
	size_t len;
	u64 seen = 0;
	int got;

	if (n && !ring)
		return -ENOMEM;
	while ((got = text_in_line(in, &line, &len)) > 0) {
		if (!n)
			continue;
		kfree(ring[seen % n]);
		ring[seen % n] = kstrndup(line, len, GFP_KERNEL);
		if (!ring[seen % n]) {
			got = -ENOMEM;
			break;
		}
		seen++;
	}
	for (u64 i = seen > n ? seen - n : 0; got == 0 && i < seen; i++)
		sh_out("%s\n", ring[i % n]);
	for (u64 i = 0; i < n; i++)
		kfree(ring[i]);
	kfree(ring);
	return got;
}

/* From line `from` (1-based) to the end. */
static int tail_from(struct text_in *in, u64 from)
{
	const char *line;
	size_t len;
	u64 no = 0;
	int got;

	while ((got = text_in_line(in, &line, &len)) > 0) {
		if (++no < from)
			continue;
		sh_write(line, len);
		sh_write("\n", 1);
	}
	return got;
}

static int tail_follow(struct text_in *in)
{
	char *buf = kmalloc(TAIL_BUF, GFP_KERNEL);
	ssize_t n;

	if (!buf)
		return -ENOMEM;
	while (!signal_pending(current)) {
		n = text_in_read(in, buf, TAIL_BUF);
		if (n < 0)
			break;
		if (n > 0)
			sh_write(buf, (size_t)n);
		else
			msleep_interruptible(TAIL_POLL_MS);
	}
	kfree(buf);
	return 0;
}

static int cmd_tail(int argc, char **argv)
{
	const char *name = NULL, *num = NULL;
	bool follow = false, from_start;
	struct text_in in;
	u64 n = 10;
	int err;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-f"))
			follow = true;
		else if (!strcmp(argv[i], "-n") && i + 1 < argc)
			num = argv[++i];
		else if (str_has_prefix(argv[i], "-n") && argv[i][2])
			num = argv[i] + 2;
		else if (argv[i][0] == '-' && argv[i][1] >= '0' && argv[i][1] <= '9')
			num = argv[i] + 1;
		else if (argv[i][0] == '-' && argv[i][1])
			return sh_usage("tail");
		else if (name)
			return sh_error("tail", "only one FILE is supported");
		else
			name = argv[i];
	}
	from_start = num && num[0] == '+';
	if (num && (kstrtoull(num + from_start, 10, &n) || n > TAIL_MAX_LINES))
		return sh_error("tail", "invalid number of lines: '%s'", num);
	if (follow && !name)
		return sh_error("tail", "-f needs a FILE");
	if (text_in_open(&in, "tail", name))
		return 1;
	err = from_start ? tail_from(&in, n) : tail_last(&in, n);
	if (!err && follow)
		err = tail_follow(&in);
	text_in_close(&in);
	if (err)
		return sh_operand_error("tail", NULL, name ? name : "-", err);
	return signal_pending(current) ? SH_STATUS_KILLED : 0;
}
DEFINE_SHELL_CMD(tail, "tail", "tail [-n N|-n +N|-N] [-f] [FILE]",
		 "print the last lines of a file (-f: and what is appended)", cmd_tail, 0);
