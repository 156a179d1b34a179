/* Whole-file writes and reads of pseudo files for the fuzz harnesses (fuzz_files.h). */
#include <stdio.h>
#include <cgwb/fs.h>
#include <cgwb/cgroup.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include <cgwb/bug.h>
#include "host.h"
#include "filedisk.h"
#include "fuzz_dir.h"
#include "fuzz_files.h"

#define CG "/sys/fs/cgroup"
#define DISK_BYTES (1u << 20)

long fuzz_write(const char *path, const void *buf, size_t len)
{
	struct file *f = filp_open(path, O_WRONLY | O_TRUNC, 0);
	long n;

	if (IS_ERR(f))
		return PTR_ERR(f);
	n = file_write(f, buf, len);
	fput(f);
	return n;
}

long fuzz_read(const char *path, char *buf, size_t size)
{
	struct file *f = filp_open(path, O_RDONLY, 0);
	long n = 0, total = 0;

	if (IS_ERR(f))
		return PTR_ERR(f);
	while (total < (long)size - 1 && (n = file_read(f, buf + total, size - 1 - (size_t)total)) > 0)
		total += n;
	buf[total] = 0;
	fput(f);
	return n < 0 ? n : total;
}

void fuzz_check_text(const char *path, const char *buf, long n)
{
	for (long i = 0; i < n; i++) {
		unsigned char c = (unsigned char)buf[i];

		if (!(c == '\n' || c == '\t' || (c >= 0x20 && c < 0x7f)))
			panic("%s: byte %#x at %ld of what it reads", path, c, i);
	}
}

bool fuzz_ends_with(const char *s, const char *tail)
{
	size_t a = strlen(s), b = strlen(tail);

	return a >= b && !strcmp(s + a - b, tail);
}

long long fuzz_read_number(const char *path)
{
	char buf[64], *nl;
	s64 v;

	if (fuzz_read(path, buf, sizeof(buf)) < 0)
		panic("%s: unreadable", path);
	nl = strchr(buf, '\n');
	if (nl)
		*nl = 0;
	if (!strcmp(buf, "max"))
		return -1;
	if (kstrtoll(buf, 10, &v))
		panic("%s reads '%s', not a number", path, buf);
	return v;
}

void fuzz_dirname(const char *path, char *dir, size_t size)
{
	const char *slash = strrchr(path, '/');
	size_t len = slash ? (size_t)(slash - path) : 0;

	strlcpy(dir, path, min(size, len + 1));
}

struct knob_search {
	int max_depth;
	bool (*skip)(const char *dir);
	struct fuzz_knob *knobs;
	int *nr, max;
};

static void add_knob(struct knob_search *ks, const char *path, bool readable)
{
	static char content[8192];
	struct fuzz_knob *k;

	if (*ks->nr == ks->max)
		return;
	k = &ks->knobs[(*ks->nr)++];
	strlcpy(k->path, path, sizeof(k->path));
	k->initial = NULL;
	if (readable && fuzz_read(path, content, sizeof(content)) >= 0)
		k->initial = kstrdup(content, GFP_KERNEL);
}

static void find_knobs(struct knob_search *ks, const char *dir, int depth)
{
	struct fuzz_dir *w = fuzz_dir_read(dir);

	BUG_ON(!w);
	for (int i = 0; i < w->n; i++) {
		char path[160];
		struct kstat st;

		snprintf(path, sizeof(path), "%s/%s", dir, w->names[i]);
		if (vfs_lstat(path, &st))
			continue;
		if (S_ISDIR(st.mode) && depth < ks->max_depth && !(ks->skip && ks->skip(path)))
			find_knobs(ks, path, depth + 1);
		else if (S_ISREG(st.mode) && (st.mode & 0222))
			add_knob(ks, path, st.mode & 0444);
	}
	kfree(w);
}

void fuzz_find_knobs(const char *dir, int max_depth, bool (*skip)(const char *dir),
		     struct fuzz_knob *knobs, int *nr, int max)
{
	struct knob_search ks = { max_depth, skip, knobs, nr, max };

	find_knobs(&ks, dir, 0);
}

void fuzz_boot_cgroups(int nr_disks)
{
	host_platform_init(64 << 20);
	storage_init();
	for (int i = 0; i < nr_disks; i++) {
		char name[8];
		u8 *disk = kzalloc(DISK_BYTES, GFP_KERNEL); /* the disk's memory, for good */

		snprintf(name, sizeof(name), "vd%c", 'a' + i);
		BUG_ON(!disk || !filedisk_add_mem(name, disk, DISK_BYTES, false, NULL));
	}
	vfs_init();
	BUG_ON(cgroup_fs_init());
}

void fuzz_boot_groups_a_b(int nr_disks)
{
	fuzz_boot_cgroups(nr_disks);
	fuzz_set_controllers("", "+memory +io");
	BUG_ON(do_mkdir(CG "/a", 0755));
	fuzz_set_controllers("/a", "+memory +io");
	BUG_ON(do_mkdir(CG "/a/b", 0755));
}

void fuzz_set_controllers(const char *cgroup, const char *how)
{
	char path[96];

	snprintf(path, sizeof(path), CG "%s/cgroup.subtree_control", cgroup);
	BUG_ON(fuzz_write(path, how, strlen(how)) < 0);
}
