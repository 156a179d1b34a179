/*
 * ls [-l] [-a] [-i] [-1] [PATH...]: coreutils' listing, one name per line (as coreutils does
 * when the output is not a terminal). File operands first, then each directory's sorted
 * entries under a "DIR:" header when there are several operands. -i puts each file's
 * inode number first, right-aligned in 7 columns as busybox does.
 */
#include <cgwb/shell.h>
#include <cgwb/sched.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/jiffies.h>
#include <cgwb/errno.h>
#include "cmd_fs_util.h"
#include "internal.h"

#define LS_LONG SH_OPT('l')
#define LS_ALL SH_OPT('a')
#define LS_INODE SH_OPT('i')
#define SIX_MONTHS (183LL * 24 * 3600)

struct ls_names {
	char **v;
	int n, cap;
	bool nomem;
};

static bool collect(struct dir_context *ctx, const char *name, int len, loff_t off, u64 ino,
		    unsigned int type);

struct ls_ctx {
	struct dir_context ctx;
	struct ls_names *names;
	bool all;
};

static int add_name(struct ls_names *ns, const char *name, int len)
{
	if (ns->n == ns->cap) {
		int cap = ns->cap ? ns->cap * 2 : 32;
		char **v = krealloc(ns->v, (size_t)cap * sizeof(char *), GFP_KERNEL);
		if (!v)
			return -ENOMEM;
		ns->v = v;
		ns->cap = cap;
	}
	ns->v[ns->n] = kstrndup(name, (size_t)len, GFP_KERNEL);
	if (!ns->v[ns->n])
		return -ENOMEM;
	ns->n++;
	return 0;
}

static bool collect(struct dir_context *ctx, const char *name, int len, loff_t off, u64 ino,
		    unsigned int type)
{
	struct ls_ctx *lc = container_of(ctx, struct ls_ctx, ctx);

	(void)off;
	(void)ino;
	(void)type;
	if (name[0] == '.' && !lc->all)
		return true;
	if (add_name(lc->names, name, len)) {
		lc->names->nomem = true;
		return false;
	}
	return true;
}

static void free_names(struct ls_names *ns)
{
	for (int i = 0; i < ns->n; i++)
		kfree(ns->v[i]);
	kfree(ns->v);
	ns->v = NULL;
	ns->n = ns->cap = 0;
}

static void sort_names(struct ls_names *ns)
{
	/* insertion sort: directories here are small, and it is stable */
	for (int i = 1; i < ns->n; i++) {
		char *x = ns->v[i];
		int j = i - 1;
		while (j >= 0 && strcmp(ns->v[j], x) > 0) {
			ns->v[j + 1] = ns->v[j];
			j--;
		}
		ns->v[j + 1] = x;
	}
}

static void print_long(const char *path, const char *name, const struct kstat *st)
{
	char mode[11], when[32], size[32];
	struct fs_tm tm;
	s64 now = (s64)ktime_get_real_seconds();

	fs_mode_string(st->mode, mode);
	fs_gmtime(st->mtime.tv_sec, &tm);
	if (st->mtime.tv_sec > now - SIX_MONTHS && st->mtime.tv_sec <= now + 3600)
		snprintf(when, sizeof(when), "%s %2d %02d:%02d", fs_month_names[tm.mon - 1],
			 tm.mday, tm.hour, tm.min);
	else
		snprintf(when, sizeof(when), "%s %2d  %d", fs_month_names[tm.mon - 1], tm.mday,
			 tm.year);
	if (S_ISCHR(st->mode) || S_ISBLK(st->mode))
		snprintf(size, sizeof(size), "%u, %u", MAJOR(st->rdev), MINOR(st->rdev));
	else
		snprintf(size, sizeof(size), "%lld", (long long)st->size);
	sh_out("%s %u root root %8s %s %s", mode, st->nlink, size, when, name);
	if (S_ISLNK(st->mode)) {
		char *target = kmalloc(PATH_MAX, GFP_KERNEL);
		if (target && do_readlink(path, target, PATH_MAX) >= 0)
			sh_out(" -> %s", target);
		kfree(target);
	}
	sh_out("\n");
}

