/* seq and yes: number sequences and endless lines, in chunks, stopping on a kill or EPIPE. */
#include <cgwb/shell.h>
#include <cgwb/sched.h>
#include <cgwb/string.h>
#include "lang/strbuf.h"
#include "internal.h"

#define CHUNK 1024

/* Write out what is buffered: false if writing failed or the task was killed. */
static bool flush(struct strbuf *sb)
{
	bool ok = !sb->failed && sh_write(sb_str(sb), sb->len) >= 0;

	sb_truncate(sb, 0);
	return ok && !signal_pending(current);
}

static int cmd_seq(int argc, char **argv)
{
	s64 v[3] = { 1, 1, 0 }, cur;
	struct strbuf sb = STRBUF_INIT;
	bool ok = true;

	if (argc < 2)
		return sh_missing_operand("seq", "operand");
	if (argc > 4)
		return sh_usage("seq");
	for (int i = 1; i < argc; i++) {
		/* seq LAST, seq FIRST LAST, seq FIRST INCR LAST */
		int slot = argc == 2 ? 2 : argc == 3 ? (i == 1 ? 0 : 2) : i - 1;

		if (kstrtoll(argv[i], 10, &v[slot]))
			return sh_error("seq", "invalid integer argument: '%s'", argv[i]);
	}
	if (!v[1])
		return sh_error("seq", "invalid Zero increment value: '0'");
	for (cur = v[0]; ok && (v[1] > 0 ? cur <= v[2] : cur >= v[2]); cur += v[1]) {
		sb_addf(&sb, "%lld\n", cur);
		if (sb.len >= CHUNK)
			ok = flush(&sb);
		if ((v[1] > 0 && cur > INT64_MAX - v[1]) || (v[1] < 0 && cur < INT64_MIN - v[1]))
			break;
	}
	if (ok && sb.len)
		ok = flush(&sb);
	sb_release(&sb);
	return ok ? 0 : 1;
}
DEFINE_SHELL_CMD(seq, "seq", "seq [FIRST [INCR]] LAST",
		 "print the integers from FIRST (1) to LAST in steps of INCR (1)", cmd_seq, 0);

static int cmd_yes(int argc, char **argv)
{
	struct strbuf line = STRBUF_INIT, sb = STRBUF_INIT;
	bool ok = true;

	for (int i = 1; i < argc; i++) {
		if (i > 1)
			sb_addc(&line, ' ');
		sb_adds(&line, argv[i]);
	}
	if (argc < 2)
		sb_addc(&line, 'y');
	sb_addc(&line, '\n');
	while (!line.failed && !sb.failed && sb.len < CHUNK)
		sb_addn(&sb, sb_str(&line), line.len);
	while (ok && !line.failed && !sb.failed)
		ok = sh_write(sb_str(&sb), sb.len) >= 0 && !signal_pending(current);
	sb_release(&line);
	sb_release(&sb);
	return 1;
}
DEFINE_SHELL_CMD(yes, "yes", "yes [STRING...]",
		 "print STRING (or y) forever, until killed or the reader goes away", cmd_yes, 0);
