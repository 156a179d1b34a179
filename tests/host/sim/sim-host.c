/*
 * The simulator's helpers that need no Criterion (sim.h), so that the host benchmarks of
 * tests/host/bench/ use them too: writing a pseudo file, and the scratch ext2 every run
 * mounts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <cgwb/fs.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include "filedisk.h"
#include "sim.h"

int sim_echo(const char *path, const char *s)
{
	struct file *f = filp_open(path, O_WRONLY, 0);
	ssize_t n;

	if (IS_ERR(f))
		return (int)PTR_ERR(f);
	n = file_write(f, s, strlen(s));
	fput(f);
	return n < 0 ? (int)n : 0;
}

int sim_scratch_fs(char *dir, size_t dir_len, unsigned int mib, const char *mkfs, const char *fstype,
		   const char *opts, const struct filedisk_model *model, struct gendisk **disk)
{
	char img[128], cmd[256];
	struct gendisk *d;

	/* mkdtemp() replaces the six X of the template with a unique name */
	snprintf(dir, dir_len, "/tmp/cgwb-sim.XXXXXX");
	if (!mkdtemp(dir))
		return -EIO;
	snprintf(img, sizeof(img), "%s/disk.img", dir);
	snprintf(cmd, sizeof(cmd),
		 "PATH=$PATH:/usr/sbin:/sbin mke2fs -q -F -t %s %s %uM > /dev/null 2>&1", mkfs, img,
		 mib);
	if (system(cmd))
		return -EIO;
	d = filedisk_add("vda", img, false, model);
	if (!d)
		return -ENOMEM;
	if (disk)
		*disk = d;
	return do_mount("/dev/vda", "/mnt", fstype, 0, (void *)opts);
}

int sim_scratch_ext2(char *dir, size_t dir_len, unsigned int mib,
		     const struct filedisk_model *model, struct gendisk **disk)
{
	return sim_scratch_fs(dir, dir_len, mib, "ext2", "ext2", NULL, model, disk);
}

void sim_scratch_remove(const char *dir)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		fprintf(stderr, "could not remove %s\n", dir);
}
