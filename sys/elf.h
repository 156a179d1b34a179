/* The ELF64 structures and constants the loader reads (the System V ABI's names). */
#ifndef CGWB_SYS_ELF_H
#define CGWB_SYS_ELF_H

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

struct mm_struct;
struct file;

/* What the loader tells exec for the program's auxiliary vector. */
struct elf_load_info {
	u64 entry, phdr;
	unsigned int phnum;
};

/* Map file's program into mm (empty): 0, -ENOEXEC, -ELIBBAD (needs an interpreter), ... */
int load_elf_binary(struct mm_struct *mm, struct file *file, struct elf_load_info *info);

#endif
