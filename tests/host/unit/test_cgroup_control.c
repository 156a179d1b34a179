/*
 * Controllers on the hierarchy: cgroup.subtree_control and its rules, the files that come
 * and go with a controller, effective css, css ids, and a css's life: online, offline
 * (rmdir, or the controller disabled) and its release with the last reference.
 */
#include "cgroup_test.h"

TestSuite(cgroup_control, .init = cgt_setup, .fini = vfs_test_teardown);

static struct cgroup_subsys_state *own_css(const char *rel)
{
	return cgt_cgroup(rel)->subsys[memory_cgrp_id];
}

Test(cgroup_control, enable_and_disable_memory)
{
	cr_assert_eq(cgt_mkdir("A"), 0);
	cr_assert_not(cgt_exists("A/memory.max"));
	cr_assert_null(own_css("A"));
	cr_assert_eq(cgt_write("cgroup.subtree_control", "+memory\n"), 0);
	cr_assert_str_eq(cgt_read("cgroup.subtree_control"), "memory\n");
	cr_assert_str_eq(cgt_read("A/cgroup.controllers"), "memory\n");
	cr_assert(cgt_exists("A/memory.max"));
	cr_assert(cgt_exists("A/memory.current"));
	cr_assert(cgt_exists("A/memory.stat"));
	cr_assert_not_null(own_css("A"));
	/* a child made now gets it at once */
	cr_assert_eq(cgt_mkdir("B"), 0);
	cr_assert(cgt_exists("B/memory.events"));
	cr_assert_eq(cgt_write("cgroup.subtree_control", "-memory"), 0);
	cr_assert_str_eq(cgt_read("cgroup.subtree_control"), "\n");
	cr_assert_not(cgt_exists("A/memory.max"));
	cr_assert_not(cgt_exists("B/memory.stat"));
	cr_assert(cgt_exists("B/cgroup.procs"));
	cr_assert_null(own_css("A"));
	/* the last token about a controller wins */
	cr_assert_eq(cgt_write("cgroup.subtree_control", "+memory -memory"), 0);
	cr_assert_str_eq(cgt_read("cgroup.subtree_control"), "\n");
	cr_assert_eq(cgt_write("cgroup.subtree_control", " -memory\t+memory\n"), 0);
	cr_assert_str_eq(cgt_read("cgroup.subtree_control"), "memory\n");
	/* an empty write is no change, not an error */
	cr_assert_eq(cgt_write("cgroup.subtree_control", "\n"), 0);
	cr_assert_str_eq(cgt_read("cgroup.subtree_control"), "memory\n");
}

Test(cgroup_control, bad_writes_change_nothing)
{
	static const char *const bad[] = {
		"memory",         "+",      "-",       "+mem",       "+memoryx", "++memory",
		"+memory +bogus", "+bogus", "*memory", "+memory,io",
	};

	cr_assert_eq(cgt_mkdir("A"), 0);
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		cr_assert_eq(cgt_write("cgroup.subtree_control", bad[i]), -EINVAL, "'%s'", bad[i]);
		cr_assert_str_eq(cgt_read("cgroup.subtree_control"), "\n");
		cr_assert_not(cgt_exists("A/memory.max"));
	}
	/* a child may only hand down what it was given */
	cr_assert_eq(cgt_mkdir("A/B"), 0);
	cr_assert_eq(cgt_write("A/cgroup.subtree_control", "+memory"), -EINVAL);
	cr_assert_str_eq(cgt_read("A/cgroup.subtree_control"), "\n");
	cr_assert_eq(cgt_write("cgroup.subtree_control", "+memory"), 0);
	cr_assert_eq(cgt_write("A/cgroup.subtree_control", "+memory"), 0);
	cr_assert(cgt_exists("A/B/memory.max"));
	/* and what a child hands down cannot be taken from it */
	cr_assert_eq(cgt_write("cgroup.subtree_control", "-memory"), -EBUSY);
	cr_assert_str_eq(cgt_read("cgroup.subtree_control"), "memory\n");
	cr_assert(cgt_exists("A/memory.max"));
	cr_assert_eq(cgt_write("A/cgroup.subtree_control", "-memory"), 0);
	cr_assert_not(cgt_exists("A/B/memory.max"));
	cr_assert_eq(cgt_write("cgroup.subtree_control", "-memory"), 0);
}

