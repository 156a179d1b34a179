/*
 * libFuzzer harness: the writers of every writable pseudo file (cgroup files, /proc/sys/vm,
 * /sys and debugfs knobs).
 *
 * The storage stack, a disk (so io.max and the bdi files have a device) and the cgroup
 * filesystem come up as at boot, with two child cgroups a and a/b that have the memory and
 * io controllers. Every writable file under /proc, /sys and /sys/fs/cgroup is found once by
 * walking the trees. An input is a list of writes, each [file index][length][bytes]:
 * each is written (truncating), then the file is read back. Errors are fine; a crash, a
 * sanitizer report, a read that fails or returns something that is not text, or a value
 * out of its range (the checks below) is a finding. Before each input the files get back
 * the values they had at start, so an input means the same thing on every run.
 */
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include <cgwb/fs.h>
#include <cgwb/cgroup.h>
#include <cgwb/sched.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include <cgwb/bug.h>
#include "host.h"
#include "filedisk.h"
#include "fuzz_dir.h"

#define DISK_BYTES (1u << 20)
#define MAX_FILES 256 /* an input's first byte picks one */
#define MAX_DEPTH 6
#define READ_MAX 8192
#define CG "/sys/fs/cgroup"
#define VM "/proc/sys/vm/"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

struct knob {
	char path[160];
	char *initial; /* the content at start, NULL if write-only */
};

static struct knob knobs[MAX_FILES];
static int nr_knobs;
static char io_max_reset[80]; /* "MAJ:MIN rbps=max ...": io.max reads empty when unlimited */
static char read_buf[READ_MAX];

static long write_str(const char *path, const void *buf, size_t len)
{
	struct file *f = filp_open(path, O_WRONLY | O_TRUNC, 0);
	long n;

	if (IS_ERR(f))
		return PTR_ERR(f);
	n = file_write(f, buf, len);
	fput(f);
	return n;
}

static long read_str(const char *path)
{
	struct file *f = filp_open(path, O_RDONLY, 0);
	long n, total = 0;

	if (IS_ERR(f))
		return PTR_ERR(f);
	while (total < READ_MAX - 1 && (n = file_read(f, read_buf + total, READ_MAX - 1 - total)) > 0)
		total += n;
	read_buf[total] = 0;
	fput(f);
	return n < 0 ? n : total;
}

static void find_knobs(const char *dir, int depth)
{
	struct fuzz_dir *w = fuzz_dir_read(dir);

	BUG_ON(!w);
	for (int i = 0; i < w->n; i++) {
		char path[160];
		struct kstat st;

		snprintf(path, sizeof(path), "%s/%s", dir, w->names[i]);
		if (vfs_lstat(path, &st))
			continue;
		/* the cgroup tree is searched first; the second tracefs tree is the first one again */
		if (S_ISDIR(st.mode) && depth < MAX_DEPTH && strcmp(path, CG) != 0 &&
		    strcmp(path, "/sys/kernel/debug/tracing") != 0)
			find_knobs(path, depth + 1);
		else if (S_ISREG(st.mode) && (st.mode & 0222) && nr_knobs < MAX_FILES) {
			struct knob *k = &knobs[nr_knobs++];

			strlcpy(k->path, path, sizeof(k->path));
			if ((st.mode & 0444) && read_str(path) >= 0)
				k->initial = kstrdup(read_buf, GFP_KERNEL);
		}
	}
	kfree(w);
}

static void set_controllers(const char *cgroup, const char *how)
{
	char path[96];

	snprintf(path, sizeof(path), CG "%s/cgroup.subtree_control", cgroup);
	BUG_ON(write_str(path, how, strlen(how)) < 0);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static u8 *disk;

	(void)argc;
	(void)argv;
	host_platform_init(64 << 20);
	storage_init();
	disk = kzalloc(DISK_BYTES, GFP_KERNEL);
	BUG_ON(!disk || !filedisk_add_mem("vda", disk, DISK_BYTES, false, NULL));
	vfs_init();
	BUG_ON(cgroup_fs_init());
	set_controllers("", "+memory +io");
	BUG_ON(do_mkdir(CG "/a", 0755));
	set_controllers("/a", "+memory +io");
	BUG_ON(do_mkdir(CG "/a/b", 0755));
	find_knobs(CG, 0); /* first: never cut by MAX_FILES */
	find_knobs("/proc", 0);
	find_knobs("/sys", 0);
	/* on stderr, as libFuzzer's own lines: an input's first byte picks one of these */
	for (int i = 0; i < nr_knobs; i++)
		fprintf(stderr, "pseudo-fuzz: file %d: %s\n", i, knobs[i].path);
	BUG_ON(nr_knobs < 10);
	BUG_ON(read_str("/sys/block/vda/dev") <= 0);
	snprintf(io_max_reset, sizeof(io_max_reset), "%.*s rbps=max wbps=max riops=max wiops=max",
		 (int)strcspn(read_buf, "\n"), read_buf);
	return 0;
}

