/*
 * The lock validator (include/cgwb/lockdep.h).
 *
 * State: up to LOCKDEP_MAX_CLASSES classes, each with its name, whether it was taken in an
 * interrupt handler and whether with interrupts on outside one; the order graph as a
 * bit matrix (after[a] has b once b was taken while a was held); per CPU, the classes it
 * holds now. A new edge a -> b is checked before it is added: if b already reaches a, the
 * two orders can deadlock. Checks run with interrupts off under graph_lock, a bare flag
 * taken with an atomic exchange (not a spinlock: the validator must not validate itself);
 * printing happens after it is dropped, and the first report turns the validator off, as
 * Linux's debug_locks.
 *
 * Same-class nesting (two run queues, two wbs' list locks: ordered by address) is not
 * checked, as Linux's nesting annotations would allow it; nor is a trylock's order, since it
 * never waits (the locks taken while it is held are).
 */
#include <cgwb/lockdep.h>
#include <cgwb/spinlock.h>
#include <cgwb/smp.h>
#include <cgwb/printk.h>
#include <cgwb/string.h>

#define LOCKDEP_MAX_CLASSES 256
#define LOCKDEP_MAX_HELD 24
#define CLASS_WORDS (LOCKDEP_MAX_CLASSES / 64)

struct lock_class {
	const char *name;
	bool in_hardirq;   /* taken in an interrupt handler */
	bool with_irqs_on; /* taken with interrupts on, outside one */
};

struct held_locks {
	unsigned int depth;
	s16 class_id[LOCKDEP_MAX_HELD];
};

static bool lockdep_on;
static int graph_lock;
static unsigned int nr_classes, nr_reports;
static struct lock_class classes[LOCKDEP_MAX_CLASSES + 1]; /* 1-based: 0 is "not looked up" */
static u64 after[LOCKDEP_MAX_CLASSES + 1][CLASS_WORDS + 1];
static DEFINE_PER_CPU(struct held_locks, held_locks);

bool lockdep_was_enabled;

void lockdep_enable(void)
{
	WRITE_ONCE(lockdep_was_enabled, true);
	WRITE_ONCE(lockdep_on, true);
}

unsigned int lockdep_reports(void)
{
	return READ_ONCE(nr_reports);
}

/* false if this CPU holds it already (a fault inside the validator): then skip the check */
static bool graph_lock_take(void)
{
	int me = (int)raw_smp_processor_id() + 1, free = 0;

	if (__atomic_load_n(&graph_lock, __ATOMIC_RELAXED) == me)
		return false;
	while (!__atomic_compare_exchange_n(&graph_lock, &free, me, false, __ATOMIC_ACQUIRE,
					    __ATOMIC_RELAXED)) {
		free = 0;
		cpu_relax();
	}
	return true;
}

static void graph_lock_drop(void)
{
	__atomic_store_n(&graph_lock, 0, __ATOMIC_RELEASE);
}

/*
 * graph_lock held. 0 when the table is full, or for a lock that was zeroed rather than
 * initialised (no name): such locks go unchecked.
 */
static s16 class_of(struct spinlock *lock)
{
	if (lock->class_id || !lock->name)
		return lock->class_id;
	for (unsigned int i = 1; i <= nr_classes; i++) {
		if (classes[i].name == lock->name || !strcmp(classes[i].name, lock->name)) {
			lock->class_id = (s16)i;
			return lock->class_id;
		}
	}
	if (nr_classes == LOCKDEP_MAX_CLASSES)
		return 0;
	classes[++nr_classes].name = lock->name;
	lock->class_id = (s16)nr_classes;
	return lock->class_id;
}

static bool has_edge(unsigned int a, unsigned int b)
{
	return after[a][b / 64] & (1ULL << (b % 64));
}

/* Does from reach to through known orders? (graph_lock held) */
static bool reaches(unsigned int from, unsigned int to)
{
	u64 seen[CLASS_WORDS + 1] = { 0 };
	u16 stack[LOCKDEP_MAX_CLASSES + 1];
	unsigned int sp = 0;

	stack[sp++] = (u16)from;
	seen[from / 64] |= 1ULL << (from % 64);
	while (sp) {
		unsigned int c = stack[--sp];

		if (c == to)
			return true;
		for (unsigned int n = 1; n <= nr_classes; n++) {
			if (has_edge(c, n) && !(seen[n / 64] & (1ULL << (n % 64)))) {
				seen[n / 64] |= 1ULL << (n % 64);
				stack[sp++] = (u16)n;
			}
		}
	}
	return false;
}

enum lockdep_report { REPORT_NONE, REPORT_IRQ_STATE, REPORT_CYCLE };

