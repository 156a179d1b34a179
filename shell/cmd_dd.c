/*
 * dd: copy blocks between files and devices with coreutils' operands and report.
 * The buffer is page-aligned, so with iflag/oflag=direct on a disk each record goes down
 * as bios straight from it. It need not be physically contiguous (kvmalloc): a 1 MiB record
 * must work on a small machine whose free memory is in pieces, and bs=16M wherever 16 MiB
 * of pages are free (vmalloc areas go up to 64 MiB; beyond, or without the memory, dd
 * says so as coreutils does).
 */
#include <cgwb/shell.h>
#include <cgwb/fs.h>
#include <cgwb/sched.h>
#include <cgwb/mm.h>
#include <cgwb/vmalloc.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include <cgwb/jiffies.h>

/* Linux's MAX_RW_COUNT: the most one read or write moves; memory is the real bound */
#define DD_MAX_BS (0x7fffffffUL & ~(PAGE_SIZE - 1))

struct dd_opts {
	const char *in, *out; /* NULL: stdin / stdout */
	u64 bs, count, skip, seek;
	bool have_count;
	unsigned int iflags, oflags; /* O_DIRECT, O_DSYNC, O_SYNC */
	bool fullblock, fsync, fdatasync, notrunc;
	int status_level; /* 0 none, 1 noxfer, 2 default */
};

struct dd_stats {
	u64 full_in, part_in, full_out, part_out, bytes;
};

/* coreutils BLOCKS syntax: N[c|w|b|kB|K|KiB|MB|M|MiB|GB|G|GiB|TB|T|TiB], also NxM. */
static int dd_number(const char *s, u64 *res)
{
	static const struct {
		const char *sfx;
		u64 mul;
	} units[] = {
		{ "c", 1 },           { "w", 2 },
		{ "b", 512 },         { "kB", 1000 },
		{ "K", 1024 },        { "KiB", 1024 },
		{ "k", 1024 },        { "MB", 1000000 },
		{ "M", 1 << 20 },     { "MiB", 1 << 20 },
		{ "GB", 1000000000 }, { "G", 1 << 30 },
		{ "GiB", 1 << 30 },   { "TB", 1000000000000ULL },
		{ "T", 1ULL << 40 },  { "TiB", 1ULL << 40 },
	};
	u64 v = 0, mul = 1;
	const char *p = s;

	if (*p < '0' || *p > '9')
		return -EINVAL;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (v > (~0ULL - 9) / 10)
			return -ERANGE;
		v = v * 10 + (u64)(*p - '0');
	}
	const char *x = strchr(p, 'x');
	size_t sfx_len = x ? (size_t)(x - p) : strlen(p);
	if (sfx_len) {
		size_t i;
		for (i = 0; i < ARRAY_SIZE(units); i++)
			if (strlen(units[i].sfx) == sfx_len && !strncmp(units[i].sfx, p, sfx_len))
				break;
		if (i == ARRAY_SIZE(units))
			return -EINVAL;
		mul = units[i].mul;
	}
	if (mul && v > ~0ULL / mul)
		return -ERANGE;
	v *= mul;
	if (x) {
		u64 rest;
		int err = dd_number(x + 1, &rest);
		if (err)
			return err;
		if (rest && v > ~0ULL / rest)
			return -ERANGE;
		v *= rest;
	}
	*res = v;
	return 0;
}

/* A comma-separated iflag= or oflag= list. */
static int dd_flags(const char *list, bool input, struct dd_opts *o)
{
	unsigned int *f = input ? &o->iflags : &o->oflags;

	while (*list) {
		size_t n = strcspn(list, ",");
		if (n == 6 && !strncmp(list, "direct", 6))
			*f |= O_DIRECT;
		else if (n == 5 && !strncmp(list, "dsync", 5))
			*f |= O_DSYNC;
		else if (n == 4 && !strncmp(list, "sync", 4))
			*f |= O_SYNC;
		else if (input && n == 9 && !strncmp(list, "fullblock", 9))
			o->fullblock = true;
		else
			return sh_error("dd", "invalid %s flag: '%.*s'", input ? "input" : "output",
					(int)n, list);
		list += n;
		if (*list == ',')
			list++;
	}
	return 0;
}

