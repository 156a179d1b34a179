/*
 * The plan of a static ELF64 x86-64 executable (include/cgwb/elf.h), as Linux's
 * load_elf_binary() checks it before mapping: every number read from the file is checked
 * before it is used, so a bad file is -ENOEXEC, never an overflow. Portable: the loader
 * (sys/binfmt_elf.c) maps what this says, and tests/fuzz/elf_fuzz.c feeds it garbage.
 */
#include <cgwb/elf.h>
#include <cgwb/mm.h>
#include <cgwb/errno.h>
#include <cgwb/string.h>

int elf_check_header(const struct elf64_hdr *eh)
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

/* The lowest PT_LOAD address: an ET_DYN image is moved so that it lands at dyn_base. */
static u64 load_bias(const struct elf64_hdr *eh, const struct elf64_phdr *ph, u64 dyn_base)
{
	u64 low = ~0ULL;

	if (eh->e_type != ET_DYN)
		return 0;
	for (unsigned int i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_type == PT_LOAD)
			low = min(low, ph[i].p_vaddr & PAGE_MASK);
	}
	return low == ~0ULL || low > dyn_base ? 0 : dyn_base - low;
}

/* A PT_LOAD that fits below user_top once moved by bias, its sizes and offsets sane. */
static bool segment_ok(const struct elf64_phdr *ph, u64 bias, u64 user_top)
{
	u64 start = ph->p_vaddr + bias, end = start + ph->p_memsz;

	return start >= ph->p_vaddr && ph->p_filesz <= ph->p_memsz && end >= start &&
	       start >= PAGE_SIZE && end <= user_top && ph->p_offset + ph->p_filesz >= ph->p_offset &&
	       (ph->p_offset & ~PAGE_MASK) == (ph->p_vaddr & ~PAGE_MASK);
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
		    eh->e_phoff - ph[i].p_offset < ph[i].p_filesz)
			return ph[i].p_vaddr + bias + (eh->e_phoff - ph[i].p_offset);
	}
	return 0;
}

static void plan_segment(struct elf_image *img, const struct elf64_phdr *ph, u64 bias)
{
	u64 vaddr = ph->p_vaddr + bias, start = vaddr & PAGE_MASK;
	u64 end = PAGE_ALIGN(vaddr + ph->p_memsz);
	struct elf_segment *s;

	img->brk = max(img->brk, end);
	if (end == start)
		return;
	s = &img->seg[img->nr_segments++];
	s->start = start;
	s->end = end;
	s->file_off = ph->p_offset - (vaddr - start);
	s->file_end = vaddr + ph->p_filesz;
	s->prot = ph->p_flags & (PF_R | PF_W | PF_X);
}

int elf_plan(const struct elf64_hdr *eh, const struct elf64_phdr *ph, u64 dyn_base, u64 user_top,
	     struct elf_image *img)
{
	u64 bias = load_bias(eh, ph, dyn_base);

	memset(img, 0, sizeof(*img));
	for (unsigned int i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_type == PT_INTERP)
			return -ELIBBAD; /* dynamically linked */
		if (ph[i].p_type != PT_LOAD)
			continue;
		if (!segment_ok(&ph[i], bias, user_top))
			return -ENOEXEC;
		plan_segment(img, &ph[i], bias);
	}
	img->entry = eh->e_entry + bias;
	if (!img->nr_segments || img->entry < eh->e_entry || img->entry >= user_top)
		return -ENOEXEC;
	img->phdr = phdr_address(eh, ph, bias);
	img->phnum = eh->e_phnum;
	return 0;
}
