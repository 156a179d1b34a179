/* rm [-f] [-r] PATH... and rmdir DIR...: removing names, with coreutils' messages. */
#include <cgwb/shell.h>
#include <cgwb/sched.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include "cmd_fs_util.h"

#define RM_FORCE FS_OPT('f')
#define RM_RECURSIVE FS_OPT('r')

static int rm_path(const char *path, unsigned int flags);

struct child_names {
	struct dir_context ctx;
	char **v;
	int n, cap;
	bool nomem;
};

static bool collect_child(struct dir_context *ctx, const char *name, int len, loff_t off, u64 ino,
			  unsigned int type)
{
	struct child_names *c = container_of(ctx, struct child_names, ctx);

	(void)off;
	(void)ino;
	(void)type;
	if ((len == 1 && name[0] == '.') || (len == 2 && name[0] == '.' && name[1] == '.'))
		return true;
	if (c->n == c->cap) {
		int cap = c->cap ? c->cap * 2 : 16;
		char **v = krealloc(c->v, (size_t)cap * sizeof(char *), GFP_KERNEL);
		if (!v)
			goto nomem;
		c->v = v;
		c->cap = cap;
	}
	c->v[c->n] = kstrndup(name, (size_t)len, GFP_KERNEL);
	if (!c->v[c->n])
		goto nomem;
	c->n++;
	return true;
nomem:
	c->nomem = true;
	return false;
}

/* Remove everything inside dir (names read first: removing while reading moves entries). */
static int rm_children(const char *dir, unsigned int flags)
{
	struct child_names c = { .ctx.actor = collect_child };
	struct file *f = filp_open(dir, O_RDONLY | O_DIRECTORY, 0);
	int err, status = 0;

	if (IS_ERR(f))
		return sh_error("rm", "cannot remove '%s': %s", dir, errstr((int)PTR_ERR(f)));
	err = iterate_dir(f, &c.ctx);
	fput(f);
	if (!err && c.nomem)
		err = -ENOMEM;
	if (err)
		status = sh_error("rm", "cannot remove '%s': %s", dir, errstr(err));
	for (int i = 0; i < c.n; i++) {
		char *p = status || signal_pending(current) ? NULL : fs_join(dir, c.v[i]);
		if (p) {
			int s = rm_path(p, flags);
			if (s)
				status = s;
		}
		kfree(p);
		kfree(c.v[i]);
	}
	kfree(c.v);
	return status;
}

static int rm_path(const char *path, unsigned int flags)
{
	struct kstat st;
	int err = vfs_lstat(path, &st);

	if (err) {
		if (err == -ENOENT && (flags & RM_FORCE))
			return 0;
		return sh_error("rm", "cannot remove '%s': %s", path, errstr(err));
	}
	if (S_ISDIR(st.mode)) {
		if (!(flags & RM_RECURSIVE))
			return sh_error("rm", "cannot remove '%s': %s", path, errstr(-EISDIR));
		int status = rm_children(path, flags);
		if (status)
			return status;
		err = do_rmdir(path);
	} else {
		err = do_unlink(path);
	}
	if (err && !(err == -ENOENT && (flags & RM_FORCE)))
		return sh_error("rm", "cannot remove '%s': %s", path, errstr(err));
	return 0;
}

static bool dot_or_dotdot(const char *path)
{
	char base[NAME_MAX + 1];

	fs_basename(path, base, sizeof(base));
	return !strcmp(base, ".") || !strcmp(base, "..");
}

static int cmd_rm(int argc, char **argv)
{
	unsigned int flags;
	int first = fs_parse_flags(argc, argv, "fr", &flags), status = 0;

	if (first < 0)
		return 2;
	if (first == argc) {
		if (flags & RM_FORCE)
			return 0;
		sh_err("rm: missing operand\n");
		return sh_usage("rm");
	}
	for (int i = first; i < argc && !signal_pending(current); i++) {
		int s;

		if ((flags & RM_RECURSIVE) && dot_or_dotdot(argv[i]))
			s = sh_error("rm", "refusing to remove '.' or '..' directory: skipping '%s'",
				     argv[i]);
		else if ((flags & RM_RECURSIVE) && !strcmp(argv[i], "/"))
			s = sh_error("rm", "it is dangerous to operate recursively on '/'");
		else
			s = rm_path(argv[i], flags);
		if (s)
			status = 1;
	}
	return signal_pending(current) ? SH_STATUS_KILLED : status;
}
DEFINE_SHELL_CMD(rm, "rm", "rm [-f] [-r] PATH...", "remove files (-r: and directories)", cmd_rm, 0);

static int cmd_rmdir(int argc, char **argv)
{
	unsigned int flags;
	int first = fs_parse_flags(argc, argv, "", &flags), status = 0;

	if (first < 0)
		return 2;
	if (first == argc) {
		sh_err("rmdir: missing operand\n");
		return sh_usage("rmdir");
	}
	for (int i = first; i < argc; i++) {
		int err = do_rmdir(argv[i]);
		if (err)
			status = sh_error("rmdir", "failed to remove '%s': %s", argv[i], errstr(err));
	}
	return status;
}
DEFINE_SHELL_CMD(rmdir, "rmdir", "rmdir DIR...", "remove empty directories", cmd_rmdir, 0);
