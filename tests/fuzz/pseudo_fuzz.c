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
 * out of its range (the checks below) is a finding. Before each input the files the last
 * one touched get back the values they had at start, so an input means the same thing on
 * every run. Only those: a write may change its neighbours (dirty_bytes clears
 * dirty_ratio, a parent's subtree_control takes its children's files), so a touched file
 * restores its family (its directory; the whole cgroup tree; every events/ file of
 * tracefs), and
 * the rest, untouched, is left alone: restoring all 60 files took most of the time.
 */
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include <cgwb/fs.h>
#include <cgwb/cgroup.h>
#include <cgwb/sched.h>
#include <cgwb/workqueue.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include <cgwb/bug.h>
#include "host.h"
#include "filedisk.h"
#include "fuzz_dir.h"
#include "fuzz_files.h"

#define DISK_BYTES (1u << 20)
#define MAX_FILES 256 /* an input's first byte picks one */
#define MAX_DEPTH 6
#define READ_MAX 8192
#define CG "/sys/fs/cgroup"
#define TRACING "/sys/kernel/tracing"
#define VM "/proc/sys/vm/"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

struct knob {
	char path[160];
	char family[160]; /* what a write to it may change besides itself (a path prefix) */
	char *initial;    /* the content at start, NULL if write-only */
};

static struct knob knobs[MAX_FILES];
static int nr_knobs;
static bool touched[MAX_FILES]; /* the knobs the last input wrote to */
static char io_max_reset[80]; /* "MAJ:MIN rbps=max ...": io.max reads empty when unlimited */
static char read_buf[READ_MAX];

static long read_str(const char *path)
{
	return fuzz_read(path, read_buf, sizeof(read_buf));
}

static void set_family(struct knob *k)
{
	if (str_has_prefix(k->path, CG "/"))
		strlcpy(k->family, CG "/", sizeof(k->family));
	else if (str_has_prefix(k->path, TRACING "/events/"))
		strlcpy(k->family, TRACING "/events/", sizeof(k->family));
	else
		fuzz_dirname(k->path, k->family, sizeof(k->family));
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
			set_family(k);
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
	BUG_ON(fuzz_write(path, how, strlen(how)) < 0);
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

/* Every task back in the root (an input may move kernel threads too), then the controllers. */
static void restore_cgroups(void)
{
	for (int i = 0; i < nr_knobs; i++) {
		char pids[256];

		if (!fuzz_ends_with(knobs[i].path, "/cgroup.procs") || read_str(knobs[i].path) < 0)
			continue;
		strlcpy(pids, read_buf, sizeof(pids));
		for (char *p = pids, *nl; *p; p = nl + 1) {
			nl = strchr(p, '\n');
			if (!nl)
				break;
			fuzz_write(CG "/cgroup.procs", p, (size_t)(nl - p));
		}
	}
	/* off from the bottom, on from the top: a child can only have what its parent gives */
	set_controllers("/a/b", "-memory -io");
	set_controllers("", "+memory +io");
	set_controllers("/a", "+memory +io");
	/* controller states turned off are released by work items, which run only when the
	 * harness lets them: they piled up and slowed every lookup */
	flush_workqueue(system_wq);
}

static bool family_touched(const struct knob *k)
{
	for (int i = 0; i < nr_knobs; i++)
		if (touched[i] && !strcmp(knobs[i].family, k->family))
			return true;
	return false;
}

/* The families the last input wrote to back to their values at start. */
static void restore(void)
{
	bool cgroups = false, again[MAX_FILES];

	for (int i = 0; i < nr_knobs; i++) {
		again[i] = family_touched(&knobs[i]);
		cgroups |= again[i] && str_has_prefix(knobs[i].path, CG "/");
	}
	if (cgroups)
		restore_cgroups();
	for (int i = 0; i < nr_knobs; i++) {
		const char *s = knobs[i].initial;

		if (!again[i])
			continue;
		if (fuzz_ends_with(knobs[i].path, "/io.max"))
			s = io_max_reset;
		if (s && !strstr(knobs[i].path, "cgroup."))
			fuzz_write(knobs[i].path, s, strlen(s));
	}
	memset(touched, 0, sizeof(touched));
}

/* The values each kind of knob may take, whatever was written to it. */
static void check_value(const char *path)
{
	if (fuzz_ends_with(path, "/memory.max") || fuzz_ends_with(path, "/memory.high")) {
		long long v = fuzz_read_number(path);

		if (v != -1 && (v < 0 || v % PAGE_SIZE))
			panic("%s = %lld: not max or whole pages", path, v);
	} else if (fuzz_ends_with(path, "_ratio")) {
		long long v = fuzz_read_number(path);

		if (v < 0 || v > 100)
			panic("%s = %lld: not a percentage", path, v);
	}
	/* a dirty limit is a ratio or bytes, never both (only the files of vm can change them) */
	if (!str_has_prefix(path, VM))
		return;
	for (int bg = 0; bg < 2; bg++) {
		const char *ratio = bg ? VM "dirty_background_ratio" : VM "dirty_ratio";
		const char *bytes = bg ? VM "dirty_background_bytes" : VM "dirty_bytes";

		if (fuzz_read_number(ratio) && fuzz_read_number(bytes))
			panic("%s and %s both set", ratio, bytes);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *p = data, *end = data + size;

	if (size > 4096)
		return -1;
	restore();
	while (end - p >= 2) {
		int i = p[0] % nr_knobs;
		struct knob *k = &knobs[i];
		size_t len = min((size_t)p[1], (size_t)(end - p - 2));
		long n;

		touched[i] = true;
		fuzz_write(k->path, p + 2, len);
		p += 2 + len;
		if (!k->initial)
			continue;
		n = read_str(k->path);
		if (n == -ENOENT && strstr(k->path, CG "/a/"))
			continue; /* a controller turned off in the parent takes its files away */
		if (n < 0)
			panic("%s: unreadable after a write: %ld", k->path, n);
		fuzz_check_text(k->path, read_buf, n);
		check_value(k->path);
	}
	return 0;
}
