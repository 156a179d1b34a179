/*
 * Loading a static ELF64 x86-64 executable (Linux's fs/binfmt_elf.c without an
 * interpreter): ET_EXEC at its addresses, ET_DYN (static-pie) at ELF_ET_DYN_BASE. Each
 * PT_LOAD becomes a private file mapping whose pages are read at the first touch; what lies
 * past the segment's file size reads as zeros (its bss). The heap starts after the highest
 * segment. Everything read from the file is checked before use: a bad file is -ENOEXEC
 * (or -EINVAL for one that wants an interpreter), never a fault.
 */
#include <cgwb/mm.h>
#include <cgwb/slab.h>
#include <cgwb/file.h>
#include <cgwb/errno.h>
#include <cgwb/string.h>
#include <cgwb/printk.h>
#include "internal.h"
#include "elf.h"

static int read_exact(struct file *file, void *buf, size_t len, loff_t pos)
{
	ssize_t n = kernel_read(file, buf, len, &pos);

	if (n < 0)
		return (int)n;
	return (size_t)n == len ? 0 : -ENOEXEC;
}

static int check_header(const struct elf64_hdr *eh)
{
	if (memcmp(eh->e_ident, ELFMAG, 4) || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_ident[EI_DATA] != ELFDATA2LSB || eh->e_machine != EM_X86_64)
		return -ENOEXEC;
	if (eh->e_type != ET_EXEC && eh->e_type != ET_DYN)
		return -ENOEXEC;
	if (eh->e_phentsize != sizeof(struct elf64_phdr) || !eh->e_phnum ||
	    eh->e_phnum > ELF_MAX_PHNUM)
		return -ENOEXEC;
	return 0;
}

static unsigned int segment_prot(u32 flags)
{
	return ((flags & PF_R) ? UPROT_READ : 0) | ((flags & PF_W) ? UPROT_WRITE : 0) |
	       ((flags & PF_X) ? UPROT_EXEC : 0);
}

/* A PT_LOAD that fits in the user half once moved by bias, file and memory sizes sane. */
static bool segment_ok(const struct elf64_phdr *ph, u64 bias)
{
	u64 start = ph->p_vaddr + bias, end = start + ph->p_memsz;

	return ph->p_filesz <= ph->p_memsz && end >= start && start >= PAGE_SIZE &&
	       end <= STACK_TOP - STACK_SIZE_MAX && ph->p_offset + ph->p_filesz >= ph->p_offset &&
	       (ph->p_offset & ~PAGE_MASK) == (ph->p_vaddr & ~PAGE_MASK);
}

static int map_segment(struct mm_struct *mm, struct file *file, const struct elf64_phdr *ph, u64 bias)
{
	u64 vaddr = ph->p_vaddr + bias, start = vaddr & PAGE_MASK;
	u64 end = PAGE_ALIGN(vaddr + ph->p_memsz);

	if (end == start)
		return 0;
	return mm_map(mm, start, end, segment_prot(ph->p_flags), file,
		      ph->p_offset - (vaddr - start), vaddr + ph->p_filesz);
}

/* The lowest PT_LOAD address: an ET_DYN image is moved so that it lands at the base. */
static u64 load_bias(const struct elf64_hdr *eh, const struct elf64_phdr *ph)
{
	u64 low = ~0ULL;

	if (eh->e_type != ET_DYN)
		return 0;
	for (unsigned int i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_type == PT_LOAD)
			low = min(low, ph[i].p_vaddr & PAGE_MASK);
	}
	return low == ~0ULL || low > ELF_ET_DYN_BASE ? 0 : ELF_ET_DYN_BASE - low;
}

/* Where the program headers are in memory (AT_PHDR): in the PT_LOAD holding e_phoff. */
static u64 phdr_address(const struct elf64_hdr *eh, const struct elf64_phdr *ph, u64 bias)
{
	for (unsigned int i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_type == PT_PHDR)
			return ph[i].p_vaddr + bias;
	}
	for (unsigned int i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_type == PT_LOAD && eh->e_phoff >= ph[i].p_offset &&
		    eh->e_phoff < ph[i].p_offset + ph[i].p_filesz)
			return ph[i].p_vaddr + bias + (eh->e_phoff - ph[i].p_offset);
	}
	return 0;
}

static int map_segments(struct mm_struct *mm, struct file *file, const struct elf64_hdr *eh,
			const struct elf64_phdr *ph, u64 bias, u64 *top)
{
	bool any = false;

	for (unsigned int i = 0; i < eh->e_phnum; i++) {
		int err;

		if (ph[i].p_type == PT_INTERP)
			return -ELIBBAD; /* dynamically linked */
		if (ph[i].p_type != PT_LOAD)
			continue;
		if (!segment_ok(&ph[i], bias))
			return -ENOEXEC;
		err = map_segment(mm, file, &ph[i], bias);
		if (err)
			return err;
		*top = max(*top, PAGE_ALIGN(ph[i].p_vaddr + bias + ph[i].p_memsz));
		any = true;
	}
	return any ? 0 : -ENOEXEC;
}

int load_elf_binary(struct mm_struct *mm, struct file *file, struct elf_load_info *info)
{
	struct elf64_hdr eh;
	struct elf64_phdr *ph;
	u64 bias, top = 0;
	int err = read_exact(file, &eh, sizeof(eh), 0);

	if (!err)
		err = check_header(&eh);
	if (err)
		return err;
	ph = kmalloc(eh.e_phnum * sizeof(*ph), GFP_KERNEL); /* e_phnum <= ELF_MAX_PHNUM */
	if (!ph)
		return -ENOMEM;
	err = read_exact(file, ph, eh.e_phnum * sizeof(*ph), (loff_t)eh.e_phoff);
	bias = err ? 0 : load_bias(&eh, ph);
	if (!err) {
		mutex_lock(&mm->lock);
		err = map_segments(mm, file, &eh, ph, bias, &top);
		mutex_unlock(&mm->lock);
	}
	if (!err) {
		info->entry = eh.e_entry + bias;
		info->phdr = phdr_address(&eh, ph, bias);
		info->phnum = eh.e_phnum;
		mm->start_brk = mm->brk = top;
		if (info->entry >= TASK_SIZE_MAX)
			err = -ENOEXEC;
	}
	kfree(ph);
	return err;
}
