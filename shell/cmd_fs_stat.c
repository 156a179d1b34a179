/* stat PATH... and df [-h] [PATH...], in coreutils' layouts. */
#include <cgwb/shell.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include "cmd_fs_util.h"
#include "internal.h"
#include "lang/strbuf.h"

static void print_time(const char *label, const struct timespec64 *t)
{
	struct fs_tm tm;

	fs_gmtime(t->tv_sec, &tm);
	sh_out("%s: %04d-%02d-%02d %02d:%02d:%02d.%09ld +0000\n", label, tm.year, tm.mon, tm.mday,
	       tm.hour, tm.min, tm.sec, t->tv_nsec);
}

static void print_stat(const char *path, const struct kstat *st)
{
	char mode[11];

	if (S_ISLNK(st->mode)) {
		char *target = kmalloc(PATH_MAX, GFP_KERNEL);
		if (target && do_readlink(path, target, PATH_MAX) >= 0)
			sh_out("  File: %s -> %s\n", path, target);
		else
			sh_out("  File: %s\n", path);
		kfree(target);
	} else {
		sh_out("  File: %s\n", path);
	}
	sh_out("  Size: %-10lld\tBlocks: %-10llu IO Block: %-6u %s\n", (long long)st->size,
	       st->blocks, st->blksize, fs_type_name(st->mode, st->size));
	sh_out("Device: %u,%u\tInode: %-11lu Links: %u", MAJOR(st->dev), MINOR(st->dev), st->ino,
	       st->nlink);
	if (S_ISCHR(st->mode) || S_ISBLK(st->mode))
		sh_out("\tDevice type: %u,%u", MAJOR(st->rdev), MINOR(st->rdev));
	fs_mode_string(st->mode, mode);
	sh_out("\nAccess: (%04o/%s)  Uid: (%5u/    root)   Gid: (%5u/    root)\n", st->mode & 07777,
	       mode, st->uid, st->gid);
	print_time("Access", &st->atime);
	print_time("Modify", &st->mtime);
	print_time("Change", &st->ctime);
	sh_out(" Birth: -\n");
}

/* stat -c FORMAT: %s size, %i inode, %b blocks of %B bytes, %o I/O block, %h links,
 * %a access rights in octal, %F the type, %n the name, %% a percent sign. */
static void print_format(const char *fmt, const char *path, const struct kstat *st)
{
	struct strbuf sb = STRBUF_INIT;

	for (const char *p = fmt; *p; p++) {
		if (*p != '%' || !p[1]) {
			sb_addc(&sb, *p);
			continue;
		}
		switch (*++p) {
		case 's':
			sb_addf(&sb, "%lld", (long long)st->size);
			break;
		case 'i':
			sb_addf(&sb, "%lu", (unsigned long)st->ino);
			break;
		case 'b':
			sb_addf(&sb, "%llu", (unsigned long long)st->blocks);
			break;
		case 'B':
			sb_adds(&sb, "512");
			break;
		case 'o':
			sb_addf(&sb, "%u", st->blksize);
			break;
		case 'h':
			sb_addf(&sb, "%u", st->nlink);
			break;
		case 'a':
			sb_addf(&sb, "%o", st->mode & 07777);
			break;
		case 'F':
			sb_adds(&sb, fs_type_name(st->mode, st->size));
			break;
		case 'n':
			sb_adds(&sb, path);
			break;
		case '%':
			sb_addc(&sb, '%');
			break;
		default:
			sb_addc(&sb, '?');
			break; /* coreutils prints ? for an unknown one */
		}
	}
	sb_addc(&sb, '\n');
	sh_write(sb_str(&sb), sb.len);
	sb_release(&sb);
}

/* One operand of stat; ctx: the -c FORMAT, or NULL. */
static int stat_operand(const char *path, void *ctx)
{
	const char *const *format = ctx;
	struct kstat st;
	int err = vfs_lstat(path, &st);

	if (err)
		return sh_operand_error("stat", "cannot statx", path, err);
	if (*format)
		print_format(*format, path, &st);
	else
		print_stat(path, &st);
	return 0;
}

