/* mkdir [-p], touch, ln [-s], readlink, truncate -s: making and changing names and sizes. */
#include <cgwb/shell.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include "cmd_fs_util.h"
#include "internal.h"

/* mkdir -p: every missing directory of path, in order; existing directories are fine. */
static int mkdir_parents(const char *path)
{
	char *p;
	int err = 0;

	if (!*path)
		return -ENOENT;
	p = kstrdup(path, GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	for (char *s = p + 1; !err; s++) {
		bool end = !*s;

		if (*s != '/' && !end)
			continue;
		*s = 0;
		err = do_mkdir(p, 0777);
		if (err == -EEXIST && fs_is_dir(p))
			err = 0;
		if (end)
			break;
		*s = '/';
	}
	kfree(p);
	return err;
}

/* One operand of mkdir; ctx: the flags. */
static int mkdir_operand(const char *path, void *ctx)
{
	bool parents = *(const u64 *)ctx & SH_OPT('p');
	int err = parents ? mkdir_parents(path) : do_mkdir(path, 0777);

	return err ? sh_operand_error("mkdir", "cannot create directory", path, err) : 0;
}

static int cmd_mkdir(int argc, char **argv)
{
	return sh_operands_main(argc, argv, "p", "operand", mkdir_operand);
}
DEFINE_SHELL_CMD(mkdir, "mkdir", "mkdir [-p] DIR...", "make directories (-p: with parents)",
		 cmd_mkdir, 0);

static int touch_one(const char *path)
{
	struct file *f;
	int err = do_utimes(path);

	if (err != -ENOENT)
		return err;
	f = filp_open(path, O_WRONLY | O_CREAT, 0666);
	if (IS_ERR(f))
		return (int)PTR_ERR(f);
	fput(f);
	return 0;
}

static int touch_operand(const char *path, void *ctx)
{
	int err = touch_one(path);

	return err ? sh_operand_error("touch", "cannot touch", path, err) : 0;
}

static int cmd_touch(int argc, char **argv)
{
	return sh_operands_main(argc, argv, "", "file operand", touch_operand);
}
DEFINE_SHELL_CMD(touch, "touch", "touch FILE...", "create files or update their times", cmd_touch, 0);

static int cmd_ln(int argc, char **argv)
{
	u64 flags;
	int first = sh_flags(argc, argv, "s", &flags), err;
	bool sym = flags & SH_OPT('s');
	char base[NAME_MAX + 1];
	const char *target, *name;
	char *path;

	if (first < 0)
		return 2;
	if (argc - first != 2) {
		sh_err("ln: %s\n", argc - first < 2 ? "missing file operand" : "extra operand");
		return sh_usage("ln");
	}
	target = argv[first];
	name = argv[first + 1];
	path = fs_is_dir(name) ? fs_join(name, fs_basename(target, base, sizeof(base))) :
				 kstrdup(name, GFP_KERNEL);
	if (!path)
		return sh_error("ln", "%s", errstr(-ENOMEM));
	err = sym ? do_symlink(target, path) : do_link(target, path);
	if (err && sym)
		sh_error("ln", "failed to create symbolic link '%s': %s", path, errstr(err));
	else if (err)
		sh_error("ln", "failed to create hard link '%s' => '%s': %s", path, target,
			 errstr(err));
	kfree(path);
	return err ? 1 : 0;
}
DEFINE_SHELL_CMD(ln, "ln", "ln [-s] TARGET NAME", "make a hard (-s: symbolic) link", cmd_ln, 0);

static int readlink_operand(const char *path, void *ctx)
{
	char *buf = kmalloc(PATH_MAX, GFP_KERNEL);
	int status = 1;

	if (!buf)
		return sh_error("readlink", "%s", errstr(-ENOMEM));
	/* like coreutils without -v: failures are silent, only the status tells */
	if (do_readlink(path, buf, PATH_MAX) >= 0) {
		sh_out("%s\n", buf);
		status = 0;
	}
	kfree(buf);
	return status;
}

static int cmd_readlink(int argc, char **argv)
{
	return sh_operands_main(argc, argv, "", "operand", readlink_operand);
}
DEFINE_SHELL_CMD(readlink, "readlink", "readlink PATH...", "print symbolic link targets",
		 cmd_readlink, 0);

/* One file, created if missing; the message names the step that failed, as coreutils'. */
static int truncate_one(const char *path, loff_t size)
{
	int err = do_truncate(path, size);

	if (err == -ENOENT) {
		struct file *f = filp_open(path, O_WRONLY | O_CREAT, 0666);
		if (IS_ERR(f))
			return sh_error("truncate", "cannot open '%s' for writing: %s", path,
					errstr((int)PTR_ERR(f)));
		fput(f);
		err = do_truncate(path, size);
	}
	if (err)
		return sh_error("truncate", "failed to truncate '%s' at %lld bytes: %s", path,
				(long long)size, errstr(err));
	return 0;
}

/* One operand of truncate; ctx: the size. */
static int truncate_operand(const char *path, void *ctx)
{
	const u64 *size = ctx;

	return truncate_one(path, (loff_t)*size);
}

static int cmd_truncate(int argc, char **argv)
{
	struct sh_getopt g = { 0 };
	const char *size_arg = NULL;
	u64 size;
	int c;

	while ((c = sh_getopt(&g, argc, argv, "s:")) > 0) {
		if (c == '?')
			return 2;
		size_arg = g.arg;
	}
	if (!size_arg) {
		sh_err("truncate: you must specify '-s'\n");
		return sh_usage("truncate");
	}
	if (parse_size(size_arg, &size))
		return sh_error("truncate", "invalid number: '%s'", size_arg);
	if (g.ind == argc)
		return sh_missing_operand("truncate", "file operand");
	return sh_for_each_operand(argc, argv, g.ind, truncate_operand, &size);
}
DEFINE_SHELL_CMD(truncate, "truncate", "truncate -s SIZE FILE...",
		 "set file sizes (SIZE: bytes, or with K, M, G)", cmd_truncate, 0);
