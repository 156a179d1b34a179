/*
 * Loading a static ELF64 x86-64 executable (Linux's fs/binfmt_elf.c without an
 * interpreter): the header and program headers are read and planned (kernel/lib/elf.c:
 * every number checked, ET_DYN moved to ELF_ET_DYN_BASE), then each PT_LOAD becomes a
 * private file mapping whose pages are read at the first touch; what lies past the
 * segment's file size reads as zeros (its bss). The heap starts after the highest segment.
 */
#include <cgwb/mm.h>
#include <cgwb/slab.h>
#include <cgwb/file.h>
#include <cgwb/errno.h>
#include <cgwb/elf.h>
#include "internal.h"

static int read_exact(struct file *file, void *buf, size_t len, loff_t pos)
{
	ssize_t n = kernel_read(file, buf, len, &pos);

	if (n < 0)
		return (int)n;
	return (size_t)n == len ? 0 : -ENOEXEC;
}

static unsigned int segment_prot(u32 flags)
{
	return ((flags & PF_R) ? UPROT_READ : 0) | ((flags & PF_W) ? UPROT_WRITE : 0) |
	       ((flags & PF_X) ? UPROT_EXEC : 0);
}

static int map_image(struct mm_struct *mm, struct file *file, const struct elf_image *img)
{
	int err = 0;

	mutex_lock(&mm->lock);
	for (unsigned int i = 0; i < img->nr_segments && !err; i++) {
		const struct elf_segment *s = &img->seg[i];

		err = mm_map(mm, s->start, s->end, segment_prot(s->prot), file, s->file_off,
			     s->file_end);
	}
	mutex_unlock(&mm->lock);
	mm->start_brk = mm->brk = img->brk;
	return err;
}

int load_elf_binary(struct mm_struct *mm, struct file *file, struct elf_image *img)
{
	struct elf64_hdr eh;
	struct elf64_phdr *ph;
	int err = read_exact(file, &eh, sizeof(eh), 0);

	if (!err)
		err = elf_check_header(&eh);
	if (err)
		return err;
	ph = kmalloc(eh.e_phnum * sizeof(*ph), GFP_KERNEL); /* e_phnum <= ELF_MAX_PHNUM */
	if (!ph)
		return -ENOMEM;
	err = read_exact(file, ph, eh.e_phnum * sizeof(*ph), (loff_t)eh.e_phoff);
	if (!err)
		err = elf_plan(&eh, ph, ELF_ET_DYN_BASE, STACK_TOP - STACK_SIZE_MAX, img);
	kfree(ph);
	return err ? err : map_image(mm, file, img);
}
