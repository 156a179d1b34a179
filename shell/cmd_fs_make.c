/* mkdir [-p], touch, ln [-s], readlink, truncate -s: making and changing names and sizes. */
#include <cgwb/shell.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include "cmd_fs_util.h"

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

static int cmd_mkdir(int argc, char **argv)
{
	unsigned int flags;
	int first = fs_parse_flags(argc, argv, "p", &flags), status = 0;

	if (first < 0)
		return 2;
	if (first == argc) {
		sh_err("mkdir: missing operand\n");
		return sh_usage("mkdir");
	}
	for (int i = first; i < argc; i++) {
		int err = (flags & FS_OPT('p')) ? mkdir_parents(argv[i]) : do_mkdir(argv[i], 0777);
		if (err)
			status = sh_error("mkdir", "cannot create directory '%s': %s", argv[i],
					  errstr(err));
	}
	return status;
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

static int cmd_touch(int argc, char **argv)
{
	unsigned int flags;
	int first = fs_parse_flags(argc, argv, "", &flags), status = 0;

	if (first < 0)
		return 2;
	if (first == argc) {
		sh_err("touch: missing file operand\n");
		return sh_usage("touch");
	}
	for (int i = first; i < argc; i++) {
		int err = touch_one(argv[i]);
		if (err)
			status = sh_error("touch", "cannot touch '%s': %s", argv[i], errstr(err));
	}
	return status;
}
DEFINE_SHELL_CMD(touch, "touch", "touch FILE...", "create files or update their times", cmd_touch, 0);

static int cmd_ln(int argc, char **argv)
{
	unsigned int flags;
	int first = fs_parse_flags(argc, argv, "s", &flags), err;
	bool sym = flags & FS_OPT('s');
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

static int cmd_readlink(int argc, char **argv)
{
	unsigned int flags;
	int first = fs_parse_flags(argc, argv, "", &flags), status = 0;
	char *buf;

	if (first < 0)
		return 2;
	if (first == argc) {
		sh_err("readlink: missing operand\n");
		return sh_usage("readlink");
	}
	buf = kmalloc(PATH_MAX, GFP_KERNEL);
	if (!buf)
		return sh_error("readlink", "%s", errstr(-ENOMEM));
	for (int i = first; i < argc; i++) {
		/* like coreutils without -v: failures are silent, only the status tells */
		if (do_readlink(argv[i], buf, PATH_MAX) < 0)
			status = 1;
		else
			sh_out("%s\n", buf);
	}
	kfree(buf);
	return status;
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

static int cmd_truncate(int argc, char **argv)
{
	u64 size;
	int status = 0, i = 1;

	if (argc >= 2 && str_has_prefix(argv[1], "-s") && argv[1][2]) {
		if (parse_size(argv[1] + 2, &size))
			return sh_error("truncate", "invalid number: '%s'", argv[1] + 2);
		i = 2;
	} else if (argc >= 3 && !strcmp(argv[1], "-s")) {
		if (parse_size(argv[2], &size))
			return sh_error("truncate", "invalid number: '%s'", argv[2]);
		i = 3;
	} else {
		sh_err("truncate: you must specify '-s'\n");
		return sh_usage("truncate");
	}
	if (i == argc) {
		sh_err("truncate: missing file operand\n");
		return sh_usage("truncate");
	}
	for (; i < argc; i++)
		if (truncate_one(argv[i], (loff_t)size))
			status = 1;
	return status;
}
DEFINE_SHELL_CMD(truncate, "truncate", "truncate -s SIZE FILE...",
		 "set file sizes (SIZE: bytes, or with K, M, G)", cmd_truncate, 0);
