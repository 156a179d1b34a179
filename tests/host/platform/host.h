/*
 * The host platform: what the kernel's kernel-only files provide (scheduler, interrupt flag,
 * clock, memory, console, panic), rebuilt on libc so the portable sources run in a test
 * process. One CPU (or several virtual ones, host_smp_start(), interleaved by a seeded PRNG),
 * cooperative and deterministic; VIRTUAL time that moves only when every task is blocked or
 * when a task says it spends CPU time. Same inputs (and seed), same run, every time.
 *
 * A test (or a simulator) calls host_platform_init() once from its own thread, which then
 * becomes the task "main": it can sleep, wait, lock and join like any kernel thread.
 * Criterion runs every test in its own process, and the platform relies on that: init
 * once, exit once, per process.
 */
#ifndef CGWB_HOST_H
#define CGWB_HOST_H

#include <cgwb/types.h>
#include <cgwb/list.h>

/* ------------------------------------------------------------------ life cycle */

/*
 * Arena of mem_bytes for the page allocator and kmalloc (the real mm/page_alloc.c and
 * mm/slab.c), the root cgroup, the calling thread as task "main", the memory character
 * devices and the workqueues. Returns with every task idle at virtual time 0.
 */
void host_platform_init(size_t mem_bytes);
/*
 * Free what the platform took from libc; tasks still alive are dropped, never resumed.
 * Under AddressSanitizer it then runs LeakSanitizer and panics on a leak: at process exit
 * the report would come after Criterion has already counted the test as passed.
 */
void host_platform_exit(void);

/* ------------------------------------------------------------------ virtual time */

/* The virtual clock (what ktime_get_ns() returns; jiffies follow it). */
u64 host_now_ns(void);

/*
 * Panic when virtual time would pass ns (0: no limit; default one hour). Waiting forever
 * with a periodic timer armed is not a deadlock, just endless time: this catches it.
 */
void host_set_time_limit(u64 ns);

/*
 * Sleep the current task until virtual time reaches when (or return at once if it has).
 * Every interrupt event due by then has fired, and the tasks those events woke were queued
 * before this one, so they have run before this returns. Nanosecond precision.
 */
void host_advance_to(u64 when_ns);
/* host_advance_to(now + ns): let the system run for ns of virtual time. */
void host_run_for(u64 ns);
/*
 * Let every other task run until none is runnable and no event is due at the current time.
 * Virtual time does not move. Never returns while some task keeps running (a CPU hog).
 */
void host_run_until_idle(void);

/*
 * The current task spends ns of CPU time. A uniprocessor is modelled: the clock advances by
 * ns while every other runnable task waits, timers and events fire on the way (as
 * interrupts, unless the caller has interrupts off: then they fire when it enables them),
 * and the task is preempted every 10 ms slice when others are runnable and nothing forbids
 * it (the kernel's round robin). This is the only way time passes while a task runs.
 */
void host_consume_ns(u64 ns);

/*
 * Nanosecond one-shot timers whose callbacks run in interrupt context (interrupts off,
 * in_interrupt() true, must not sleep): the simulator's device completions. Events due at
 * the same instant fire in this order: kernel timers (jiffies), then host timers in order of
 * expiry and, for equal expiries, of arming; HOST_TIMER_LATE ones last of all.
 */
struct host_timer {
	struct list_head node;
	u64 expires_ns;
	u64 seq;
	unsigned int flags;
	bool pending;
	void (*function)(struct host_timer *timer);
};

#define HOST_TIMER_LATE 0x1 /* after every other event of its instant */

void host_timer_init(struct host_timer *timer, void (*fn)(struct host_timer *), unsigned int flags);
/* Arm (or re-arm) for an absolute virtual time; a time in the past fires at the next chance. */
void host_timer_start(struct host_timer *timer, u64 expires_ns);
/* Returns true if the timer was pending. */
bool host_timer_cancel(struct host_timer *timer);
static inline bool host_timer_pending(const struct host_timer *timer)
{
	return timer->pending;
}

/* ------------------------------------------------------------------ scheduler facts */

/* Context switches so far (determinism checks, simulator statistics). */
u64 host_nr_switches(void);

/* ------------------------------------------------------------------ virtual CPUs */

/*
 * Without host_smp_start() (below) every task runs on CPU 0, but a test of per-CPU data can
 * give the machine n possible CPUs (nr_cpu_ids: what per-CPU counters sum over and bound
 * their error by; none comes online, so the scheduler still sees one) and act as CPU cpu:
 * smp_processor_id() and this_cpu_ptr() are then cpu's. Only with no lock held and back to
 * CPU 0 before anything can sleep or switch tasks (checked: preemption and interrupts on,
 * not in an interrupt; and not with host_smp_start()'s CPUs up).
 */
void host_set_nr_cpus(unsigned int n);
void host_set_cpu(unsigned int cpu);

/*
 * A virtual CPU that counts for RCU (cpu < nr_cpu_ids, not 0): grace periods begun from now
 * on wait for it as if it sat in a long read-side section, until host_rcu_quiescent(cpu);
 * no task runs on it and the scheduler still sees CPU 0 alone. What a test of RCU-freed
 * data needs: a reader parked on another CPU while CPU 0 unlinks and releases.
 */
void host_rcu_cpu_online(unsigned int cpu, bool online);
/* CPU cpu passes a quiescent state (may end a grace period and run its callbacks). */
void host_rcu_quiescent(unsigned int cpu);

/*
 * Bring n virtual CPUs up (2..NR_CPUS; from main, on CPU 0, nothing held), each with its own
 * run queue and idle task, interleaved at switch points by a PRNG seeded with seed:
 * tests/host/platform/vcpu.c has the model, what it finds and what it cannot. The same seed
 * gives the same interleaving, the same run. Without it the machine is one CPU.
 */
void host_smp_start(unsigned int n, u64 seed);

/*
 * Run scenario(seed) once per seed 1..nr_seeds, each in a child process of its own (the
 * platform is set up once per process: the scenario calls host_platform_init() and
 * host_smp_start(n, seed) itself), stopping at the first that fails: panics, or takes more
 * than a minute. Returns that seed, after printing SIM_SEED=S; 0 if every seed passed. With
 * SIM_SEED=S in the environment, only seed S runs.
 */
u64 host_smp_seeds(unsigned int nr_seeds, void (*scenario)(u64 seed));

/* ------------------------------------------------------------------ memory */

/* Has the allocator taken the byte at p back (AddressSanitizer builds: the unit tests)? */
bool host_mem_is_freed(const void *p);

/* ------------------------------------------------------------------ kernel log */

/* Everything printk emitted since init or the last host_log_clear() (NUL-terminated). */
const char *host_log(void);
bool host_log_contains(const char *needle);
/* Number of non-overlapping occurrences of needle in the log. */
unsigned int host_log_count(const char *needle);
void host_log_clear(void);
/* Level (LOGLEVEL_*) of the last piece of text printk emitted, -1 before any. */
int host_log_last_level(void);

/* ------------------------------------------------------------------ panics */

/*
 * The next panic is expected and must mention needle in its message: it then aborts
 * (SIGABRT) quietly; a panic about something else exits with HOST_PANIC_MISMATCH instead,
 * so a test declared with .signal = SIGABRT fails.
 */
void host_expect_panic(const char *needle);
#define HOST_PANIC_MISMATCH 86

#endif
