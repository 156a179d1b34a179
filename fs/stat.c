/* stat and statfs. */
#include <cgwb/fs.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include "vfs.h"

int vfs_getattr(const struct path *path, struct kstat *stat)
{
	memset(stat, 0, sizeof(*stat));
	generic_fillattr(path->dentry->d_inode, stat);
	return 0;
}

static int stat_path(const char *name, unsigned int flags, struct kstat *stat)
{
	struct path path;
	int err = kern_path(name, flags, &path);

	if (err)
		return err;
	err = vfs_getattr(&path, stat);
	path_put(&path);
	return err;
}

int vfs_stat(const char *name, struct kstat *stat)
{
	return stat_path(name, LOOKUP_FOLLOW, stat);
}

int vfs_lstat(const char *name, struct kstat *stat)
{
	return stat_path(name, 0, stat);
}

int vfs_statfs(const struct path *path, struct kstatfs *buf)
{
	struct super_block *sb = path->dentry->d_sb;
	int err;

	memset(buf, 0, sizeof(*buf));
	if (!sb->s_op || !sb->s_op->statfs)
		return -ENOSYS;
	err = sb->s_op->statfs(sb->s_root, buf);
	if (!err && !buf->f_namelen)
		buf->f_namelen = NAME_MAX;
	return err;
}
