/*
 * ELF64 executables: the structures and constants the loader reads (the System V ABI's
 * names), and the plan of an image (kernel/lib/elf.c, portable so that it can be fuzzed):
 * from the header and program headers, the areas to map, checked, before anything is.
 */
#ifndef CGWB_ELF_H
#define CGWB_ELF_H

#include <cgwb/types.h>

#define ELFMAG "\177ELF"
#define EI_CLASS 4
#define EI_DATA 5
#define ELFCLASS64 2
#define ELFDATA2LSB 1
#define ET_EXEC 2
#define ET_DYN 3
#define EM_X86_64 62
#define PT_LOAD 1
#define PT_INTERP 3
#define PT_PHDR 6
#define PF_X 0x1
#define PF_W 0x2
#define PF_R 0x4
#define ELF_MAX_PHNUM 64

struct elf64_hdr {
	u8 e_ident[16];
	u16 e_type, e_machine;
	u32 e_version;
	u64 e_entry, e_phoff, e_shoff;
	u32 e_flags;
	u16 e_ehsize, e_phentsize, e_phnum, e_shentsize, e_shnum, e_shstrndx;
};

struct elf64_phdr {
	u32 p_type, p_flags;
	u64 p_offset, p_vaddr, p_paddr, p_filesz, p_memsz, p_align;
};

/* One PT_LOAD as an area: [start, end) page-aligned, the file's bytes from file_off up to
 * the address file_end, zeros after (the bss); prot in PF_R/PF_W/PF_X. */
struct elf_segment {
	u64 start, end, file_off, file_end;
	u32 prot;
};

struct elf_image {
	u64 entry, phdr; /* moved by the load bias; phdr 0 if no segment holds them */
	unsigned int phnum;
	u64 brk; /* the page after the highest segment: the heap's start */
	unsigned int nr_segments;
	struct elf_segment seg[ELF_MAX_PHNUM];
};

/**
 * elf_check_header() - is this an x86-64 ELF64 executable's header?
 * @eh: the header, as read from the file
 *
 * Little-endian, ET_EXEC or ET_DYN, program headers of the right size, 1 to
 * ELF_MAX_PHNUM of them.
 *
 * Context: any context.
 * Return: 0, or -ENOEXEC.
 */
int elf_check_header(const struct elf64_hdr *eh);
/**
 * elf_plan() - plan the areas to map for an executable, checking them first
 * @eh: the header, checked by elf_check_header()
 * @ph: its e_phnum program headers
 * @dyn_base: where an ET_DYN (static-pie) image is moved to
 * @user_top: the end of the user address space
 * @img: set to the plan: the PT_LOAD segments as areas, the entry, the program headers'
 *       address, the heap's start
 *
 * Every segment must lie inside [PAGE_SIZE, @user_top) with sane sizes and offsets, and
 * the entry below @user_top. Nothing is mapped here.
 *
 * Context: any context.
 * Return: 0; -ENOEXEC; or -ELIBBAD for one that wants an interpreter (dynamically linked).
 */
int elf_plan(const struct elf64_hdr *eh, const struct elf64_phdr *ph, u64 dyn_base, u64 user_top,
	     struct elf_image *img);

struct mm_struct;
struct file;

/* sys/binfmt_elf.c: map file's program into mm (empty) as planned: 0 or why not. */
int load_elf_binary(struct mm_struct *mm, struct file *file, struct elf_image *img);

#endif
