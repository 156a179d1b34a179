/*
 * blkstat: the disks' IO statistics until /proc/diskstats and /sys/block exist. With no
 * argument, the /proc/diskstats lines of every disk; with DISK, its /sys/block/DISK/stat.
 */
#include <cgwb/blkdev.h>
#include <cgwb/shell.h>
#include <cgwb/string.h>

static void blkstat_one(struct gendisk *disk, void *arg)
{
	char line[256];

	(void)arg;
	diskstats_format(disk, line, sizeof(line));
	sh_out("%s", line);
}

static int cmd_blkstat(int argc, char **argv)
{
	char line[256];

	if (argc > 2)
		return sh_usage(argv[0]);
	if (argc == 1) {
		for_each_disk(blkstat_one, NULL);
		return 0;
	}
	const char *name = argv[1];
	if (str_has_prefix(name, "/dev/"))
		name += 5;
	struct gendisk *disk = get_disk_by_name(name);
	if (!disk)
		return sh_error("blkstat", "%s: no such disk", argv[1]);
	disk_stat_format(disk, line, sizeof(line));
	sh_out("%s", line);
	return 0;
}

DEFINE_SHELL_CMD(blkstat, "blkstat", "blkstat [DISK]",
		 "disk IO statistics (/proc/diskstats, or /sys/block/DISK/stat)", cmd_blkstat, 0);