Test(cgroup_control, io_depends_on_memory)
{
	if (!cgroup_subsys[io_cgrp_id]) {
		/* no io controller in this build: an unknown name */
		cr_assert_eq(cgt_write("cgroup.subtree_control", "+io"), -EINVAL);
		cr_assert_str_eq(cgt_read("cgroup.subtree_control"), "\n");
		return;
	}
	cr_assert_eq(cgt_write("cgroup.subtree_control", "+io -memory"), -EINVAL);
	cr_assert_str_eq(cgt_read("cgroup.subtree_control"), "\n");
	cr_assert_eq(cgt_write("cgroup.subtree_control", "+io"), 0);
	cr_assert_str_eq(cgt_read("cgroup.subtree_control"), "memory io\n");
	cr_assert_eq(cgt_write("cgroup.subtree_control", "-memory"), -EINVAL);
	cr_assert_str_eq(cgt_read("cgroup.subtree_control"), "memory io\n");
	cr_assert_eq(cgt_write("cgroup.subtree_control", "-io"), 0);
	cr_assert_str_eq(cgt_read("cgroup.subtree_control"), "memory\n");
	cr_assert_eq(cgt_write("cgroup.subtree_control", "+io"), 0);
	cr_assert_eq(cgt_write("cgroup.subtree_control", "-io -memory"), 0);
	cr_assert_str_eq(cgt_read("cgroup.subtree_control"), "\n");
}

Test(cgroup_control, effective_css)
{
	struct cgroup *b;

	cr_assert_eq(cgt_mkdir("A"), 0);
	cr_assert_eq(cgt_mkdir("A/B"), 0);
	b = cgt_cgroup("A/B");
	cr_assert_eq(cgt_memcg("A/B"), root_mem_cgroup);
	cr_assert(cgroup_controller_enabled(&cgroup_root, memory_cgrp_id));
	cr_assert_not(cgroup_controller_enabled(b, memory_cgrp_id));
	cr_assert_eq(cgt_write("cgroup.subtree_control", "+memory"), 0);
	/* B's memory is A's until A hands memory down */
	cr_assert_eq(cgt_memcg("A/B"), cgt_memcg("A"));
	cr_assert_neq(cgt_memcg("A"), root_mem_cgroup);
	cr_assert_eq(cgt_write("A/cgroup.subtree_control", "+memory"), 0);
	cr_assert(cgroup_controller_enabled(b, memory_cgrp_id));
	cr_assert_neq(cgt_memcg("A/B"), cgt_memcg("A"));
	cr_assert_eq(parent_mem_cgroup(cgt_memcg("A/B")), cgt_memcg("A"));
	cr_assert_eq(cgt_memcg("A")->memory.parent, &root_mem_cgroup->memory);
	/* a task follows its cgroup's effective memcg */
	cgt_enter("A/B");
	cr_assert_eq(mem_cgroup_from_task(current), cgt_memcg("A/B"));
	cr_assert_eq(task_css(current, memory_cgrp_id), &cgt_memcg("A/B")->css);
	cr_assert_eq(cgt_write("A/cgroup.subtree_control", "-memory"), 0);
	cr_assert_eq(mem_cgroup_from_task(current), cgt_memcg("A"));
	cgt_enter("");
	cr_assert_eq(mem_cgroup_from_task(current), root_mem_cgroup);
}

Test(cgroup_control, css_ids)
{
	struct cgroup_subsys_state *css;
	int id_a, id_b;

	cr_assert_eq(mem_cgroup_id(root_mem_cgroup), 1);
	cr_assert_eq(cgt_write("cgroup.subtree_control", "+memory"), 0);
	cr_assert_eq(cgt_mkdir("A"), 0);
	cr_assert_eq(cgt_mkdir("B"), 0);
	id_a = mem_cgroup_id(cgt_memcg("A"));
	id_b = mem_cgroup_id(cgt_memcg("B"));
	cr_assert_eq(id_a, 2);
	cr_assert_eq(id_b, 3);
	css = css_from_id(id_a, memory_cgrp_id);
	cr_assert_eq(css, &cgt_memcg("A")->css);
	css_put(css);
	cr_assert_null(css_from_id(42, memory_cgrp_id));
	cr_assert_null(css_from_id(0, memory_cgrp_id));
	/* offline: no longer found; the id is free again once the css is released */
	cr_assert_eq(cgt_rmdir("A"), 0);
	cr_assert_null(css_from_id(id_a, memory_cgrp_id));
	host_run_until_idle();
	cr_assert_eq(cgt_mkdir("C"), 0);
	cr_assert_eq(mem_cgroup_id(cgt_memcg("C")), id_a);
}