static int dd_conv(const char *list, struct dd_opts *o)
{
	while (*list) {
		size_t n = strcspn(list, ",");
		if (n == 5 && !strncmp(list, "fsync", 5))
			o->fsync = true;
		else if (n == 9 && !strncmp(list, "fdatasync", 9))
			o->fdatasync = true;
		else if (n == 7 && !strncmp(list, "notrunc", 7))
			o->notrunc = true;
		else
			return sh_error("dd", "invalid conversion: '%.*s'", (int)n, list);
		list += n;
		if (*list == ',')
			list++;
	}
	return 0;
}

static int dd_number_arg(const char *v, u64 *res)
{
	int err = dd_number(v, res);

	if (err)
		return sh_error("dd", "invalid number: '%s'", v);
	return 0;
}

static int dd_operand(const char *arg, struct dd_opts *o)
{
	const char *eq = strchr(arg, '=');
	if (!eq)
		return sh_error("dd", "unrecognized operand '%s'", arg);
	size_t k = (size_t)(eq - arg);
	const char *v = eq + 1;
#define KEY(s) (k == sizeof(s) - 1 && !strncmp(arg, s, k))
	if (KEY("if"))
		o->in = v;
	else if (KEY("of"))
		o->out = v;
	else if (KEY("bs") || KEY("ibs") || KEY("obs"))
		return dd_number_arg(v, &o->bs);
	else if (KEY("count")) {
		o->have_count = true;
		return dd_number_arg(v, &o->count);
	} else if (KEY("skip") || KEY("iseek"))
		return dd_number_arg(v, &o->skip);
	else if (KEY("seek") || KEY("oseek"))
		return dd_number_arg(v, &o->seek);
	else if (KEY("iflag") || KEY("oflag"))
		return dd_flags(v, KEY("iflag"), o);
	else if (KEY("conv"))
		return dd_conv(v, o);
	else if (KEY("status")) {
		if (!strcmp(v, "none"))
			o->status_level = 0;
		else if (!strcmp(v, "noxfer"))
			o->status_level = 1;
		else if (strcmp(v, "progress"))
			return sh_error("dd", "invalid status level: '%s'", v);
	} else
		return sh_error("dd", "unrecognized operand '%s'", arg);
#undef KEY
	return 0;
}

/*
 * Scale to a unit the way coreutils 9 does for dd: sizes show one decimal below 10 units
 * ("4.2 MB", "268 MB"), rates below 100 and in kB at least ("5.9 MB/s", "0.0 kB/s").
 */
