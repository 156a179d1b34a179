/*
 * ioremap: device memory. The boot page tables map the low 4 GiB at PAGE_OFFSET, so a BAR
 * there is already reachable in the direct map. Above that, BARs (64-bit ones that firmware
 * placed high) get 2 MiB mappings at PAGE_OFFSET + their address added on demand, uncached,
 * with the missing paging levels allocated here.
 */
#include <cgwb/io.h>
#include <cgwb/mm.h>
#include <cgwb/mutex.h>
#include <cgwb/printk.h>
#include "x86.h"

#define PTE_P 0x1ULL
#define PTE_W 0x2ULL
#define PTE_PWT 0x8ULL
#define PTE_PCD 0x10ULL
#define PTE_PS 0x80ULL
#define PTE_NX (1ULL << 63)
#define PTE_ADDR 0x000ffffffffff000ULL
#define LOW_DIRECT_LIMIT (4ULL << 30)
#define CANONICAL_LIMIT (1ULL << 46) /* what the direct map can reach */
#define HUGE_SIZE (2ULL << 20)

static DEFINE_MUTEX(ioremap_lock);

u64 *pt_next_table(u64 *e)
{
	if (!(*e & PTE_P)) {
		struct page *page = alloc_page(GFP_KERNEL | __GFP_ZERO);
		if (!page)
			return NULL;
		*e = page_to_phys(page) | PTE_P | PTE_W;
	}
	BUG_ON(*e & PTE_PS); /* a huge page where a table should be: not something we made */
	return phys_to_virt(*e & PTE_ADDR);
}

static int map_huge(u64 addr)
{
	u64 va = (u64)(uintptr_t)phys_to_virt(addr);

	/* programs' page tables copied the kernel's top table: a new slot would miss there */
	WARN_ON_ONCE(!(boot_pml4[pgd_index(va)] & PTE_P) && kernel_pgd_frozen());
	u64 *pdpt = pt_next_table(&boot_pml4[pgd_index(va)]);
	u64 *pd = pdpt ? pt_next_table(&pdpt[(va >> 30) & 511]) : NULL;

	if (!pd)
		return -1;
	u64 *e = &pd[(va >> 21) & 511];
	if (!(*e & PTE_P))
		*e = addr | PTE_P | PTE_W | PTE_PS | PTE_PCD | PTE_PWT | PTE_NX;
	return 0;
}

void *ioremap(phys_addr_t phys, size_t size)
{
	if (!size || phys + size < phys || phys + size > CANONICAL_LIMIT)
		return NULL;
	if (phys + size <= LOW_DIRECT_LIMIT)
		return phys_to_virt(phys);

	mutex_lock(&ioremap_lock);
	for (u64 a = round_down(phys, HUGE_SIZE); a < phys + size; a += HUGE_SIZE) {
		if (map_huge(a)) {
			mutex_unlock(&ioremap_lock);
			pr_err("ioremap: out of memory mapping %#llx\n", (unsigned long long)phys);
			return NULL;
		}
	}
	flush_tlb_local(); /* drop any stale "not present" translations */
	mutex_unlock(&ioremap_lock);
	return phys_to_virt(phys);
}

void kernel_pgd_prefill(void)
{
	if (!pt_next_table(&boot_pml4[pgd_index(VMALLOC_START)]))
		panic("no page for the vmalloc window's page table");
}
