/*
 * /sys (sysfs) and /sys/kernel/debug (debugfs): two pseudo filesystems. /sys/fs/cgroup
 * is left empty as the cgroup filesystem's mountpoint.
 */
#include <cgwb/pseudofs.h>
#include <cgwb/errno.h>
#include <cgwb/bug.h>
#include <cgwb/trace.h>
#include "../vfs.h"
#include "sysfs.h"

#define SYSFS_MAGIC 0x62656572
#define DEBUGFS_MAGIC 0x64626720

static struct pseudo_node *sysfs_root, *debugfs_root;

struct pseudo_node *pseudo_sysfs_root(void)
{
	return sysfs_root;
}

struct pseudo_node *pseudo_debugfs_root(void)
{
	return debugfs_root;
}

void sysfs_init(void)
{
	static const char *const dirs[] = { "block", "class/bdi", "fs/cgroup", "kernel/debug",
					    "kernel/mm" };

	sysfs_root = pseudo_fs_register("sysfs", SYSFS_MAGIC);
	BUG_ON(IS_ERR(sysfs_root));
	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++)
		BUG_ON(IS_ERR(pseudo_mkdir_p(sysfs_root, dirs[i])));
	debugfs_root = pseudo_fs_register("debugfs", DEBUGFS_MAGIC);
	BUG_ON(IS_ERR(debugfs_root));
	BUG_ON(IS_ERR(pseudo_mkdir(debugfs_root, "bdi")));
	tracefs_init();
}