Test(cgroup_control, css_lifetime)
{
	struct cgroup_subsys_state *css, *parent_css;
	int refs;

	cr_assert_eq(cgt_write("cgroup.subtree_control", "+memory"), 0);
	cr_assert_eq(cgt_mkdir("P"), 0);
	cr_assert_eq(cgt_write("P/cgroup.subtree_control", "+memory"), 0);
	cr_assert_eq(cgt_mkdir("P/C"), 0);
	css = own_css("P/C");
	parent_css = own_css("P");
	cr_assert_eq(css->parent, parent_css);
	cr_assert(css->online);
	cr_assert_eq(css->refcnt, 1);
	refs = parent_css->refcnt;
	cr_assert(css_tryget(css));
	css_get(css);
	cr_assert_eq(css->refcnt, 3);
	/* rmdir: offline at once, kept while referenced, still walked below its parent */
	cr_assert_eq(cgt_rmdir("P/C"), 0);
	cr_assert(css_is_dying(css));
	cr_assert_not(css_tryget(css));
	cr_assert_eq(css->refcnt, 2);
	cr_assert_str_eq(cgt_read("P/cgroup.stat"), "nr_descendants 0\nnr_dying_descendants 1\n");
	cr_assert(css_is_descendant(css, parent_css));
	css_put(css);
	host_run_until_idle();
	cr_assert_str_eq(cgt_read("P/cgroup.stat"), "nr_descendants 0\nnr_dying_descendants 1\n");
	css_put(css);
	host_run_until_idle(); /* the release runs from a work item */
	cr_assert_str_eq(cgt_read("P/cgroup.stat"), "nr_descendants 0\nnr_dying_descendants 0\n");
	cr_assert_eq(parent_css->refcnt, refs - 1);
}

Test(cgroup_control, disabled_controller_goes_offline)
{
	struct cgroup_subsys_state *css;

	cr_assert_eq(cgt_write("cgroup.subtree_control", "+memory"), 0);
	cr_assert_eq(cgt_mkdir("A"), 0);
	css = own_css("A");
	css_get(css);
	cr_assert_eq(cgt_write("cgroup.subtree_control", "-memory"), 0);
	cr_assert(css_is_dying(css));
	cr_assert_eq(css->refcnt, 1);
	cr_assert_eq(cgt_memcg("A"), root_mem_cgroup);
	/* enabled again: a new css with a new id (the old one is still held) */
	cr_assert_eq(cgt_write("cgroup.subtree_control", "+memory"), 0);
	cr_assert_neq(own_css("A"), css);
	cr_assert_neq(own_css("A")->id, css->id);
	css_put(css);
	host_run_until_idle();
}

static void count_css(struct cgroup_subsys_state *css, void *arg)
{
	(*(int *)arg)++;
}

Test(cgroup_control, walks)
{
	struct cgroup_subsys_state *pos = NULL;
	const char *order[] = { "", "A", "A/B", "A/C", "D" };
	int n = 0, i = 0;

	cr_assert_eq(cgt_write("cgroup.subtree_control", "+memory"), 0);
	cr_assert_eq(cgt_mkdir("A"), 0);
	cr_assert_eq(cgt_write("A/cgroup.subtree_control", "+memory"), 0);
	cr_assert_eq(cgt_mkdir("A/B"), 0);
	cr_assert_eq(cgt_mkdir("A/C"), 0);
	cr_assert_eq(cgt_mkdir("D"), 0);
	css_for_each_descendant(&root_mem_cgroup->css, count_css, &n);
	cr_assert_eq(n, 5);
	while ((pos = css_next_descendant_pre(pos, &root_mem_cgroup->css))) {
		cr_assert_lt(i, 5);
		cr_assert_eq(pos, &cgt_memcg(order[i])->css, "step %d", i);
		i++;
	}
	cr_assert_eq(i, 5);
	n = 0;
	css_for_each_descendant(own_css("A"), count_css, &n);
	cr_assert_eq(n, 3);
	/* the iterator's references are all dropped */
	cr_assert_eq(own_css("A/B")->refcnt, 1);
	cr_assert_eq(own_css("D")->refcnt, 1);
}