static bool ends_with(const char *s, const char *tail)
{
	size_t a = strlen(s), b = strlen(tail);

	return a >= b && !strcmp(s + a - b, tail);
}

/* Every knob back to its value at start; the controllers and the task placement too. */
static void restore(void)
{
	/* every task back in the root (an input may move kernel threads too) */
	for (int i = 0; i < nr_knobs; i++) {
		char pids[256];

		if (!ends_with(knobs[i].path, "/cgroup.procs") || read_str(knobs[i].path) < 0)
			continue;
		strlcpy(pids, read_buf, sizeof(pids));
		for (char *p = pids, *nl; *p; p = nl + 1) {
			nl = strchr(p, '\n');
			if (!nl)
				break;
			write_str(CG "/cgroup.procs", p, (size_t)(nl - p));
		}
	}
	/* off from the bottom, on from the top: a child can only have what its parent gives */
	set_controllers("/a/b", "-memory -io");
	set_controllers("", "+memory +io");
	set_controllers("/a", "+memory +io");
	for (int i = 0; i < nr_knobs; i++) {
		const char *s = knobs[i].initial;

		if (ends_with(knobs[i].path, "/io.max"))
			s = io_max_reset;
		if (s && !strstr(knobs[i].path, "cgroup."))
			write_str(knobs[i].path, s, strlen(s));
	}
}

/* Pseudo files hold text: printable ASCII, tabs and newlines, nothing else. */
static void check_text(const char *path, long n)
{
	for (long i = 0; i < n; i++) {
		unsigned char c = (unsigned char)read_buf[i];

		if (!(c == '\n' || c == '\t' || (c >= 0x20 && c < 0x7f)))
			panic("%s: byte %#x at %ld of what it reads", path, c, i);
	}
}

static long long read_number(const char *path)
{
	long long v;
	char *nl;

	BUG_ON(read_str(path) < 0);
	nl = strchr(read_buf, '\n');
	if (nl)
		*nl = 0;
	if (!strcmp(read_buf, "max"))
		return -1;
	if (kstrtoll(read_buf, 10, &v))
		panic("%s reads '%s', not a number", path, read_buf);
	return v;
}

/* The values each kind of knob may take, whatever was written to it. */
static void check_value(const char *path)
{
	if (ends_with(path, "/memory.max") || ends_with(path, "/memory.high")) {
		long long v = read_number(path);

		if (v != -1 && (v < 0 || v % PAGE_SIZE))
			panic("%s = %lld: not max or whole pages", path, v);
	} else if (ends_with(path, "_ratio")) {
		long long v = read_number(path);

		if (v < 0 || v > 100)
			panic("%s = %lld: not a percentage", path, v);
	}
	/* a dirty limit is a ratio or bytes, never both */
	if (read_number(VM "dirty_ratio") && read_number(VM "dirty_bytes"))
		panic("dirty_ratio and dirty_bytes both set");
	if (read_number(VM "dirty_background_ratio") && read_number(VM "dirty_background_bytes"))
		panic("dirty_background_ratio and dirty_background_bytes both set");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *p = data, *end = data + size;

	if (size > 4096)
		return -1;
	restore();
	while (end - p >= 2) {
		struct knob *k = &knobs[p[0] % nr_knobs];
		size_t len = min((size_t)p[1], (size_t)(end - p - 2));
		long n;

		write_str(k->path, p + 2, len);
		p += 2 + len;
		if (!k->initial)
			continue;
		n = read_str(k->path);
		if (n == -ENOENT && strstr(k->path, CG "/a/"))
			continue; /* a controller turned off in the parent takes its files away */
		if (n < 0)
			panic("%s: unreadable after a write: %ld", k->path, n);
		check_text(k->path, n);
		check_value(k->path);
	}
	return 0;
}
