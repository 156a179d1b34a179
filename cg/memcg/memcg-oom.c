/*
 * The memory controller's OOM killer (Linux's mem_cgroup_out_of_memory() and the memcg half
 * of mm/oom_kill.c), for a charge that nothing can make room for below memory.max.
 *
 * Which task. Linux kills the group's biggest task, the one whose death frees the most.
 * Here the memory a task charges is page cache, which outlives it and stays charged to the
 * group: killing frees nothing by itself, and what stops the group from growing past its
 * limit is stopping whoever is charging. So the victim is the task whose charge failed
 * (what Linux's vm.oom_kill_allocating_task asks for), if it may be killed: not a kernel
 * thread, not exiting, and not a task the killer must pass by (oom_score_adj
 * OOM_SCORE_ADJ_MIN: the console shell, the machine's init). Otherwise nobody is killed.
 *
 * memory.oom.group: if the victim's memcg, or an ancestor up to the one whose limit was
 * hit, has it set, every killable task of the highest such memcg and its descendants dies
 * with the victim (Linux's mem_cgroup_get_oom_group()), and oom_group_kill is counted
 * there. oom_kill counts each task killed, in its memcg and the ancestors.
 *
 * A kill is SIGKILL: sleeps end with -EINTR, a dying task's charges go through so that it
 * ends quickly (memcg-charge.c), and the shell reports status 137. Only tasks of the group
 * whose limit was hit are ever touched. One OOM kill at a time (oom_lock).
 */
#include "memcg.h"
#include <cgwb/sched.h>
#include <cgwb/mutex.h>
#include <cgwb/printk.h>

#define OOM_MESSAGE "Memory cgroup out of memory"

static DEFINE_MUTEX(oom_lock);

static bool oom_killable(const struct task_struct *t)
{
	return !(t->flags & (PF_KTHREAD | PF_IDLE | PF_EXITING)) && t->state != TASK_DEAD &&
	       t->oom_score_adj != OOM_SCORE_ADJ_MIN;
}

static bool oom_killed(const struct task_struct *t)
{
	return READ_ONCE(t->sigkill) && READ_ONCE(t->kill_signal) == SIGKILL;
}

/* Linux's __oom_kill_process(): the kill, its count and its line (t: current, or under
 * for_each_task()'s lock, so it cannot go away meanwhile). */
static void oom_kill_task(struct task_struct *t)
{
	send_sig(SIGKILL, t);
	memcg_memory_event(mem_cgroup_from_task(t), MEMCG_OOM_KILL);
	pr_err(OOM_MESSAGE ": Killed process %d (%s) UID:0 oom_score_adj:%d\n", t->pid, t->comm,
	       t->oom_score_adj);
}

/* The highest memcg from the victim's up to the OOM domain with memory.oom.group set. */
static struct mem_cgroup *mem_cgroup_get_oom_group(struct mem_cgroup *victim,
						   struct mem_cgroup *oom_domain)
{
	struct mem_cgroup *group = NULL;

	for (struct mem_cgroup *memcg = victim; memcg; memcg = parent_mem_cgroup(memcg)) {
		if (READ_ONCE(memcg->oom_group))
			group = memcg;
		if (memcg == oom_domain)
			break;
	}
	return group;
}

/* for_each_task() callback: a killable task of the group not killed yet. */
static void oom_kill_memcg_member(struct task_struct *t, void *arg)
{
	struct mem_cgroup *group = arg;

	if (oom_killable(t) && !oom_killed(t) &&
	    css_is_descendant(&mem_cgroup_from_task(t)->css, &group->css))
		oom_kill_task(t);
}

/* Linux's dump_header() for a memcg, in short: who, which limit, how full. */
static void oom_dump_header(struct mem_cgroup *memcg, struct task_struct *victim, gfp_t gfp)
{
	char oom_path[64], task_path[64];

	cgroup_path(memcg->css.cgroup, oom_path, sizeof(oom_path));
	cgroup_path(mem_cgroup_from_task(victim)->css.cgroup, task_path, sizeof(task_path));
	pr_err("%s invoked oom-killer: gfp_mask=%#x, order=0, oom_score_adj=%d\n", current->comm,
	       gfp, current->oom_score_adj);
	pr_err("memory: usage %lukB, limit %lukB\n",
	       page_counter_read(&memcg->memory) << (PAGE_SHIFT - 10),
	       READ_ONCE(memcg->memory.max) << (PAGE_SHIFT - 10));
	pr_err("oom-kill:constraint=CONSTRAINT_MEMCG,oom_memcg=%s,task_memcg=%s,task=%s,pid=%d,uid="
	       "0\n",
	       oom_path, task_path, victim->comm, victim->pid);
}

bool mem_cgroup_out_of_memory(struct mem_cgroup *memcg, gfp_t gfp)
{
	struct task_struct *victim = current;
	struct mem_cgroup *group;

	if (!oom_killable(victim))
		return false;
	mutex_lock(&oom_lock);
	/* a group kill from another charge may have taken it already */
	if (!oom_killed(victim)) {
		oom_dump_header(memcg, victim, gfp);
		oom_kill_task(victim);
		group = mem_cgroup_get_oom_group(mem_cgroup_from_task(victim), memcg);
		if (group) {
			char path[64];

			cgroup_path(group->css.cgroup, path, sizeof(path));
			pr_info("Tasks in %s are going to be killed due to memory.oom.group set\n",
				path);
			memcg_memory_event(group, MEMCG_OOM_GROUP_KILL);
			for_each_task(oom_kill_memcg_member, group)
				;
		}
	}
	mutex_unlock(&oom_lock);
	return true;
}
