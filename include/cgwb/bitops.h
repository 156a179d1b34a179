/*
 * Atomic bit operations on a word of flags, as Linux's set_bit() family: several CPUs may
 * change different bits of one word under different locks (or none), and a plain
 * read-modify-write would lose the other's change. Each is a full barrier here (Linux
 * orders only the test_and_* ones: code must not count on more than that).
 */
#ifndef CGWB_BITOPS_H
#define CGWB_BITOPS_H

#include <cgwb/types.h>

static inline void set_bit(unsigned int nr, unsigned long *addr)
{
	__atomic_fetch_or(addr, 1UL << nr, __ATOMIC_SEQ_CST);
}

static inline void clear_bit(unsigned int nr, unsigned long *addr)
{
	__atomic_fetch_and(addr, ~(1UL << nr), __ATOMIC_SEQ_CST);
}

static inline bool test_bit(unsigned int nr, const unsigned long *addr)
{
	return (__atomic_load_n(addr, __ATOMIC_RELAXED) >> nr) & 1;
}

static inline bool test_and_set_bit(unsigned int nr, unsigned long *addr)
{
	return (__atomic_fetch_or(addr, 1UL << nr, __ATOMIC_SEQ_CST) >> nr) & 1;
}

static inline bool test_and_clear_bit(unsigned int nr, unsigned long *addr)
{
	return (__atomic_fetch_and(addr, ~(1UL << nr), __ATOMIC_SEQ_CST) >> nr) & 1;
}

#endif
