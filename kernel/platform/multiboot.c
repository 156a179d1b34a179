/* Multiboot2 information parsing. */
#include <cgwb/compiler.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include <cgwb/mm.h>
#include "multiboot.h"

#define MB_TAG_END 0
#define MB_TAG_CMDLINE 1
#define MB_TAG_MMAP 6
#define MB_TAG_ACPI_OLD 14
#define MB_TAG_ACPI_NEW 15

struct boot_info boot_info;

struct mb_tag {
	u32 type, size;
};

static void parse_mmap(const u8 *tag, u32 size)
{
	u32 entry_size = *(const u32 *)(tag + 8);
	const u8 *p = tag + 16;

	if (entry_size < 24)
		return;
	for (; p + entry_size <= tag + size && boot_info.nr_mmap < MB_MAX_MMAP; p += entry_size) {
		struct mb_mmap_entry *e = &boot_info.mmap[boot_info.nr_mmap++];
		memcpy(&e->base, p, 8);
		memcpy(&e->len, p + 8, 8);
		memcpy(&e->type, p + 16, 4);
	}
}

int multiboot_parse(u32 magic, u64 info_phys)
{
	const u8 *info = phys_to_virt(info_phys);

	if (magic != MULTIBOOT2_BOOTLOADER_MAGIC)
		return -EINVAL;
	u32 total = *(const u32 *)info;
	boot_info.info_start = info_phys;
	boot_info.info_end = info_phys + total;
	for (const u8 *p = info + 8; p + 8 <= info + total;) {
		const struct mb_tag *tag = (const void *)p;
		if (tag->type == MB_TAG_END)
			break;
		switch (tag->type) {
		case MB_TAG_CMDLINE:
			strlcpy(boot_info.cmdline, (const char *)(p + 8), sizeof(boot_info.cmdline));
			break;
		case MB_TAG_MMAP:
			parse_mmap(p, tag->size);
			break;
		case MB_TAG_ACPI_NEW:
			memcpy(boot_info.rsdp, p + 8,
			       min(tag->size - 8, (u32)sizeof(boot_info.rsdp)));
			boot_info.has_rsdp = true;
			break;
		case MB_TAG_ACPI_OLD:
			if (!boot_info.has_rsdp) {
				memcpy(boot_info.rsdp, p + 8, min(tag->size - 8, (u32)20));
				boot_info.has_rsdp = true;
			}
			break;
		}
		p += ALIGN(tag->size, 8);
	}
	return 0;
}
