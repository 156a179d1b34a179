/*
 * date [+FORMAT]: the time, UTC. FORMAT takes %s (seconds since the epoch), %N (their
 * nanoseconds: `date +%s%N` times things, which busybox cannot), %Y %m %d %H %M %S %T %F
 * %a %b %%; without it, date prints coreutils' default layout.
 */
#include <cgwb/shell.h>
#include <cgwb/jiffies.h>
#include <cgwb/string.h>
#include "cmd_fs_util.h"
#include "lang/strbuf.h"

static const char *const day_names[] = { "Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed" };

static void format_one(struct strbuf *sb, char c, u64 ns, const struct fs_tm *tm)
{
	u64 secs = ns / NSEC_PER_SEC;

	switch (c) {
	case 's':
		sb_addf(sb, "%llu", secs);
		break;
	case 'N':
		sb_addf(sb, "%09llu", ns % NSEC_PER_SEC);
		break;
	case 'Y':
		sb_addf(sb, "%04d", tm->year);
		break;
	case 'm':
		sb_addf(sb, "%02d", tm->mon);
		break;
	case 'd':
		sb_addf(sb, "%02d", tm->mday);
		break;
	case 'e':
		sb_addf(sb, "%2d", tm->mday);
		break;
	case 'H':
		sb_addf(sb, "%02d", tm->hour);
		break;
	case 'M':
		sb_addf(sb, "%02d", tm->min);
		break;
	case 'S':
		sb_addf(sb, "%02d", tm->sec);
		break;
	case 'T':
		sb_addf(sb, "%02d:%02d:%02d", tm->hour, tm->min, tm->sec);
		break;
	case 'F':
		sb_addf(sb, "%04d-%02d-%02d", tm->year, tm->mon, tm->mday);
		break;
	case 'a':
		sb_adds(sb, day_names[(secs / 86400) % 7]);
		break; /* 1970-01-01: a Thursday */
	case 'b':
		sb_adds(sb, fs_month_names[tm->mon - 1]);
		break;
	case 'Z':
		sb_adds(sb, "UTC");
		break;
	case '%':
		sb_addc(sb, '%');
		break;
	default:
		sb_addc(sb, '%');
		sb_addc(sb, c);
		break; /* unknown: as it is, like coreutils */
	}
}

static int cmd_date(int argc, char **argv)
{
	const char *fmt = "%a %b %e %T %Z %Y";
	struct strbuf sb = STRBUF_INIT;
	u64 ns = ktime_get_real_ns();
	struct fs_tm tm;

	if (argc > 2 || (argc == 2 && argv[1][0] != '+'))
		return sh_usage("date");
	if (argc == 2)
		fmt = argv[1] + 1;
	fs_gmtime((s64)(ns / NSEC_PER_SEC), &tm);
	for (const char *p = fmt; *p; p++) {
		if (*p == '%' && p[1])
			format_one(&sb, *++p, ns, &tm);
		else
			sb_addc(&sb, *p);
	}
	sb_addc(&sb, '\n');
	sh_write(sb_str(&sb), sb.len);
	sb_release(&sb);
	return 0;
}
DEFINE_SHELL_CMD(date, "date", "date [+FORMAT]",
		 "print the time (UTC); +%s%N: nanoseconds since the epoch", cmd_date, 0);
