/* Wait queues (portable). */
#include <cgwb/wait.h>

void init_waitqueue_head(wait_queue_head_t *wq)
{
	spin_lock_init(&wq->lock);
	wq->lock.name = "waitqueue";
	INIT_LIST_HEAD(&wq->head);
}

void init_wait_entry(struct wait_queue_entry *wait, unsigned int flags)
{
	wait->flags = flags;
	wait->task = current;
	INIT_LIST_HEAD(&wait->entry);
}

void add_wait_queue(wait_queue_head_t *wq, struct wait_queue_entry *wait)
{
	unsigned long flags;

	spin_lock_irqsave(&wq->lock, flags);
	if (list_empty(&wait->entry))
		list_add_tail(&wait->entry, &wq->head);
	spin_unlock_irqrestore(&wq->lock, flags);
}

void remove_wait_queue(wait_queue_head_t *wq, struct wait_queue_entry *wait)
{
	unsigned long flags;

	spin_lock_irqsave(&wq->lock, flags);
	list_del_init(&wait->entry);
	spin_unlock_irqrestore(&wq->lock, flags);
}

static void __prepare_to_wait(wait_queue_head_t *wq, struct wait_queue_entry *wait, long state,
			      bool exclusive)
{
	unsigned long flags;

	spin_lock_irqsave(&wq->lock, flags);
	if (exclusive)
		wait->flags |= WQ_FLAG_EXCLUSIVE;
	if (list_empty(&wait->entry))
		list_add_tail(&wait->entry, &wq->head);
	set_current_state(state);
	spin_unlock_irqrestore(&wq->lock, flags);
}

void prepare_to_wait(wait_queue_head_t *wq, struct wait_queue_entry *wait, long state)
{
	__prepare_to_wait(wq, wait, state, false);
}

void prepare_to_wait_exclusive(wait_queue_head_t *wq, struct wait_queue_entry *wait, long state)
{
	__prepare_to_wait(wq, wait, state, true);
}

void finish_wait(wait_queue_head_t *wq, struct wait_queue_entry *wait)
{
	unsigned long flags;

	__set_current_state(TASK_RUNNING);
	if (!list_empty(&wait->entry)) {
		spin_lock_irqsave(&wq->lock, flags);
		list_del_init(&wait->entry);
		spin_unlock_irqrestore(&wq->lock, flags);
	}
}

void __wake_up_locked(wait_queue_head_t *wq, int nr_exclusive)
{
	struct wait_queue_entry *w, *tmp;

	list_for_each_entry_safe(w, tmp, &wq->head, entry) {
		bool woken = wake_up_process(w->task);
		if ((w->flags & WQ_FLAG_EXCLUSIVE) && woken && nr_exclusive && !--nr_exclusive)
			break;
	}
}

void __wake_up(wait_queue_head_t *wq, int nr_exclusive)
{
	unsigned long flags;

	spin_lock_irqsave(&wq->lock, flags);
	__wake_up_locked(wq, nr_exclusive);
	spin_unlock_irqrestore(&wq->lock, flags);
}
