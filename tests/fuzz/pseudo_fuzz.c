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
#include "fuzz_files.h"

#define MAX_FILES 256 /* an input's first byte picks one */
#define MAX_DEPTH 6
#define READ_MAX 8192
#define CG "/sys/fs/cgroup"
#define TRACING "/sys/kernel/tracing"
#define VM "/proc/sys/vm/"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

static struct fuzz_knob knobs[MAX_FILES];
static char family[MAX_FILES][160]; /* what a write to a knob may change besides it (a prefix) */
static int nr_knobs;
static bool touched[MAX_FILES]; /* the knobs the last input wrote to */
static char io_max_reset[80];   /* "MAJ:MIN rbps=max ...": io.max reads empty when unlimited */
static char read_buf[READ_MAX];

static long read_str(const char *path)
{
	return fuzz_read(path, read_buf, sizeof(read_buf));
}

static void set_family(int i)
{
	const char *path = knobs[i].path;

	if (str_has_prefix(path, CG "/"))
		strlcpy(family[i], CG "/", sizeof(family[i]));
	else if (str_has_prefix(path, TRACING "/events/"))
		strlcpy(family[i], TRACING "/events/", sizeof(family[i]));
	else
		fuzz_dirname(path, family[i], sizeof(family[i]));
}

/* The cgroup tree is searched first; the second tracefs tree is the first one again. */
static bool skip_dir(const char *path)
{
	return !strcmp(path, CG) || !strcmp(path, "/sys/kernel/debug/tracing");
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_boot_groups_a_b(1);
	/* the cgroup tree first: never cut by MAX_FILES */
	fuzz_find_knobs(CG, MAX_DEPTH, skip_dir, knobs, &nr_knobs, MAX_FILES);
	fuzz_find_knobs("/proc", MAX_DEPTH, skip_dir, knobs, &nr_knobs, MAX_FILES);
	fuzz_find_knobs("/sys", MAX_DEPTH, skip_dir, knobs, &nr_knobs, MAX_FILES);
	for (int i = 0; i < nr_knobs; i++)
		set_family(i);
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
	fuzz_set_controllers("/a/b", "-memory -io");
	fuzz_set_controllers("", "+memory +io");
	fuzz_set_controllers("/a", "+memory +io");
	/* controller states turned off are released by work items, which run only when the
	 * harness lets them: they piled up and slowed every lookup */
	flush_workqueue(system_wq);
}

static bool family_touched(int k)
{
	for (int i = 0; i < nr_knobs; i++)
		if (touched[i] && !strcmp(family[i], family[k]))
			return true;
	return false;
}

/* The families the last input wrote to back to their values at start. */
static void restore(void)
{
	bool cgroups = false, again[MAX_FILES];

	for (int i = 0; i < nr_knobs; i++) {
		again[i] = family_touched(i);
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
		struct fuzz_knob *k = &knobs[i];
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
