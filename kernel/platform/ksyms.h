#ifndef CGWB_KERNEL_KSYMS_H
#define CGWB_KERNEL_KSYMS_H

#include <cgwb/types.h>

/* Name of the function containing addr, with offset and size; false if unknown. */
bool ksym_lookup(u64 addr, const char **name, u64 *offset, u64 *size);
/* printk at level the formatted prefix (which gets addr) followed by "name+0xoff/0xsize". */
void print_symbol(int level, const char *prefix_fmt, u64 addr);

#endif
