/*
 * Symbol lookup for backtraces. The table (.ksyms) is generated from the linked kernel by
 * scripts/gen-ksyms and linked in a second pass; it sits last in the image so adding it
 * moves no other symbol.
 */
#include <cgwb/printk.h>
#include <cgwb/string.h>
#include <cgwb/memlayout.h>
#include "ksyms.h"

struct ksym {
	u64 addr;
	u32 name_off;
	u32 pad;
};

extern const u64 ksyms_count;
extern const struct ksym ksyms_table[];
extern const char ksyms_names[];

bool ksym_lookup(u64 addr, const char **name, u64 *offset, u64 *size)
{
	u64 lo = 0, hi = ksyms_count;

	if (!hi || addr < ksyms_table[0].addr || addr >= (u64)(uintptr_t)__text_end)
		return false;
	while (hi - lo > 1) {
		u64 mid = (lo + hi) / 2;
		if (ksyms_table[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	u64 end = lo + 1 < ksyms_count ? ksyms_table[lo + 1].addr : (u64)(uintptr_t)__text_end;
	*name = ksyms_names + ksyms_table[lo].name_off;
	*offset = addr - ksyms_table[lo].addr;
	*size = end - ksyms_table[lo].addr;
	return true;
}

void print_symbol(int level, const char *prefix_fmt, u64 addr)
{
	char line[192], fmt[] = KERN_SOH "0%s";
	const char *name;
	u64 off, size;
	int n = snprintf(line, sizeof(line), prefix_fmt, addr);

	if (n < 0 || (size_t)n >= sizeof(line))
		n = 0;
	if (ksym_lookup(addr, &name, &off, &size))
		snprintf(line + n, sizeof(line) - (size_t)n, "%s+%#llx/%#llx\n", name, off, size);
	else
		snprintf(line + n, sizeof(line) - (size_t)n, "?\n");
	fmt[1] = (char)('0' + level);
	printk(fmt, line);
}
