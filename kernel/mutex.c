/*
 * Mutexes and reader/writer semaphores (portable). Waiters sleep; with several CPUs a
 * mutex's waiter first spins a little while the lock is held (mutex_spin_on_owner()).
 */
#include <cgwb/mutex.h>
#include <cgwb/bug.h>
#include <cgwb/smp.h>
#include <cgwb/compiler.h>

/*
 * How long a waiter spins before it sleeps, in cpu_relax() rounds: a few microseconds,
 * the length of the sections that take ext2's s_lock. Linux spins while the owner runs on
 * another CPU (mutex_optimistic_spin()); here a task's struct may go once it is not the
 * owner, so the waiter does not look at it and bounds its spin instead. Sleeping on a lock
 * held for a microsecond costs a wake-up and two switches, which under TCG cost more than
 * the sections themselves.
 */
#define MUTEX_SPIN_ROUNDS 256

void mutex_init(struct mutex *lock)
{
	lock->owner = NULL;
	init_waitqueue_head(&lock->wait);
	lock->name = "mutex";
}

/*
 * One compare-and-exchange of the owner, as Linux's fast path: a waiter cannot miss the
 * unlock, since it queues (a full barrier) before it tries, and mutex_unlock() clears the
 * owner (a full barrier) before it looks at the queue. Taking the wait queue's lock with
 * interrupts off instead would cost more than the sections ext4 holds a mutex for, once
 * per page written.
 */
bool mutex_trylock(struct mutex *lock)
{
	struct task_struct *unowned = NULL;

	host_preempt_point(false); /* the simulator's CPUs may meet here, as at a spinlock */
	return __atomic_compare_exchange_n(&lock->owner, &unowned, current, false, __ATOMIC_ACQUIRE,
					   __ATOMIC_RELAXED);
}

/*
 * Waiters queue exclusively, as Linux's: an unlock wakes the first one only. Woken all at
 * once, the 200 writers queued on ext2's s_lock at 256 groups each ran to find the lock
 * taken again: a sixth of the CPU went to waking them. A waiter whose turn a running task
 * took sleeps again where it was in the queue.
 */
/* Spin for the lock while another CPU may release it soon: true if it was taken. */
static bool mutex_spin_on_owner(struct mutex *lock)
{
	if (num_online_cpus() < 2)
		return false;
	for (int i = 0; i < MUTEX_SPIN_ROUNDS; i++) {
		if (!READ_ONCE(lock->owner) && mutex_trylock(lock))
			return true;
		cpu_relax();
	}
	return false;
}

void mutex_lock(struct mutex *lock)
{
	if (unlikely(lock->owner == current))
		panic("mutex %s: recursive lock by task %d", lock->name, current->pid);
	if (mutex_trylock(lock) || mutex_spin_on_owner(lock))
		return;
	(void)___wait_event(lock->wait, mutex_trylock(lock), TASK_UNINTERRUPTIBLE, 1, 0, schedule());
}

/*
 * Take lock with preemption going off at the same instant, for a section that never
 * sleeps: mutex_lock() can be preempted right after the lock became the caller's (by the
 * preemption check of its own wait-queue spinlock), and every task that wants the lock
 * then queues behind a holder that is not running. Release: mutex_unlock_nopreempt().
 */
void mutex_lock_nopreempt(struct mutex *lock)
{
	for (;;) {
		preempt_disable();
		if (mutex_trylock(lock) || mutex_spin_on_owner(lock))
			return;
		preempt_enable();
		(void)___wait_event(lock->wait, !mutex_is_locked(lock), TASK_UNINTERRUPTIBLE, 1, 0,
				    schedule());
	}
}

/* Not exclusive: a waiter killed after its wake-up would take the next owner's turn with it. */
int mutex_lock_killable(struct mutex *lock)
{
	return wait_event_killable(lock->wait, mutex_trylock(lock));
}

void mutex_unlock(struct mutex *lock)
{
	if (unlikely(lock->owner != current))
		panic("mutex %s: unlocked by task %d, not its owner", lock->name, current->pid);
	__atomic_store_n(&lock->owner, NULL, __ATOMIC_RELEASE);
	/* against a waiter that queued and then found the lock taken: see mutex_lock() */
	smp_mb();
	if (waitqueue_active(&lock->wait))
		wake_up(&lock->wait);
}

void init_rwsem(struct rw_semaphore *sem)
{
	sem->readers = 0;
	sem->writers_waiting = 0;
	sem->writer = NULL;
	init_waitqueue_head(&sem->wait);
}

bool down_read_trylock(struct rw_semaphore *sem)
{
	unsigned long flags;
	bool ok = false;

	spin_lock_irqsave(&sem->wait.lock, flags);
	if (sem->readers >= 0 && !sem->writers_waiting) {
		sem->readers++;
		ok = true;
	}
	spin_unlock_irqrestore(&sem->wait.lock, flags);
	return ok;
}

void down_read(struct rw_semaphore *sem)
{
	wait_event(sem->wait, down_read_trylock(sem));
}

void up_read(struct rw_semaphore *sem)
{
	unsigned long flags;

	spin_lock_irqsave(&sem->wait.lock, flags);
	BUG_ON(sem->readers <= 0);
	sem->readers--;
	spin_unlock_irqrestore(&sem->wait.lock, flags);
	if (!sem->readers)
		wake_up_all(&sem->wait);
}

bool down_write_trylock(struct rw_semaphore *sem)
{
	unsigned long flags;
	bool ok = false;

	spin_lock_irqsave(&sem->wait.lock, flags);
	if (sem->readers == 0) {
		sem->readers = -1;
		sem->writer = current;
		ok = true;
	}
	spin_unlock_irqrestore(&sem->wait.lock, flags);
	return ok;
}

void down_write(struct rw_semaphore *sem)
{
	unsigned long flags;

	if (down_write_trylock(sem))
		return;
	spin_lock_irqsave(&sem->wait.lock, flags);
	sem->writers_waiting++;
	spin_unlock_irqrestore(&sem->wait.lock, flags);
	wait_event(sem->wait, down_write_trylock(sem));
	spin_lock_irqsave(&sem->wait.lock, flags);
	sem->writers_waiting--;
	spin_unlock_irqrestore(&sem->wait.lock, flags);
}

void up_write(struct rw_semaphore *sem)
{
	BUG_ON(sem->readers != -1 || sem->writer != current);
	sem->writer = NULL;
	WRITE_ONCE(sem->readers, 0);
	wake_up_all(&sem->wait);
}