static void dd_human(char *buf, size_t size, u64 v, bool iec, bool rate)
{
	static const char *const si[] = { "", "k", "M", "G", "T", "P", "E" };
	static const char *const bin[] = { "", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei" };
	const char *const *names = iec ? bin : si;
	u64 base = iec ? 1024 : 1000, div = rate ? base : 1, below = rate ? 100 : 10;
	unsigned int e = rate ? 1 : 0;

	while (e < 6 && v / div >= base) {
		div *= base;
		e++;
	}
	u64 tenths = v / div * 10 + (v % div * 10 + div / 2) / div;
	u64 whole = v / div + (v % div >= div - v % div ? 1 : 0);
	const char *unit = rate ? "B/s" : "B";
	if (e && tenths < below * 10)
		scnprintf(buf, size, "%llu.%llu %s%s", tenths / 10, tenths % 10, names[e], unit);
	else if (e < 6 && whole >= base)
		scnprintf(buf, size, "1.0 %s%s", names[e + 1], unit);
	else
		scnprintf(buf, size, "%llu %s%s", whole, names[e], unit);
}

/* Drop trailing zeros of a fraction of *decimals digits. */
static u64 trim_zeros(u64 frac, unsigned int *decimals)
{
	while (*decimals && frac % 10 == 0) {
		frac /= 10;
		(*decimals)--;
	}
	return frac;
}

/* Seconds like printf's %g: six significant digits, exponent form below 0.0001 s. */
static void dd_seconds(char *buf, size_t size, u64 ns)
{
	unsigned int digits = 1;

	for (u64 w = ns; w >= 10; w /= 10)
		digits++;
	if (ns && ns < 100000) {
		u64 m = ns; /* six digits of mantissa */
		for (unsigned int d = digits; d < 6; d++)
			m *= 10;
		unsigned int decimals = 5;
		u64 frac = trim_zeros(m % 100000, &decimals);
		int n = scnprintf(buf, size, "%llu", m / 100000);
		if (decimals)
			n += scnprintf(buf + n, size - (size_t)n, ".%0*llu", (int)decimals, frac);
		scnprintf(buf + n, size - (size_t)n, "e-%02u", 10 - digits);
		return;
	}
	/* keep six significant digits: 9 fractional digits minus what the whole part uses */
	unsigned int decimals = digits >= 15 ? 0 : min(15 - digits, 9u);
	u64 unit = 1;
	for (unsigned int i = decimals; i < 9; i++)
		unit *= 10;
	u64 r = (ns + unit / 2) / unit, scale = NSEC_PER_SEC / unit;
	u64 frac = trim_zeros(r % scale, &decimals);
	int n = scnprintf(buf, size, "%llu", r / scale);
	if (decimals && frac)
		scnprintf(buf + n, size - (size_t)n, ".%0*llu", (int)decimals, frac);
}

static void dd_report(const struct dd_opts *o, const struct dd_stats *st, u64 ns)
{
	char si[24], iec[24], secs[32], rate[32];

	if (!o->status_level)
		return;
	sh_err("%llu+%llu records in\n%llu+%llu records out\n", st->full_in, st->part_in,
	       st->full_out, st->part_out);
	if (o->status_level < 2)
		return;
	dd_seconds(secs, sizeof(secs), ns);
	if (ns) {
		u64 bps = st->bytes <= ~0ULL / NSEC_PER_SEC ?
				  st->bytes * NSEC_PER_SEC / ns :
				  st->bytes / max(ns / NSEC_PER_MSEC, 1ULL) * MSEC_PER_SEC;
		dd_human(rate, sizeof(rate), bps, false, true);
	} else
		strlcpy(rate, "Infinity B/s", sizeof(rate));
	dd_human(si, sizeof(si), st->bytes, false, false);
	dd_human(iec, sizeof(iec), st->bytes, true, false);
	if (st->bytes < 1000)
		sh_err("%llu byte%s copied, %s s, %s\n", st->bytes, st->bytes == 1 ? "" : "s", secs,
		       rate);
	else if (st->bytes < 1024)
		sh_err("%llu bytes (%s) copied, %s s, %s\n", st->bytes, si, secs, rate);
	else
		sh_err("%llu bytes (%s, %s) copied, %s s, %s\n", st->bytes, si, iec, secs, rate);
}

static const char *dd_name(const char *path, bool input)
{
	return path ? path : input ? "standard input" : "standard output";
}

static struct file *dd_open(const char *path, unsigned int flags, bool input)
{
	if (!path) {
		struct file *f = current->files[input ? 0 : 1];
		return f ? get_file(f) : ERR_PTR(-EBADF);
	}
	return filp_open(path, flags, 0644);
}

/* Position f at off: seek if it can, else (input only) read and drop. */
static int dd_position(struct file *f, u64 off, char *buf, u64 bs, bool input)
{
	if (!off)
		return 0;
	if (f->f_op->llseek) {
		loff_t r = f->f_op->llseek(f, (loff_t)off, SEEK_SET);
		return r < 0 ? (int)r : 0;
	}
	if (!input)
		return -ESPIPE;
	while (off) {
		ssize_t n = file_read(f, buf, (size_t)min(off, bs));
		if (n <= 0)
			return (int)n;
		off -= (u64)n;
	}
	return 0;
}

/* One input record: a single read, or with fullblock as many as fill it. */
static ssize_t dd_read_record(struct file *in, char *buf, size_t bs, bool fullblock)
{
	size_t got = 0;

	do {
		ssize_t n = file_read(in, buf + got, bs - got);
		if (n < 0)
			return got ? (ssize_t)got : n;
		if (n == 0)
			break;
		got += (size_t)n;
	} while (fullblock && got < bs);
	return (ssize_t)got;
}

static int dd_copy(const struct dd_opts *o, struct file *in, struct file *out, char *buf,
		   struct dd_stats *st)
{
	for (u64 rec = 0; !o->have_count || rec < o->count; rec++) {
		if (signal_pending(current))
			return SH_STATUS_KILLED;
		ssize_t n = dd_read_record(in, buf, (size_t)o->bs, o->fullblock);
		if (n < 0) {
			sh_error("dd", "error reading '%s': %s", dd_name(o->in, true),
				 errstr((int)n));
			return 1;
		}
		if (n == 0)
			break;
		if ((u64)n == o->bs)
			st->full_in++;
		else
			st->part_in++;
		/* as GNU dd: a short record, which could not be on the sectors, goes out
		 * without O_DIRECT from then on */
		if ((u64)n < o->bs && (out->f_flags & O_DIRECT))
			out->f_flags &= ~O_DIRECT;
		ssize_t w = file_write_all(out, buf, (size_t)n);
		if (w < 0) {
			sh_error("dd", "error writing '%s': %s", dd_name(o->out, false),
				 errstr((int)w));
			return 1;
		}
		if ((u64)n == o->bs)
			st->full_out++;
		else
			st->part_out++;
		st->bytes += (u64)n;
	}
	return 0;
}

static int dd_sync(const struct dd_opts *o, struct file *out)
{
	if (!o->fsync && !o->fdatasync)
		return 0;
	int err = out->f_op->fsync ? out->f_op->fsync(out, 0, ~0ULL >> 1, !o->fsync) : -EINVAL;
	if (err)
		return sh_error("dd", "fsync failed for '%s': %s", dd_name(o->out, false),
				errstr(err));
	return 0;
}

static int dd_run(const struct dd_opts *o, struct file *in, struct file *out, char *buf)
{
	struct dd_stats st = { 0 };
	int err = dd_position(in, o->skip * o->bs, buf, o->bs, true);
	if (err)
		return sh_error("dd", "'%s': cannot skip: %s", dd_name(o->in, true), errstr(err));
	err = dd_position(out, o->seek * o->bs, buf, o->bs, false);
	if (err)
		return sh_error("dd", "'%s': cannot seek: %s", dd_name(o->out, false), errstr(err));
	u64 start = ktime_get_ns();
	int status = dd_copy(o, in, out, buf, &st);
	if (!status)
		status = dd_sync(o, out);
	dd_report(o, &st, ktime_get_ns() - start);
	return status;
}

static int dd_parse(int argc, char **argv, struct dd_opts *o)
{
	*o = (struct dd_opts){ .bs = 512, .status_level = 2 };
	for (int i = 1; i < argc; i++) {
		int err = dd_operand(argv[i], o);
		if (err)
			return err;
	}
	if (!o->bs || o->bs > DD_MAX_BS)
		return sh_error("dd", "invalid number: block size must be 1..%lu", DD_MAX_BS);
	return 0;
}

static int cmd_dd(int argc, char **argv)
{
	struct dd_opts o;
	int status = dd_parse(argc, argv, &o);
	if (status)
		return status;

	/* at least a page: kvmalloc's page-sized and larger blocks are page-aligned */
	char *buf = kvmalloc(max_t(size_t, (size_t)o.bs, PAGE_SIZE), GFP_KERNEL);
	if (!buf) {
		char iec[24];

		dd_human(iec, sizeof(iec), o.bs, true, false);
		return sh_error("dd", "memory exhausted by input buffer of size %llu bytes (%s)",
				o.bs, iec);
	}
	struct file *in = dd_open(o.in, O_RDONLY | o.iflags, true);
	struct file *out = IS_ERR(in) ? NULL :
					dd_open(o.out,
						O_WRONLY | O_CREAT | o.oflags |
							(o.notrunc || o.seek ? 0 : O_TRUNC),
						false);
	if (IS_ERR(in))
		status = sh_error("dd", "failed to open '%s': %s", dd_name(o.in, true),
				  errstr((int)PTR_ERR(in)));
	else if (IS_ERR(out))
		status = sh_error("dd", "failed to open '%s': %s", dd_name(o.out, false),
				  errstr((int)PTR_ERR(out)));
	else
		status = dd_run(&o, in, out, buf);
	if (!IS_ERR(in))
		fput(in);
	if (!IS_ERR_OR_NULL(out))
		fput(out);
	kvfree(buf);
	return status;
}

DEFINE_SHELL_CMD(dd, "dd",
		 "dd [if=FILE] [of=FILE] [bs=N] [count=N] [skip=N] [seek=N] "
		 "[iflag=direct,fullblock] [oflag=direct,sync,dsync] "
		 "[conv=fsync,fdatasync,notrunc] "
		 "[status=none|noxfer|progress]",
		 "copy and convert blocks between files and devices", cmd_dd, 0);
