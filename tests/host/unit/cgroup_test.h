/*
 * Shared by the cgroup and memory-controller tests (test_cgroup_*.c, test_memcg_*.c): the
 * hierarchy mounted at /sys/fs/cgroup and helpers that go through its files, as a user
 * would.
 */
#ifndef CGWB_TEST_CGROUP_H
#define CGWB_TEST_CGROUP_H

#include <stdio.h>
#include <stdlib.h>
#include "vfs_test.h"
#include <cgwb/cgroup.h>
#include <cgwb/memcontrol.h>
#include <cgwb/page_counter.h>
#include <cgwb/sched.h>
#include <cgwb/string.h>

#define CGT_ROOT "/sys/fs/cgroup"

/* The storage stack as the kernel brings it up, then the cgroup filesystem. */
static inline void cgt_setup(void)
{
	vfs_test_setup();
	cr_assert_eq(cgroup_fs_init(), 0);
}

static inline const char *cgt_path(const char *rel)
{
	static char path[320];

	snprintf(path, sizeof(path), CGT_ROOT "/%s", rel);
	return path;
}

/* Write str to a cgroup file: 0 or -errno. */
static inline int cgt_write(const char *rel, const char *str)
{
	long n = vt_write(cgt_path(rel), str, O_TRUNC);

	return n < 0 ? (int)n : 0;
}

static inline int cgt_writef(const char *rel, const char *fmt, long v)
{
	char buf[64];

	snprintf(buf, sizeof(buf), fmt, v);
	return cgt_write(rel, buf);
}

/* A cgroup file's content (a static buffer: copy it to keep it), "" if unreadable. */
static inline const char *cgt_read(const char *rel)
{
	static char buf[4096];

	if (vt_read(cgt_path(rel), buf, sizeof(buf)) < 0)
		buf[0] = '\0';
	return buf;
}

static inline bool cgt_exists(const char *rel)
{
	return vt_open_err(cgt_path(rel), O_RDONLY) == 0;
}

static inline int cgt_mkdir(const char *rel)
{
	return do_mkdir(cgt_path(rel), 0755);
}

static inline int cgt_rmdir(const char *rel)
{
	return do_rmdir(cgt_path(rel));
}

/* A file holding one number (memory.current): its value; "max" reads as -1. */
static inline long long cgt_num(const char *rel)
{
	const char *s = cgt_read(rel);

	return !strcmp(s, "max\n") ? -1 : strtoll(s, NULL, 10);
}

/* The value of "key value" in a flat keyed file (memory.stat), -1 if missing. */
static inline long long cgt_key(const char *rel, const char *key)
{
	const char *s = cgt_read(rel);
	size_t len = strlen(key);

	while (*s) {
		if (!strncmp(s, key, len) && s[len] == ' ')
			return strtoll(s + len + 1, NULL, 10);
		s = strchr(s, '\n');
		if (!s)
			break;
		s++;
	}
	return -1;
}

/* The cgroup at rel, unreferenced (the test keeps it alive), or NULL. */
static inline struct cgroup *cgt_cgroup(const char *rel)
{
	struct cgroup *cg = cgroup_lookup(rel);

	if (cg)
		cgroup_put(cg);
	return cg;
}

/* The memcg that governs the cgroup at rel (its own or an ancestor's). */
static inline struct mem_cgroup *cgt_memcg(const char *rel)
{
	struct cgroup *cg = cgt_cgroup(rel);

	cr_assert_not_null(cg, "no cgroup %s", rel);
	return mem_cgroup_from_css(cgroup_e_css(cg, memory_cgrp_id));
}

/* Move the current task ("main") into the cgroup at rel through its cgroup.procs. */
static inline void cgt_enter(const char *rel)
{
	char procs[128];

	snprintf(procs, sizeof(procs), "%s%scgroup.procs", rel, *rel ? "/" : "");
	cr_assert_eq(cgt_writef(procs, "%ld", current->pid), 0, "cannot enter %s", rel);
}

/* Usage of a memcg in pages. */
static inline unsigned long cgt_usage(struct mem_cgroup *memcg)
{
	return page_counter_read(&memcg->memory);
}

#endif
