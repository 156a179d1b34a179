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

/* The destination path for src: dst itself, or dst/basename(src) if dst is a directory. */
static char *target_of(const char *src, const char *dst, bool dst_dir)
{
	char base[NAME_MAX + 1];

	if (!dst_dir)
		return kstrdup(dst, GFP_KERNEL);
	return fs_join(dst, fs_basename(src, base, sizeof(base)));
}

static int check_operands(const char *cmd, int nsrc, const char *dst, bool *dst_dir)
{
	*dst_dir = fs_is_dir(dst);
	if (nsrc > 1 && !*dst_dir)
		return sh_error(cmd, "target '%s' is not a directory", dst);
	return 0;
}

static bool same_file(const struct kstat *a, const char *b)
{
	struct kstat sb;

	return !vfs_stat(b, &sb) && sb.dev == a->dev && sb.ino == a->ino;
}

static int cp_one(const char *src, const char *dst, bool dst_dir)
{
	struct kstat st;
	char *to;
	int err = vfs_stat(src, &st), status;

	if (err)
		return sh_error("cp", "cannot stat '%s': %s", src, errstr(err));
	if (S_ISDIR(st.mode))
		return sh_error("cp", "-r not specified; omitting directory '%s'", src);
	to = target_of(src, dst, dst_dir);
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
static int copy_or_move(const char *name, int argc, char **argv,
			int (*one)(const char *src, const char *dst, bool dst_dir))
{
	unsigned int flags;
	int first = fs_parse_flags(argc, argv, "", &flags), status = 0;
	bool dst_dir;

	if (first < 0)
		return 2;
	if (argc - first < 2) {
		if (argc - first == 1)
			sh_err("%s: missing destination file operand after '%s'\n", name,
			       argv[first]);
		else
			sh_err("%s: missing file operand\n", name);
		return sh_usage(name);
	}
	if (check_operands(name, argc - first - 1, argv[argc - 1], &dst_dir))
		return 1;
	for (int i = first; i < argc - 1; i++) {
		int s = one(argv[i], argv[argc - 1], dst_dir);
		if (s == SH_STATUS_KILLED)
			return s;
		if (s)
			status = s;
	}
	return status;
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
		return sh_error("mv", "cannot remove '%s': %s", src, errstr(err));
	return 0;
}

static int mv_one(const char *src, const char *dst, bool dst_dir)
{
	struct kstat st;
	char *to;
	int err = vfs_lstat(src, &st), status = 0;

	if (err)
		return sh_error("mv", "cannot stat '%s': %s", src, errstr(err));
	to = target_of(src, dst, dst_dir);
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
