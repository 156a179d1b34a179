/*
 * The cgroup hierarchy through /sys/fs/cgroup: the root's files, mkdir and rmdir and their
 * errors, lookup by path, cgroup.stat and cgroup.events, and what a removed cgroup leaves.
 */
#include "cgroup_test.h"
#include <cgwb/completion.h>

TestSuite(cgroup_hier, .init = cgt_setup, .fini = vfs_test_teardown);

Test(cgroup_hier, root_files)
{
	cr_assert(cgt_exists("cgroup.procs"));
	cr_assert(cgt_exists("cgroup.stat"));
	cr_assert(cgt_exists("memory.stat"));
	/* as on Linux: no limits, events or usage on the root */
	cr_assert_not(cgt_exists("memory.max"));
	cr_assert_not(cgt_exists("memory.current"));
	cr_assert_not(cgt_exists("cgroup.events"));
	cr_assert_str_eq(cgt_read("cgroup.controllers"),
			 cgroup_subsys[io_cgrp_id] ? "memory io\n" : "memory\n");
	cr_assert_str_eq(cgt_read("cgroup.subtree_control"), "\n");
	cr_assert_str_eq(cgt_read("cgroup.stat"), "nr_descendants 0\nnr_dying_descendants 0\n");
}

Test(cgroup_hier, mkdir_rmdir)
{
	char path[64];
	struct cgroup *a, *b;

	cr_assert_eq(cgt_mkdir("A"), 0);
	cr_assert_eq(cgt_mkdir("A/B"), 0);
	cr_assert_eq(cgt_mkdir("A"), -EEXIST);
	cr_assert_eq(cgt_mkdir("nope/B"), -ENOENT);
	cr_assert(cgt_exists("A/B/cgroup.procs"));
	cr_assert(cgt_exists("A/cgroup.events"));
	cr_assert_str_eq(cgt_read("cgroup.stat"), "nr_descendants 2\nnr_dying_descendants 0\n");
	cr_assert_str_eq(cgt_read("A/cgroup.controllers"), "\n");

	a = cgt_cgroup("A");
	b = cgt_cgroup("A/B");
	cr_assert_not_null(b);
	cr_assert_eq(b->parent, a);
	cr_assert_eq(b->level, 2);
	cr_assert_neq(a->id, b->id);
	cgroup_path(b, path, sizeof(path));
	cr_assert_str_eq(path, "/A/B");

	/* a parent with a child is busy; removing the child first works */
	cr_assert_eq(cgt_rmdir("A"), -EBUSY);
	cr_assert_eq(cgt_rmdir("A/B"), 0);
	cr_assert_null(cgroup_lookup("A/B"));
	cr_assert_not(cgt_exists("A/B"));
	cr_assert_eq(cgt_rmdir("A"), 0);
	cr_assert_null(cgroup_lookup("A"));
	cr_assert_eq(cgt_rmdir("A"), -ENOENT);
	cr_assert_str_eq(cgt_read("cgroup.stat"), "nr_descendants 0\nnr_dying_descendants 0\n");
	/* the name is free again */
	cr_assert_eq(cgt_mkdir("A"), 0);
	cr_assert_eq(cgt_rmdir(""), -EBUSY);
}

Test(cgroup_hier, names)
{
	char name[CGROUP_NAME_MAX + 8];

	cr_assert_eq(cgt_mkdir("cgroup.mine"), -EINVAL);
	cr_assert_eq(cgt_mkdir("memory.mine"), -EINVAL);
	cr_assert_eq(cgt_mkdir("cgroup.procs"), -EEXIST);
	cr_assert_eq(cgt_mkdir("memory"), 0); /* only "memory." is reserved */
	cr_assert_eq(cgt_mkdir("a.b-c_d"), 0);
	memset(name, 'x', CGROUP_NAME_MAX);
	name[CGROUP_NAME_MAX] = '\0';
	cr_assert_eq(cgt_mkdir(name), -ENAMETOOLONG);
	name[CGROUP_NAME_MAX - 1] = '\0';
	cr_assert_eq(cgt_mkdir(name), 0);
	cr_assert_eq(cgroup_mkdir(&cgroup_root, "bad\nname", NULL), -EINVAL);
}