static int cmd_stat(int argc, char **argv)
{
	struct sh_getopt g = { 0 };
	const char *format = NULL;
	int c;

	while ((c = sh_getopt(&g, argc, argv, "c:")) > 0) {
		if (c == '?')
			return 2;
		format = g.arg;
	}
	if (g.ind == argc)
		return sh_missing_operand("stat", "operand");
	return sh_for_each_operand(argc, argv, g.ind, stat_operand, &format);
}
DEFINE_SHELL_CMD(stat, "stat", "stat [-c FORMAT] PATH...", "show file status", cmd_stat, 0);

/* ---------------------------------------------------------------- df */

#define DF_HUMAN SH_OPT('h')

/* 1.5K, 20M, 3.2G: coreutils' -h (powers of 1024, one decimal below 10, rounded up). */
static void human(u64 bytes, char *buf, size_t size)
{
	static const char units[] = "KMGTPE";
	u64 v = bytes, tenths = 0;
	int u = -1;

	if (bytes < 1024) {
		snprintf(buf, size, "%llu", bytes);
		return;
	}
	while (v >= 1024 && u < 5) {
		tenths = (v * 10 + 1023) / 1024;
		v = (v + 1023) / 1024;
		u++;
	}
	if (tenths < 100 && tenths % 10)
		snprintf(buf, size, "%llu.%llu%c", tenths / 10, tenths % 10, units[u]);
	else
		snprintf(buf, size, "%llu%c", (tenths + 9) / 10, units[u]);
}

struct df_ctx {
	u64 flags;
	const struct vfsmount *only; /* df PATH: that mount */
	bool all;
};

static void df_cell(u64 bytes, bool human_units)
{
	char buf[32];

	if (human_units) {
		human(bytes, buf, sizeof(buf));
		sh_out(" %5s", buf);
	} else {
		sh_out(" %9llu", bytes / 1024);
	}
}

static void df_one(struct vfsmount *mnt, void *arg)
{
	struct df_ctx *c = arg;
	struct path root = { .mnt = mnt, .dentry = mnt->mnt_root };
	struct kstatfs st;
	char *dir;
	u64 bs, used;

	if (c->only && c->only != mnt)
		return;
	if (vfs_statfs(&root, &st) || (!st.f_blocks && !c->only))
		return; /* pseudo filesystems: coreutils hides them too */
	dir = kmalloc(PATH_MAX, GFP_KERNEL);
	if (!dir || d_path(&root, dir, PATH_MAX)) {
		kfree(dir);
		return;
	}
	bs = (u64)st.f_bsize;
	used = st.f_blocks - st.f_bfree;
	sh_out("%-14s", mnt->mnt_devname);
	df_cell(st.f_blocks * bs, c->flags & DF_HUMAN);
	df_cell(used * bs, c->flags & DF_HUMAN);
	df_cell(st.f_bavail * bs, c->flags & DF_HUMAN);
	if (used + st.f_bavail)
		sh_out(" %3llu%%", (used * 100 + used + st.f_bavail - 1) / (used + st.f_bavail));
	else
		sh_out("    -");
	sh_out(" %s\n", dir);
	kfree(dir);
}

/* One PATH of df: its filesystem's line. */
static int df_operand(const char *name, void *ctx)
{
	struct df_ctx *c = ctx;
	struct path path;
	int err = kern_path(name, LOOKUP_FOLLOW, &path);

	if (err)
		return sh_operand_error("df", NULL, name, err);
	c->only = path.mnt;
	for_each_mount(df_one, c);
	path_put(&path);
	return 0;
}

static int cmd_df(int argc, char **argv)
{
	struct df_ctx c = { 0 };
	int first = sh_flags(argc, argv, "h", &c.flags);

	if (first < 0)
		return 2;
	if (c.flags & DF_HUMAN)
		sh_out("Filesystem      Size  Used Avail Use%% Mounted on\n");
	else
		sh_out("Filesystem     1K-blocks      Used Available Use%% Mounted on\n");
	if (first == argc) {
		for_each_mount(df_one, &c);
		return 0;
	}
	return sh_for_each_operand(argc, argv, first, df_operand, &c);
}
DEFINE_SHELL_CMD(df, "df", "df [-h] [PATH...]", "report filesystem space usage", cmd_df, 0);