static void print_entry(const char *path, const char *name, u64 flags)
{
	struct kstat st;
	int err = flags & (LS_LONG | LS_INODE) ? vfs_lstat(path, &st) : 0;

	if (flags & LS_INODE) {
		if (err)
			sh_out("%7s ", "?");
		else
			sh_out("%7lu ", st.ino);
	}
	if (!(flags & LS_LONG))
		sh_out("%s\n", name);
	else if (err)
		sh_out("?????????? ? ? ? ? ? %s\n", name);
	else
		print_long(path, name, &st);
}

static int read_names(const char *dir, bool all, struct ls_names *ns)
{
	struct file *f = filp_open(dir, O_RDONLY | O_DIRECTORY, 0);
	struct ls_ctx lc = { .ctx.actor = collect, .names = ns, .all = all };
	int err;

	if (IS_ERR(f))
		return (int)PTR_ERR(f);
	err = iterate_dir(f, &lc.ctx);
	fput(f);
	if (!err && ns->nomem)
		err = -ENOMEM;
	return err;
}

static u64 total_blocks(const char *dir, struct ls_names *ns)
{
	u64 blocks = 0;

	for (int i = 0; i < ns->n; i++) {
		char *p = fs_join(dir, ns->v[i]);
		struct kstat st;
		if (p && !vfs_lstat(p, &st))
			blocks += st.blocks;
		kfree(p);
	}
	return blocks / 2; /* 1K units */
}

static int list_dir(const char *dir, u64 flags, bool header, bool first)
{
	struct ls_names ns = { 0 };
	int err = read_names(dir, flags & LS_ALL, &ns);

	if (err) {
		free_names(&ns);
		return sh_operand_error("ls", "cannot open directory", dir, err);
	}
	sort_names(&ns);
	if (header)
		sh_out("%s%s:\n", first ? "" : "\n", dir);
	if (flags & LS_LONG)
		sh_out("total %llu\n", total_blocks(dir, &ns));
	for (int i = 0; i < ns.n && !signal_pending(current); i++) {
		char *p = fs_join(dir, ns.v[i]);
		if (p)
			print_entry(p, ns.v[i], flags);
		kfree(p);
	}
	free_names(&ns);
	return 0;
}

/* Is operand a directory to list (a symlink to one counts unless -l)? */
static int classify(const char *path, u64 flags, bool *is_dir)
{
	struct kstat st;
	int err = vfs_lstat(path, &st);

	if (err)
		return err;
	*is_dir = S_ISDIR(st.mode);
	if (S_ISLNK(st.mode) && !(flags & LS_LONG))
		*is_dir = fs_is_dir(path);
	return 0;
}

static int cmd_ls(int argc, char **argv)
{
	u64 flags;
	int first = sh_flags(argc, argv, "lai1", &flags), status = 0, nfiles = 0, ndirs = 0;
	static char dot[] = ".";
	char *dflt[1] = { dot };
	char **ops = argv + first;
	int nops = argc - first;
	bool *is_dir;

	if (first < 0)
		return 2;
	if (!nops) {
		ops = dflt;
		nops = 1;
	}
	is_dir = kcalloc((size_t)nops, sizeof(bool), GFP_KERNEL);
	if (!is_dir)
		return sh_error("ls", "%s", errstr(-ENOMEM));
	for (int i = 0; i < nops; i++) {
		int err = classify(ops[i], flags, &is_dir[i]);
		if (err) {
			sh_err("ls: cannot access '%s': %s\n", ops[i], errstr(err));
			status = 2;
			ops[i] = NULL;
		} else if (is_dir[i]) {
			ndirs++;
		} else {
			print_entry(ops[i], ops[i], flags);
			nfiles++;
		}
	}
	for (int i = 0; i < nops && !signal_pending(current); i++) {
		if (!ops[i] || !is_dir[i])
			continue;
		bool header = nops > 1 || status;
		if (list_dir(ops[i], flags, header, !nfiles) && !status)
			status = 2;
		nfiles = 1; /* later headers get a blank line before them */
	}
	kfree(is_dir);
	return signal_pending(current) ? SH_STATUS_KILLED : status;
}
DEFINE_SHELL_CMD(ls, "ls", "ls [-l] [-a] [-i] [-1] [PATH...]", "list directory contents", cmd_ls, 0);
