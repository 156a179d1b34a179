/*
 * Memory poisoning hooks: in host builds with AddressSanitizer, memory the page and slab
 * allocators hold free is poisoned so a use after free is reported at once. No-ops otherwise.
 */
#ifndef CGWB_KASAN_H
#define CGWB_KASAN_H

#include <cgwb/types.h>

#if defined(__SANITIZE_ADDRESS__) && !defined(CGWB_KERNEL)
#include <sanitizer/asan_interface.h>
#define kasan_poison(addr, size) ASAN_POISON_MEMORY_REGION(addr, size)
#define kasan_unpoison(addr, size) ASAN_UNPOISON_MEMORY_REGION(addr, size)
#else
#define kasan_poison(addr, size) \
	do {                     \
		(void)(addr);    \
		(void)(size);    \
	} while (0)
#define kasan_unpoison(addr, size) \
	do {                       \
		(void)(addr);      \
		(void)(size);      \
	} while (0)
#endif

#endif
