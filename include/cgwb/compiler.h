/* Compiler helpers and small arithmetic macros, Linux-style. */
#ifndef CGWB_COMPILER_H
#define CGWB_COMPILER_H

#include <cgwb/types.h>

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#ifndef __always_inline /* libc's <sys/cdefs.h> has the same one */
#define __always_inline inline __attribute__((always_inline))
#endif
#define __noreturn __attribute__((noreturn))
#define __printf(a, b) __attribute__((format(printf, a, b)))
#define __packed __attribute__((packed))
#define __aligned(x) __attribute__((aligned(x)))
#define __used __attribute__((used))
#define __unused __attribute__((unused))
#define __maybe_unused __attribute__((unused))
#define __weak __attribute__((weak))
#define __section(s) __attribute__((section(s)))

#define barrier() __asm__ __volatile__("" ::: "memory")
/* x86 orders everything but a store before a later load; these are the general forms. */
#define smp_mb() __atomic_thread_fence(__ATOMIC_SEQ_CST)
#define smp_wmb() __atomic_thread_fence(__ATOMIC_RELEASE)
#define smp_rmb() __atomic_thread_fence(__ATOMIC_ACQUIRE)

#ifndef CGWB_KERNEL
/*
 * The host simulator with several virtual CPUs (tests/host/platform/vcpu.c) may change CPU
 * here; spinning, it must (the one awaited runs elsewhere).
 */
extern bool host_smp_on;
void host_switch_point(bool spinning);
#define host_preempt_point(spinning)                 \
	do {                                         \
		if (unlikely(host_smp_on))           \
			host_switch_point(spinning); \
	} while (0)
#else
#define host_preempt_point(spinning) \
	do {                         \
	} while (0)
#endif

/* In a loop polling a device or a lock: tells the CPU it spins (x86 pause). */
static inline void cpu_relax(void)
{
#ifdef CGWB_KERNEL
	__asm__ volatile("pause" ::: "memory");
#else
	__asm__ volatile("" ::: "memory");
	host_preempt_point(true);
#endif
}

#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v) (*(volatile __typeof__(x) *)&(x) = (v))
/* Publish a value after everything written before it; read it before what follows. */
#define smp_store_release(p, v) __atomic_store_n((p), (v), __ATOMIC_RELEASE)
#define smp_load_acquire(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define BUILD_BUG_ON(c) _Static_assert(!(c), #c)

#define container_of(ptr, type, member) ((type *)((char *)(ptr)-offsetof(type, member)))

#define ___PASTE(a, b) a##b
#define __PASTE(a, b) ___PASTE(a, b)
#define __stringify_1(x...) #x
#define __stringify(x...) __stringify_1(x)
#define __UNIQUE_ID(prefix) __PASTE(__PASTE(__uniq_, prefix), __COUNTER__)
/* unique temporaries so min(max(...)) nests without shadowing */
#define __cmp_once(op, a, b, ua, ub)    \
	({                              \
		__typeof__(a) ua = (a); \
		__typeof__(b) ub = (b); \
		ua op ub ? ua : ub;     \
	})
#define min(a, b) __cmp_once(<, a, b, __UNIQUE_ID(x_), __UNIQUE_ID(y_))
#define max(a, b) __cmp_once(>, a, b, __UNIQUE_ID(x_), __UNIQUE_ID(y_))
#define min_t(t, a, b) min((t)(a), (t)(b))
#define max_t(t, a, b) max((t)(a), (t)(b))
#define clamp(v, lo, hi) min(max(v, lo), hi)
#define swap(a, b)                      \
	do {                            \
		__typeof__(a) _t = (a); \
		(a) = (b);              \
		(b) = _t;               \
	} while (0)

#define DIV_ROUND_UP(n, d) (((n) + (d)-1) / (d))
#define round_up(x, y) ((((x) + (y)-1) / (y)) * (y))
#define round_down(x, y) (((x) / (y)) * (y))
#define ALIGN(x, a) (((x) + ((a)-1)) & ~((__typeof__(x))(a)-1))
#define IS_ALIGNED(x, a) (((x) & ((__typeof__(x))(a)-1)) == 0)
#define is_power_of_2(n) ((n) != 0 && (((n) & ((n)-1)) == 0))

static inline int ilog2(u64 v)
{
	return v ? 63 - __builtin_clzll(v) : -1;
}

static inline u64 roundup_pow_of_two(u64 v)
{
	return v <= 1 ? 1 : 1ULL << (64 - __builtin_clzll(v - 1));
}

static inline int hweight64(u64 v)
{
	return __builtin_popcountll(v);
}

#endif
