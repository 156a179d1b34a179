/*
 * mount [-t TYPE] [-o OPTIONS] DEV DIR, mount (list), umount DIR, sync [-f] [FILE]. mount and
 * umount failures exit with util-linux's status 32.
 */
#include <cgwb/shell.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include "cmd_fs_util.h"
#include "internal.h"

#define MOUNT_FAILURE 32

static void list_one(struct vfsmount *mnt, void *arg)
{
	struct path root = { .mnt = mnt, .dentry = mnt->mnt_root };
	char *dir = kmalloc(PATH_MAX, GFP_KERNEL);

	(void)arg;
	if (dir && !d_path(&root, dir, PATH_MAX))
		sh_out("%s on %s type %s (%s)\n", mnt->mnt_devname, dir, mnt_fstype(mnt),
		       (mnt->mnt_flags & MNT_READONLY) || (mnt->mnt_sb->s_flags & SB_RDONLY) ? "r"
											       "o" :
											       "r"
											       "w");
	kfree(dir);
}

/* -o options: ro, rw and defaults are the VFS's; the rest go to the filesystem in fs_opts. */
static int parse_options(const char *opts, unsigned long *flags, char *fs_opts, size_t size)
{
	size_t used = 0;

	fs_opts[0] = '\0';
	while (*opts) {
		size_t len = strcspn(opts, ",");

		if (len == 2 && !strncmp(opts, "ro", 2))
			*flags |= SB_RDONLY;
		else if (len == 2 && !strncmp(opts, "rw", 2))
			*flags &= ~(unsigned long)SB_RDONLY;
		else if (len == 8 && !strncmp(opts, "lazytime", 8))
			*flags |= SB_LAZYTIME;
		else if (len == 10 && !strncmp(opts, "nolazytime", 10))
			*flags &= ~(unsigned long)SB_LAZYTIME;
		else if (len && (len != 8 || strncmp(opts, "defaults", len))) {
			if (used + len + 2 > size)
				return -EINVAL;
			if (used)
				fs_opts[used++] = ',';
			memcpy(fs_opts + used, opts, len);
			used += len;
			fs_opts[used] = '\0';
		}
		opts += len;
		if (*opts == ',')
			opts++;
	}
	return 0;
}

static const char *mount_error(int err)
{
	switch (err) {
	case -ENODEV:
		return "unknown filesystem type";
	case -ENOTBLK:
		return "not a block device";
	case -EBUSY:
		return "already mounted or mount point busy";
	default:
		return errstr(err);
	}
}

static int cmd_mount(int argc, char **argv)
{
	const char *type = NULL, *opts = "";
	unsigned long flags = 0;
	char fs_opts[128];
	int i, err;

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "-t") && i + 1 < argc)
			type = argv[++i];
		else if (!strcmp(argv[i], "-o") && i + 1 < argc)
			opts = argv[++i];
		else
			return sh_usage("mount");
	}
	if (i == argc && !type) {
		for_each_mount(list_one, NULL);
		return 0;
	}
	if (argc - i != 2)
		return sh_usage("mount");
	if (parse_options(opts, &flags, fs_opts, sizeof(fs_opts))) {
		sh_error("mount", "%s: bad option '%s'", argv[i + 1], opts);
		return MOUNT_FAILURE;
	}
	if (!type && !(type = blkdev_probe_fstype(argv[i], &err))) {
		if (err == -EINVAL)
			sh_error("mount", "%s: wrong fs type, bad option, bad superblock on %s",
				 argv[i + 1], argv[i]);
		else
			sh_error("mount", "%s: %s", argv[i + 1], mount_error(err));
		return MOUNT_FAILURE;
	}
	err = do_mount(argv[i], argv[i + 1], type, flags, fs_opts[0] ? fs_opts : NULL);
	if (err == -EINVAL && fs_opts[0]) {
		sh_error("mount",
			 "%s: wrong fs type, bad option, bad superblock on %s (options '%s')",
			 argv[i + 1], argv[i], fs_opts);
		return MOUNT_FAILURE;
	}
	if (err) {
		sh_error("mount", "%s: %s", argv[i + 1], mount_error(err));
		return MOUNT_FAILURE;
	}
	return 0;
}
DEFINE_SHELL_CMD(mount, "mount", "mount [-t TYPE] [-o OPTION[,...]] DEV DIR",
		 "mount a filesystem (no arguments: list mounts)", cmd_mount, 0);

static int umount_operand(const char *dir, void *ctx)
{
	int err = do_umount(dir, 0);

	if (err == -EBUSY)
		sh_error("umount", "%s: target is busy.", dir);
	else if (err == -EINVAL)
		sh_error("umount", "%s: not mounted.", dir);
	else if (err)
		sh_operand_error("umount", NULL, dir, err);
	return err ? MOUNT_FAILURE : 0;
}

static int cmd_umount(int argc, char **argv)
{
	if (argc < 2)
		return sh_usage("umount");
	return sh_for_each_operand(argc, argv, 1, umount_operand, NULL);
}
DEFINE_SHELL_CMD(umount, "umount", "umount DIR...", "unmount filesystems", cmd_umount, 0);

/* One FILE of sync: its data (fsync), or with -f its whole filesystem (syncfs). */
static int sync_one(const char *name, bool whole_fs)
{
	struct file *f;
	int err;

	if (whole_fs)
		return vfs_syncfs(name);
	f = filp_open(name, O_RDONLY, 0);
	if (IS_ERR(f))
		return (int)PTR_ERR(f);
	err = vfs_fsync(f, 0);
	fput(f);
	return err;
}

/* One FILE of sync; ctx: the flags. */
static int sync_operand(const char *name, void *ctx)
{
	int err = sync_one(name, *(u64 *)ctx & SH_OPT('f'));

	return err ? sh_operand_error("sync", "error syncing", name, err) : 0;
}

/* sync: everything; sync FILE...: those files; sync -f FILE...: their filesystems (coreutils). */
static int cmd_sync(int argc, char **argv)
{
	u64 flags;
	int first = sh_flags(argc, argv, "f", &flags);

	if (first < 0)
		return 2;
	if (first == argc) {
		if (flags)
			return sh_usage("sync");
		ksys_sync();
		return 0;
	}
	return sh_for_each_operand(argc, argv, first, sync_operand, &flags);
}
DEFINE_SHELL_CMD(sync, "sync", "sync [-f] [FILE]...",
		 "write dirty data to disk: everything, the FILEs, or (-f) their filesystems",
		 cmd_sync, 0);
