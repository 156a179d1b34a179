/*
 * Fair picking per CPU, Linux's CFS in miniature. Each task's vruntime grows with the CPU
 * time it uses; a CPU's queue is kept in vruntime order and its head, the task that has had
 * least, runs next. The queue's min_vruntime follows the least-served of its running and
 * queued tasks and never goes back. A task that wakes from a sleep comes back at most
 * SCHED_LATENCY_NS / 2 behind it: a flusher or a writer whose IO has completed runs at
 * once, ahead of tasks that use their whole slices, but sleeping banks no credit with which
 * to starve them afterwards. A task moving to another CPU keeps its lead or lag over its
 * old queue's min_vruntime (set_task_cpu()).
 *
 * Everything here runs under the queue's lock.
 */
#include <cgwb/bug.h>
#include "sched-internal.h"

DEFINE_PER_CPU(struct rq, runqueues);

static bool vruntime_before(u64 a, u64 b)
{
	return (s64)(a - b) < 0;
}

void sched_init_rq(unsigned int cpu)
{
	struct rq *rq = cpu_rq(cpu);

	spin_lock_init(&rq->lock);
	rq->lock.name = "rq->lock";
	rq->cpu = cpu;
	INIT_LIST_HEAD(&rq->queue);
}

/*
 * In vruntime order, after the tasks that have had as much: FIFO among equals. A preempted
 * task has had the most and belongs near the tail, a woken one near the head: the walk
 * starts from the nearer end, so neither costs a walk past hundreds of queued writers.
 */
static void queue_insert(struct rq *rq, struct task_struct *t)
{
	struct task_struct *pos, *head, *tail;

	if (list_empty(&rq->queue)) {
		list_add(&t->run_list, &rq->queue);
		return;
	}
	head = list_first_entry(&rq->queue, struct task_struct, run_list);
	tail = list_last_entry(&rq->queue, struct task_struct, run_list);
	if ((s64)(t->vruntime - head->vruntime) < (s64)(tail->vruntime - t->vruntime)) {
		list_for_each_entry(pos, &rq->queue, run_list) {
			if (vruntime_before(t->vruntime, pos->vruntime)) {
				list_add_tail(&t->run_list, &pos->run_list);
				return;
			}
		}
		list_add_tail(&t->run_list, &rq->queue);
		return;
	}
	list_for_each_entry_reverse(pos, &rq->queue, run_list) {
		if (!vruntime_before(t->vruntime, pos->vruntime)) {
			list_add(&t->run_list, &pos->run_list);
			return;
		}
	}
	list_add(&t->run_list, &rq->queue);
}

void enqueue_task(struct rq *rq, struct task_struct *t)
{
	lockdep_assert_held(&rq->lock);
	if (!list_empty(&t->run_list) || (t->flags & PF_IDLE))
		return;
	queue_insert(rq, t);
	rq->nr_queued++;
}

void dequeue_task(struct rq *rq, struct task_struct *t)
{
	lockdep_assert_held(&rq->lock);
	if (list_empty(&t->run_list))
		return;
	list_del_init(&t->run_list);
	rq->nr_queued--;
}

struct task_struct *pick_next_fair(struct rq *rq)
{
	struct task_struct *t;

	if (list_empty(&rq->queue))
		return NULL;
	t = list_first_entry(&rq->queue, struct task_struct, run_list);
	dequeue_task(rq, t);
	return t;
}

/* The running task's vruntime including the time since it was switched in. */
static u64 curr_vruntime(struct task_struct *curr, u64 now)
{
	return curr->vruntime + (now - curr->last_ran_ns);
}

/* min_vruntime moves up to the least-served of the running task and the queue's head. */
static void update_min_vruntime(struct rq *rq, u64 now)
{
	struct task_struct *curr = rq->curr;
	bool have = false;
	u64 v = 0;

	if (curr && !(curr->flags & PF_IDLE)) {
		v = curr_vruntime(curr, now);
		have = true;
	}
	if (!list_empty(&rq->queue)) {
		u64 head = list_first_entry(&rq->queue, struct task_struct, run_list)->vruntime;

		if (!have || vruntime_before(head, v))
			v = head;
		have = true;
	}
	if (have && vruntime_before(rq->min_vruntime, v))
		rq->min_vruntime = v;
}

void update_curr(struct rq *rq, u64 now)
{
	struct task_struct *curr = rq->curr;

	if (curr && now > curr->last_ran_ns) {
		curr->sum_exec_ns += now - curr->last_ran_ns;
		if (!(curr->flags & PF_IDLE))
			curr->vruntime += now - curr->last_ran_ns;
		curr->last_ran_ns = now;
	}
	update_min_vruntime(rq, now);
}

void place_woken(struct rq *rq, struct task_struct *t)
{
	u64 floor;

	update_min_vruntime(rq, ktime_get_ns());
	floor = rq->min_vruntime - SCHED_LATENCY_NS / 2;
	if (vruntime_before(t->vruntime, floor))
		t->vruntime = floor;
}

/* The idle task always gives way (at the next interrupt exit or IPI). */
bool wakeup_preempt(struct rq *rq, struct task_struct *t)
{
	struct task_struct *curr = rq->curr;

	if (!curr || (curr->flags & PF_IDLE))
		return curr != NULL;
	return (s64)(curr_vruntime(curr, ktime_get_ns()) - t->vruntime) > (s64)SCHED_WAKEUP_GRAN_NS;
}

u64 sched_slice_ns(struct rq *rq)
{
	return max(SCHED_LATENCY_NS / (rq->nr_queued + 1), SCHED_MIN_GRAN_NS);
}

bool sched_slice_expired(struct rq *rq, struct task_struct *curr, u64 now)
{
	if (list_empty(&rq->queue)) {
		curr->slice_start_ns = now; /* nobody waiting: a fresh slice */
		return false;
	}
	return now - curr->slice_start_ns >= sched_slice_ns(rq);
}

void set_need_resched(void)
{
	WRITE_ONCE(this_rq()->need_resched, true);
}

bool need_resched(void)
{
	return READ_ONCE(this_rq()->need_resched);
}

void resched_curr(struct rq *rq)
{
	if (READ_ONCE(rq->need_resched))
		return;
	WRITE_ONCE(rq->need_resched, true);
	if (rq->cpu != raw_smp_processor_id())
		arch_send_reschedule(rq->cpu);
}
