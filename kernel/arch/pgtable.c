/*
 * A program's page tables (<cgwb/user.h>): 4-level, 4 KiB pages. The top table's upper
 * half is copied from the kernel's at creation, so it must not change afterwards: every
 * kernel slot in use (the direct map, vmalloc, the image) is made at boot
 * (kernel_pgd_prefill()), and ioremap warns if it needs a new one later. The lower half is the program's own, with
 * the user bit at every level; the protection is set on the last one only.
 */
#include <cgwb/user.h>
#include <cgwb/mm.h>
#include <cgwb/string.h>
#include <cgwb/bug.h>
#include <cgwb/errno.h>
#include "x86.h"

#define PTE_P 0x1ULL
#define PTE_W 0x2ULL
#define PTE_U 0x4ULL
#define PTE_NX (1ULL << 63)
#define PTE_ADDR 0x000ffffffffff000ULL

static u64 *table_of(u64 e)
{
	return phys_to_virt(e & PTE_ADDR);
}

static bool user_pgds_made;

bool kernel_pgd_frozen(void)
{
	return READ_ONCE(user_pgds_made);
}

u64 *user_pgd_alloc(void)
{
	u64 *pgd = __get_free_pages(GFP_KERNEL | __GFP_ZERO, 0);

	if (!pgd)
		return NULL;
	WRITE_ONCE(user_pgds_made, true);
	memcpy(pgd + PGD_KERNEL_FIRST, boot_pml4 + PGD_KERNEL_FIRST,
	       (512 - PGD_KERNEL_FIRST) * sizeof(u64));
	return pgd;
}

static void free_level(u64 *table, int level)
{
	for (int i = 0; level > 1 && i < 512; i++) {
		if (table[i] & PTE_P)
			free_level(table_of(table[i]), level - 1);
	}
	if (level == 1) {
		for (int i = 0; i < 512; i++)
			WARN_ON_ONCE(table[i] & PTE_P); /* a page still mapped: its owner leaks it */
	}
	free_pages(table, 0);
}

void user_pgd_free(u64 *pgd)
{
	for (int i = 0; i < PGD_KERNEL_FIRST; i++) {
		if (pgd[i] & PTE_P)
			free_level(table_of(pgd[i]), 3);
	}
	free_pages(pgd, 0);
}

/* The last-level entry for va, tables made if make; NULL if absent or out of memory. */
static u64 *user_pte(u64 *pgd, u64 va, bool make)
{
	u64 *table = pgd;

	BUG_ON(va >= TASK_SIZE_MAX);
	for (int shift = 39; shift > 12; shift -= 9) {
		u64 *e = &table[(va >> shift) & 511];

		if (!(*e & PTE_P)) {
			u64 *next = make ? __get_free_pages(GFP_KERNEL | __GFP_ZERO, 0) : NULL;

			if (!next)
				return NULL;
			*e = virt_to_phys(next) | PTE_P | PTE_W | PTE_U;
		}
		table = table_of(*e);
	}
	return &table[(va >> 12) & 511];
}

static u64 prot_bits(unsigned int prot)
{
	u64 bits = PTE_P | PTE_U;

	if (prot & UPROT_WRITE)
		bits |= PTE_W;
	if (!(prot & UPROT_EXEC))
		bits |= PTE_NX;
	return bits;
}

static void flush_one(u64 *pgd, u64 va)
{
	if (read_cr3() == virt_to_phys(pgd))
		invlpg(va);
}

int user_pte_prepare(u64 *pgd, u64 va)
{
	return user_pte(pgd, va, true) ? 0 : -ENOMEM;
}

void flush_tlb_user_range(u64 start, u64 end)
{
	if (end - start > 64 * PAGE_SIZE)
		start = end = 0; /* one reload is cheaper than thousands of invlpg */
	if (start == end)
		flush_tlb_local();
	flush_tlb_kernel_range(start, end); /* its IPIs reload CR3: everything goes there */
}

int user_map_page(u64 *pgd, u64 va, u64 phys, unsigned int prot)
{
	u64 *pte = user_pte(pgd, va, true);

	if (!pte)
		return -ENOMEM;
	if (*pte & PTE_P)
		return -EEXIST;
	*pte = (phys & PTE_ADDR) | prot_bits(prot);
	return 0;
}

u64 user_unmap_page(u64 *pgd, u64 va)
{
	u64 *pte = user_pte(pgd, va, false);
	u64 old;

	if (!pte || !(*pte & PTE_P))
		return 0;
	old = *pte;
	*pte = 0;
	flush_one(pgd, va);
	return old & PTE_ADDR;
}

bool user_protect_page(u64 *pgd, u64 va, unsigned int prot)
{
	u64 *pte = user_pte(pgd, va, false);

	if (!pte || !(*pte & PTE_P))
		return false;
	*pte = (*pte & PTE_ADDR) | prot_bits(prot);
	flush_one(pgd, va);
	return true;
}

u64 user_lookup_page(u64 *pgd, u64 va, unsigned int *prot)
{
	u64 *pte = user_pte(pgd, va, false);

	if (!pte || !(*pte & PTE_P))
		return 0;
	*prot = UPROT_READ | ((*pte & PTE_W) ? UPROT_WRITE : 0) | ((*pte & PTE_NX) ? 0 : UPROT_EXEC);
	return *pte & PTE_ADDR;
}
