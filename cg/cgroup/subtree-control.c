/*
 * cgroup.subtree_control: which controllers a cgroup's children get. A write is a list of
 * "+name" / "-name" tokens (the last one about a controller wins, as on Linux). The whole
 * write is checked before anything changes:
 * - every token names a registered controller, and what is enabled is available to the
 *   cgroup (its cgroup.controllers): -EINVAL;
 * - a controller's dependencies come along when it is enabled and must stay while it is:
 *   io depends on memory, because writeback attributes IO through the memory cgroup of
 *   the pages (enabling "+io" enables memory too; "-memory" with io on is -EINVAL);
 * - a controller a child still hands down to its own children cannot go: -EBUSY.
 * Then each child gets (or loses) its css and files; a failure undoes what was done.
 */
#include "cgroup-internal.h"
#include <cgwb/string.h>
#include <cgwb/errno.h>

static const unsigned int depends_on[CGROUP_SUBSYS_COUNT] = {
	[io_cgrp_id] = 1U << memory_cgrp_id,
};

static int parse_token(const char *tok, size_t len, unsigned int *enable, unsigned int *disable)
{
	struct cgroup_subsys *ss;
	int i;

	if (len < 2 || (tok[0] != '+' && tok[0] != '-'))
		return -EINVAL;
	for_each_subsys(ss, i) {
		unsigned int bit = 1U << i;

		if (strlen(ss->name) != len - 1 || memcmp(ss->name, tok + 1, len - 1))
			continue;
		if (tok[0] == '+') {
			*enable |= bit;
			*disable &= ~bit;
		} else {
			*disable |= bit;
			*enable &= ~bit;
		}
		return 0;
	}
	return -EINVAL;
}

static int parse_control(const char *buf, unsigned int *enable, unsigned int *disable)
{
	static const char space[] = " \t\n";

	*enable = *disable = 0;
	for (buf += strspn(buf, space); *buf; buf += strspn(buf, space)) {
		size_t len = strcspn(buf, space);
		int err = parse_token(buf, len, enable, disable);

		if (err)
			return err;
		buf += len;
	}
	return 0;
}

static unsigned int with_dependencies(unsigned int mask)
{
	unsigned int all = mask;

	for (int i = 0; i < CGROUP_SUBSYS_COUNT; i++)
		if (mask & (1U << i))
			all |= depends_on[i];
	return all;
}

static bool dependencies_met(unsigned int mask)
{
	return with_dependencies(mask) == mask;
}

/* Does a child still pass one of mask's controllers down? cgroup_mutex held. */
static bool children_use(struct cgroup *cg, unsigned int mask)
{
	struct cgroup *child;

	list_for_each_entry(child, &cg->children, sibling)
		if (child->subtree_control & mask)
			return true;
	return false;
}

static void disable_on_children(struct cgroup *cg, unsigned int mask)
{
	struct cgroup *child;

	list_for_each_entry(child, &cg->children, sibling) {
		for (int i = CGROUP_SUBSYS_COUNT - 1; i >= 0; i--)
			if ((mask & (1U << i)) && child->subsys[i])
				css_kill(child, cgroup_subsys[i]);
	}
}

static int enable_on_children(struct cgroup *cg, unsigned int mask)
{
	struct cgroup_subsys *ss;
	struct cgroup *child;
	int err = 0, i;

	list_for_each_entry(child, &cg->children, sibling) {
		for_each_subsys(ss, i) {
			if (!err && (mask & (1U << i)))
				err = css_create(child, ss);
		}
	}
	if (err)
		disable_on_children(cg, mask); /* those are all new: none had them before */
	return err;
}

/* cgroup_mutex held. */
static int apply_control(struct cgroup *cg, unsigned int enable, unsigned int disable)
{
	unsigned int old = cg->subtree_control, new;
	int err;

	if (with_dependencies(enable) & disable)
		return -EINVAL;
	enable = with_dependencies(enable);
	new = (old | enable) & ~disable;
	if (enable & ~cgroup_controllers_mask(cg))
		return -EINVAL;
	if (!dependencies_met(new))
		return -EINVAL;
	if (children_use(cg, old & ~new))
		return -EBUSY;
	err = enable_on_children(cg, new & ~old);
	if (err)
		return err;
	disable_on_children(cg, old & ~new);
	WRITE_ONCE(cg->subtree_control, new);
	return 0;
}

int cgroup_subtree_control_write(struct cgroup *cg, const char *buf)
{
	unsigned int enable, disable;
	int err = parse_control(buf, &enable, &disable);

	if (err)
		return err;
	mutex_lock(&cgroup_mutex);
	err = cg->dying ? -ENODEV : apply_control(cg, enable, disable);
	mutex_unlock(&cgroup_mutex);
	return err;
}
