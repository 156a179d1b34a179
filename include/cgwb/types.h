/* Fixed-width types shared by the kernel and the host test builds. */
#ifndef CGWB_TYPES_H
#define CGWB_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdarg.h>
#include <limits.h>

/* Linux's convention: u64 is unsigned long long everywhere, so "%llu" works in both builds. */
typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;
typedef signed char s8;
typedef short s16;
typedef int s32;
typedef long long s64;
#define U64_MAX ((u64)~0ULL)

#ifdef CGWB_KERNEL
typedef long ssize_t;
#else
#include <sys/types.h>
/*
 * libc has its own loff_t and dev_t (long, unsigned long). Ours must be Linux's types in both
 * builds so that the same printk formats compile in both: on the host the names become
 * macros for our typedefs below, whichever header comes first. libc is unaffected: its
 * prototypes use its internal __loff_t and __dev_t.
 */
#define loff_t cgwb_loff_t
#define dev_t cgwb_dev_t
#endif

typedef u64 phys_addr_t;
typedef unsigned long pgoff_t; /* page index within a file */
typedef u64 sector_t;          /* 512-byte sector number */
typedef long long loff_t;      /* byte offset within a file */
typedef unsigned int gfp_t;
typedef u32 dev_t;

#define MAJOR(dev) ((unsigned int)((dev) >> 20))
#define MINOR(dev) ((unsigned int)((dev)&0xfffff))
#define MKDEV(ma, mi) (((dev_t)(ma) << 20) | (dev_t)(mi))

#endif
