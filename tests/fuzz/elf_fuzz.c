/*
 * libFuzzer harness: the ELF loader's plan (kernel/lib/elf.c) of a file made of the input.
 *
 * The input is the file: its first 64 bytes the header (a too short input is padded with
 * zeros), the program headers read at e_phoff as the loader reads them (a table reaching
 * past the input is refused there, as a short read is). Whatever the bytes, a plan that is
 * accepted must be one the loader can map without a check of its own:
 *   - every area page-aligned, not empty, inside [PAGE_SIZE, the user top), its file bytes
 *     ending inside it (file_end within [start, end]) and its file offset the same page
 *     offset as its start (so a page read is a whole page of the file);
 *   - at most e_phnum areas, the entry below the top, the heap's start at or past every
 *     area's end and page-aligned.
 * Half of the inputs get their magic, class, data, machine and sizes written in first, so
 * that the plan itself is reached from the first runs on.
 */
#include <stdint.h>
#include <stddef.h>
#include <string.h>
#include <cgwb/elf.h>
#include <cgwb/mm.h>
#include <cgwb/errno.h>
#include <cgwb/bug.h>

#define USER_TOP 0x00007fffff7de000ULL /* the stack's lowest address in sys/ */
#define DYN_BASE 0x555555554000ULL

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void make_plausible(struct elf64_hdr *eh)
{
	memcpy(eh->e_ident, ELFMAG, 4);
	eh->e_ident[EI_CLASS] = ELFCLASS64;
	eh->e_ident[EI_DATA] = ELFDATA2LSB;
	eh->e_machine = EM_X86_64;
	eh->e_type = (eh->e_type & 1) ? ET_DYN : ET_EXEC;
	eh->e_phentsize = sizeof(struct elf64_phdr);
	eh->e_phnum = (u16)(eh->e_phnum % ELF_MAX_PHNUM + 1);
	eh->e_phoff = sizeof(*eh);
}

static void check_plan(const struct elf64_hdr *eh, const struct elf_image *img)
{
	BUG_ON(img->nr_segments > eh->e_phnum || img->nr_segments == 0);
	BUG_ON(img->entry >= USER_TOP);
	BUG_ON(img->brk & ~PAGE_MASK);
	for (unsigned int i = 0; i < img->nr_segments; i++) {
		const struct elf_segment *s = &img->seg[i];

		BUG_ON((s->start | s->end) & ~PAGE_MASK);
		BUG_ON(s->start >= s->end || s->start < PAGE_SIZE || s->end > USER_TOP);
		BUG_ON(s->file_end < s->start || s->file_end > s->end);
		BUG_ON(s->file_off & ~PAGE_MASK);
		BUG_ON(s->prot & ~(u32)(PF_R | PF_W | PF_X));
		BUG_ON(img->brk < s->end);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct elf64_hdr eh;
	static struct elf64_phdr ph[ELF_MAX_PHNUM];
	static struct elf_image img;
	size_t table;
	int err;

	if (!size)
		return 0;
	memset(&eh, 0, sizeof(eh));
	memcpy(&eh, data + 1, size - 1 < sizeof(eh) ? size - 1 : sizeof(eh));
	if (data[0] & 1)
		make_plausible(&eh);
	if (elf_check_header(&eh))
		return 0;
	table = (size_t)eh.e_phnum * sizeof(*ph);
	if (eh.e_phoff > size - 1 || size - 1 - eh.e_phoff < table)
		return 0; /* the loader's read comes short: -ENOEXEC before any plan */
	memcpy(ph, data + 1 + eh.e_phoff, table);
	err = elf_plan(&eh, ph, DYN_BASE, USER_TOP, &img);
	BUG_ON(err && err != -ENOEXEC && err != -ELIBBAD);
	if (!err)
		check_plan(&eh, &img);
	return 0;
}
