/*
 * Pressure stall information (Linux's kernel/sched/psi.c): how much of the time tasks
 * wait for the CPU, for memory (reclaim, memory.high/max throttling) and for IO (page,
 * buffer and writeback waits, request slots, io.max and io.cost delays, dirty
 * throttling pauses: what Linux counts through io_schedule()), machine-wide
 * (/proc/pressure/{cpu,memory,io}) and per cgroup (cpu.pressure, memory.pressure,
 * io.pressure), in Linux's format:
 *
 *   some avg10=0.00 avg60=0.00 avg300=0.00 total=0
 *   full avg10=0.00 avg60=0.00 avg300=0.00 total=0
 *
 * "some": at least one task of the group stalled; "full": all of its non-idle tasks
 * stalled at once (for the CPU: runnable, none running). avgN: the share of time over the
 * last N seconds in percent, updated every 2 s; total: the stalled time in us.
 */
#ifndef CGWB_PSI_H
#define CGWB_PSI_H

#include <cgwb/types.h>
#include <cgwb/list.h>

struct task_struct;
struct seq_buf;

enum psi_res { PSI_IO, PSI_MEM, PSI_CPU, NR_PSI_RESOURCES };

/* What a task counts as, in each group it belongs to (task->psi_flags). */
enum psi_task_count {
	NR_IOWAIT,
	NR_MEMSTALL,
	NR_RUNNING,
	NR_ONCPU,
	NR_MEMSTALL_RUNNING, /* in a memory stall but running (reclaiming) */
	NR_PSI_TASK_COUNTS,
};
#define TSK_IOWAIT (1U << NR_IOWAIT)
#define TSK_MEMSTALL (1U << NR_MEMSTALL)
#define TSK_RUNNING (1U << NR_RUNNING)
#define TSK_ONCPU (1U << NR_ONCPU)
#define TSK_MEMSTALL_RUNNING (1U << NR_MEMSTALL_RUNNING)

/* some/full per resource, and whether anything is going on at all */
enum psi_states {
	PSI_IO_SOME,
	PSI_IO_FULL,
	PSI_MEM_SOME,
	PSI_MEM_FULL,
	PSI_CPU_SOME,
	PSI_CPU_FULL,
	PSI_NONIDLE,
	NR_PSI_STATES,
};

struct psi_group {
	struct psi_group *parent; /* NULL: psi_system */
	struct list_head node;    /* on the list of all groups (the averaging timer's) */
	unsigned int tasks[NR_PSI_TASK_COUNTS];
	unsigned int state_mask;
	u64 state_start;
	u64 total[NR_PSI_STATES]; /* ns in each state */
	/* the running averages, fixed point (11 bits), and what they last saw */
	unsigned long avg[NR_PSI_STATES - 1][3];
	u64 avg_total[NR_PSI_STATES]; /* the totals the averages have taken in (and NONIDLE's) */
	u64 avg_last_update, avg_next_update;
};

/* The machine: the root of every group (the root cgroup's pressure files show it). */
extern struct psi_group psi_system;

/**
 * psi_group_init() - set up a cgroup's pressure group, with no stall yet
 * @group: the group
 * @parent: the parent cgroup's group; NULL for psi_system (the root's children)
 *
 * Context: any context; never sleeps.
 */
void psi_group_init(struct psi_group *group, struct psi_group *parent);
/**
 * psi_group_exit() - take a pressure group out of the averages' updates, before it is freed
 * @group: the group, with no task counted in it any more
 *
 * Context: any context; never sleeps.
 */
void psi_group_exit(struct psi_group *group);
/**
 * psi_task_move() - a task now counts in another pressure group
 * @task: the task (a cgroup move, or its exit)
 * @group: its new group (psi_system for the root cgroup)
 *
 * Its running, waiting and stall states leave the old group and its ancestors and enter
 * the new ones.
 *
 * Context: any context; takes the irq-safe psi lock; never sleeps.
 */
void psi_task_move(struct task_struct *task, struct psi_group *group);
/* The scheduler's hooks (kernel/sched-core.c, interrupts off). */
void psi_task_wake(struct task_struct *task);
void psi_task_sleep(struct task_struct *task, bool dead);
void psi_task_switch(struct task_struct *prev, struct task_struct *next);

/**
 * psi_memstall_enter() - the current task starts stalling on memory
 * @flags: where to save whether it was stalling already, for psi_memstall_leave()
 *
 * Reclaim and memory.high/max throttling; calls nest (only the outermost counts).
 *
 * Context: task context; never sleeps.
 */
void psi_memstall_enter(unsigned long *flags);
/**
 * psi_memstall_leave() - the current task's memory stall ends
 * @flags: what the matching psi_memstall_enter() saved
 *
 * Context: task context; never sleeps.
 */
void psi_memstall_leave(unsigned long *flags);

/**
 * psi_show() - print one pressure file (cpu, memory or io.pressure)
 * @s: the buffer
 * @group: the group (psi_system for the machine)
 * @res: the resource
 *
 * The "some" and "full" lines with their 10, 60 and 300 s averages and total stall time
 * in us, the averages brought up to now first. The machine's CPU "full" line is zeros, as
 * Linux's.
 *
 * Context: process context; may sleep (@s grows).
 * Return: 0 (a failure to grow @s is remembered in @s).
 */
int psi_show(struct seq_buf *s, struct psi_group *group, enum psi_res res);

/*
 * A trigger written to a pressure file, "some|full STALL_US WINDOW_US", checked as Linux's
 * psi_trigger_create() checks it (a window of 500 ms to 10 s, a stall of 1 us up to the
 * window): 0 and *spec, or -EINVAL. The files take a valid one and deliver no event: that
 * needs poll(), which no program of ours can call yet (docs/psi.md).
 */
struct psi_trigger_spec {
	enum psi_states state;
	u64 threshold_us, window_us;
};
/**
 * psi_trigger_parse() - check a trigger written to a pressure file
 * @buf: "some|full STALL_US WINDOW_US", trailing spaces or newline allowed
 * @res: the file's resource
 * @spec: set to the trigger
 *
 * As Linux's psi_trigger_create() checks it: a window of 500 ms to 10 s, a stall of 1 us
 * up to the window. The files take a valid one and deliver no event (docs/psi.md).
 *
 * Context: any context.
 * Return: 0, or -EINVAL.
 */
int psi_trigger_parse(const char *buf, enum psi_res res, struct psi_trigger_spec *spec);

#endif