Test(cgroup_hier, depth_limit)
{
	char rel[128] = "d";
	int level = 1;

	cr_assert_eq(cgt_mkdir(rel), 0);
	for (;;) {
		int err;

		strcat(rel, "/d");
		err = cgt_mkdir(rel);
		if (err) {
			cr_assert_eq(err, -EAGAIN);
			break;
		}
		level++;
	}
	cr_assert_eq(level, CGROUP_MAX_DEPTH - 1);
}

Test(cgroup_hier, lookup)
{
	struct cgroup *b;

	cr_assert_eq(cgt_mkdir("A"), 0);
	cr_assert_eq(cgt_mkdir("A/B"), 0);
	b = cgt_cgroup("A/B");
	cr_assert_eq(cgt_cgroup("/A/B"), b);
	cr_assert_eq(cgt_cgroup("A//B/"), b);
	cr_assert_eq(cgt_cgroup(""), &cgroup_root);
	cr_assert_eq(cgt_cgroup("/"), &cgroup_root);
	cr_assert_null(cgroup_lookup("A/C"));
	cr_assert_null(cgroup_lookup("A/.."));
	cr_assert_null(cgroup_lookup("B"));
	/* a lookup holds a reference: the cgroup outlives its rmdir until it is put */
	b = cgroup_lookup("A/B");
	cr_assert_eq(cgt_rmdir("A/B"), 0);
	cr_assert(b->dying);
	cr_assert_str_eq(cgt_read("A/cgroup.stat"), "nr_descendants 0\nnr_dying_descendants 1\n");
	cgroup_put(b);
	cr_assert_str_eq(cgt_read("A/cgroup.stat"), "nr_descendants 0\nnr_dying_descendants 0\n");
}

static DECLARE_COMPLETION(release);

static int sleeper(void *arg)
{
	wait_for_completion(&release);
	return 0;
}

Test(cgroup_hier, populated_and_busy)
{
	struct task_struct *t = kthread_run(sleeper, NULL, "sleeper");

	cr_assert_eq(cgt_mkdir("A"), 0);
	cr_assert_eq(cgt_mkdir("A/B"), 0);
	cr_assert_str_eq(cgt_read("A/cgroup.events"), "populated 0\nfrozen 0\n");
	cr_assert_eq(cgt_writef("A/B/cgroup.procs", "%ld", t->pid), 0);
	cr_assert_str_eq(cgt_read("A/cgroup.events"), "populated 1\nfrozen 0\n");
	cr_assert_str_eq(cgt_read("A/B/cgroup.events"), "populated 1\nfrozen 0\n");
	cr_assert_eq(cgt_rmdir("A/B"), -EBUSY);
	cr_assert(cgt_exists("A/B/cgroup.procs"));
	/* the task exits: its cgroup empties and can go */
	complete(&release);
	kthread_join(t);
	cr_assert_str_eq(cgt_read("A/cgroup.events"), "populated 0\nfrozen 0\n");
	cr_assert_eq(cgt_cgroup("A/B")->nr_tasks, 0);
	cr_assert_eq(cgt_rmdir("A/B"), 0);
	cr_assert_eq(cgt_rmdir("A"), 0);
}

Test(cgroup_hier, c_interface)
{
	struct cgroup *cg;

	/* the C interface makes the same cgroups, directories included (simulators use it) */
	cr_assert_eq(cgroup_mkdir(&cgroup_root, "sim", &cg), 0);
	cr_assert_eq(cgroup_lookup("sim"), cg);
	cgroup_put(cg);
	cr_assert(cgt_exists("sim/cgroup.procs"));
	cr_assert_eq(cgroup_mkdir(&cgroup_root, "sim", NULL), -EEXIST);
	cr_assert_eq(cgroup_rmdir(cg), 0);
	cr_assert_not(cgt_exists("sim"));
}
