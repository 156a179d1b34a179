/*
 * cp SRC... DST and mv SRC... DST: into DST, or into the directory DST under the source's
 * name. mv renames within a filesystem and copies then removes across filesystems
 * (regular files only), like coreutils.
 */
#include <cgwb/shell.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include "cmd_fs_util.h"
#include "internal.h"

/* The destination path for src: dst itself, or dst/basename(src) if dst is a directory. */
static char *target_of(const char *src, const char *dst, bool dst_dir)
{
	char base[NAME_MAX + 1];

	if (!dst_dir)
		return kstrdup(dst, GFP_KERNEL);
	return fs_join(dst, fs_basename(src, base, sizeof(base)));
}

/* DST of cp and mv, the same for every source. */
struct target {
	const char *dst;
	bool dst_dir; /* an existing directory: the sources go into it */
};

static int check_operands(const char *cmd, int nsrc, struct target *t)
{
	t->dst_dir = fs_is_dir(t->dst);
	if (nsrc > 1 && !t->dst_dir)
		return sh_error(cmd, "target '%s' is not a directory", t->dst);
	return 0;
}

static bool same_file(const struct kstat *a, const char *b)
{
	struct kstat sb;

	return !vfs_stat(b, &sb) && sb.dev == a->dev && sb.ino == a->ino;
}

static int cp_one(const char *src, void *ctx)
{
	const struct target *t = ctx;
	struct kstat st;
	char *to;
	int err = vfs_stat(src, &st), status;

	if (err)
		return sh_operand_error("cp", "cannot stat", src, err);
	if (S_ISDIR(st.mode))
		return sh_error("cp", "-r not specified; omitting directory '%s'", src);
	to = target_of(src, t->dst, t->dst_dir);
	if (!to)
		return sh_error("cp", "%s", errstr(-ENOMEM));
	if (same_file(&st, to))
		status = sh_error("cp", "'%s' and '%s' are the same file", src, to);
	else
		status = fs_copy_file("cp", src, to);
	kfree(to);
	return status;
}

/* cp and mv: SRC... DST, each source copied or moved to DST (or into it, a directory). */
static int copy_or_move(const char *name, int argc, char **argv, sh_operand_fn *one)
{
	u64 flags;
	int first = sh_flags(argc, argv, "", &flags);
	struct target t = { .dst = argv[argc - 1] };

	if (first < 0)
		return 2;
	if (argc - first == 0)
		return sh_missing_operand(name, "file operand");
	if (argc - first == 1) {
		sh_err("%s: missing destination file operand after '%s'\n", name, argv[first]);
		return sh_usage(name);
	}
	if (check_operands(name, argc - first - 1, &t))
		return 1;
	return sh_for_each_operand(argc - 1, argv, first, one, &t);
}

static int cmd_cp(int argc, char **argv)
{
	return copy_or_move("cp", argc, argv, cp_one);
}
DEFINE_SHELL_CMD(cp, "cp", "cp SRC... DST", "copy files", cmd_cp, 0);

/* Across filesystems: copy, then remove the source. */
static int mv_copy(const char *src, const char *to, const struct kstat *st)
{
	int status, err;

	if (!S_ISREG(st->mode))
		return sh_error("mv", "cannot move '%s' to '%s': %s", src, to, errstr(-EXDEV));
	status = fs_copy_file("mv", src, to);
	if (status)
		return status;
	err = do_unlink(src);
	if (err)
		return sh_operand_error("mv", "cannot remove", src, err);
	return 0;
}

static int mv_one(const char *src, void *ctx)
{
	const struct target *t = ctx;
	struct kstat st;
	char *to;
	int err = vfs_lstat(src, &st), status = 0;

	if (err)
		return sh_operand_error("mv", "cannot stat", src, err);
	to = target_of(src, t->dst, t->dst_dir);
	if (!to)
		return sh_error("mv", "%s", errstr(-ENOMEM));
	err = do_rename(src, to);
	if (err == -EXDEV)
		status = mv_copy(src, to, &st);
	else if (err == -EINVAL)
		status = sh_error("mv", "cannot move '%s' to a subdirectory of itself, '%s'", src,
				  to);
	else if (err)
		status = sh_error("mv", "cannot move '%s' to '%s': %s", src, to, errstr(err));
	kfree(to);
	return status;
}

static int cmd_mv(int argc, char **argv)
{
	return copy_or_move("mv", argc, argv, mv_one);
}
DEFINE_SHELL_CMD(mv, "mv", "mv SRC... DST", "move (rename) files", cmd_mv, 0);