/* graph_lock held: what to report, with the classes' names. */
static enum lockdep_report check_acquire(struct held_locks *h, unsigned int id, bool trylock,
					 bool hardirq, bool irqs_on, const char **a, const char **b)
{
	struct lock_class *c = &classes[id];

	c->in_hardirq |= hardirq;
	c->with_irqs_on |= !hardirq && irqs_on;
	if (c->in_hardirq && c->with_irqs_on) {
		*a = *b = c->name;
		return REPORT_IRQ_STATE;
	}
	/* a trylock never waits: it orders nothing after what is held (it is held itself) */
	for (unsigned int i = 0; !trylock && i < min(h->depth, (unsigned int)LOCKDEP_MAX_HELD); i++) {
		unsigned int held = (unsigned int)h->class_id[i];

		if (!held || held == id || has_edge(held, id))
			continue;
		if (reaches(id, held)) {
			*a = classes[held].name;
			*b = c->name;
			return REPORT_CYCLE;
		}
		after[held][id / 64] |= 1ULL << (id % 64);
	}
	return REPORT_NONE;
}

static void report(enum lockdep_report what, const char *a, const char *b)
{
	WRITE_ONCE(nr_reports, nr_reports + 1);
	if (what == REPORT_IRQ_STATE)
		printk(KERN_WARNING "WARNING: lockdep: inconsistent lock state: %s taken in an "
				    "interrupt handler and, elsewhere, with interrupts on\n",
		       a);
	else
		printk(KERN_WARNING "WARNING: lockdep: possible circular locking dependency: %s "
				    "then %s here, the other way round before\n",
		       a, b);
	dump_stack();
}

/*
 * Nothing new to learn: the class is known, its interrupt state seen, and every order from
 * the held classes to it recorded already. Read without graph_lock: bits are only ever set,
 * and a stale zero only sends the caller the slow way.
 */
static bool acquire_is_known(const struct held_locks *h, s16 id, bool trylock, bool hardirq,
			     bool irqs_on)
{
	const struct lock_class *c = &classes[id];

	if (!id || (hardirq && !READ_ONCE(c->in_hardirq)) ||
	    (!hardirq && irqs_on && !READ_ONCE(c->with_irqs_on)))
		return false;
	for (unsigned int i = 0; !trylock && i < min(h->depth, (unsigned int)LOCKDEP_MAX_HELD); i++) {
		unsigned int held = (unsigned int)h->class_id[i];

		if (held && held != (unsigned int)id &&
		    !(READ_ONCE(after[held][id / 64]) & (1ULL << (id % 64))))
			return false;
	}
	return true;
}

void lock_acquired_hook(struct spinlock *lock, bool trylock)
{
	enum lockdep_report what = REPORT_NONE;
	const char *a = NULL, *b = NULL;
	struct held_locks *h;
	unsigned long flags;
	bool irqs_on, hardirq;
	s16 id;

	if (!READ_ONCE(lockdep_on))
		return;
	irqs_on = !arch_irqs_disabled(); /* while holding it: _irqsave forms have them off */
	hardirq = in_interrupt();
	flags = arch_local_irq_save();
	h = this_cpu_ptr(&held_locks);
	id = READ_ONCE(lock->class_id);
	if (!acquire_is_known(h, id, trylock, hardirq, irqs_on)) {
		if (!graph_lock_take()) {
			arch_local_irq_restore(flags);
			return;
		}
		id = class_of(lock);
		if (id && READ_ONCE(lockdep_on))
			what = check_acquire(h, (unsigned int)id, trylock, hardirq, irqs_on, &a, &b);
		if (what != REPORT_NONE)
			WRITE_ONCE(lockdep_on, false);
		graph_lock_drop();
	}
	if (h->depth < LOCKDEP_MAX_HELD)
		h->class_id[h->depth] = id;
	h->depth++;
	arch_local_irq_restore(flags);
	if (what != REPORT_NONE)
		report(what, a, b);
}

void lock_release_hook(struct spinlock *lock)
{
	struct held_locks *h;
	unsigned long flags;

	if (!READ_ONCE(lockdep_on) && !this_cpu_ptr(&held_locks)->depth)
		return;
	flags = arch_local_irq_save();
	h = this_cpu_ptr(&held_locks);
	/* usually the last taken; a lock may be released out of order */
	for (unsigned int i = min(h->depth, (unsigned int)LOCKDEP_MAX_HELD); i-- > 0;) {
		if (h->class_id[i] == lock->class_id) {
			memmove(&h->class_id[i], &h->class_id[i + 1],
				(min(h->depth, (unsigned int)LOCKDEP_MAX_HELD) - i - 1) *
					sizeof(h->class_id[0]));
			break;
		}
	}
	if (h->depth)
		h->depth--;
	arch_local_irq_restore(flags);
}
