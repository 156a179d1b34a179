/*
 * A program's memory (Linux's mm/mmap.c and mm/memory.c, much reduced): areas in a list by
 * address, pages made at the first touch.
 *
 * - Private pages: an anonymous page starts zeroed; a page of a private file mapping (an
 *   ELF segment) is a copy of the file's bytes, zeros past the area's file_end. It is
 *   charged to the memory cgroup of the program that made it and counted as anon once
 *   (memory.stat, AnonPages) as Linux's; with no swap, reclaim cannot take it, so a group
 *   over memory.max with nothing else to free has its OOM killer end the program.
 * - Copy-on-write (Linux's copy_present_pte() and do_wp_page()): fork maps the parent's
 *   private pages into the child read-only and write-protects them in the parent, each
 *   map holding a page reference. A store into such a page faults; a page only this
 *   program maps (one reference) is made writable again, any other is copied first, the
 *   copy charged to the faulting program's group. The kernel's own stores into a program
 *   (copy_to_user) fault the same way: CR0.WP is set. Only the page's mappers take
 *   references, each under its program's lock, so one reference means no other program
 *   can see the page, and none can come to: a fork of this program needs the same lock.
 * - Shared file mappings map the page cache's own pages (shared-mapping.c): fork shares
 *   them, munmap and exit leave them (dirty or not) in the cache.
 *
 * mm->lock (a mutex: a fault reads the file) covers the list and the page tables;
 * mm->page_table_lock the entries of shared pages, which writeback reaches without it.
 */
#include <cgwb/mm.h>
#include <cgwb/slab.h>
#include <cgwb/file.h>
#include <cgwb/errno.h>
#include <cgwb/string.h>
#include <cgwb/bug.h>
#include <cgwb/memcontrol.h>
#include <cgwb/vmstat.h>
#include <cgwb/rmap.h>
#include <cgwb/pagemap.h>
#include "internal.h"

#define MMAP_MIN_ADDR 0x10000UL

struct mm_struct *mm_alloc(void)
{
	struct mm_struct *mm = kzalloc(sizeof(*mm), GFP_KERNEL);

	if (!mm)
		return NULL;
	mm->pgd = user_pgd_alloc();
	if (!mm->pgd) {
		kfree(mm);
		return NULL;
	}
	mutex_init(&mm->lock);
	spin_lock_init(&mm->page_table_lock);
	mm->users = 1;
	INIT_LIST_HEAD(&mm->vmas);
	mm->mmap_base = MMAP_BASE;
	return mm;
}

static struct page *anon_page_alloc(gfp_t gfp)
{
	struct page *page = alloc_page(GFP_KERNEL | gfp);

	if (!page)
		return NULL;
	if (mem_cgroup_charge(page, GFP_KERNEL)) {
		__free_page(page);
		return NULL;
	}
	mod_page_state(page, NR_ANON_MAPPED, 1);
	return page;
}

/* A mapping of a private page gone: the last one frees it. */
static void anon_page_put(struct page *page)
{
	if (!put_page_testzero(page))
		return;
	mod_page_state(page, NR_ANON_MAPPED, -1);
	mem_cgroup_uncharge(page);
	free_unref_page(page, 0);
}

/* Is the private page at va mapped by another program too (copy-on-write)? */
static bool page_cow_shared(struct mm_struct *mm, u64 va)
{
	unsigned int prot;
	u64 phys = user_lookup_page(mm->pgd, va, &prot);

	return phys && page_count(pfn_to_page(phys >> PAGE_SHIFT)) > 1;
}

/*
 * Pages whose entries are gone, released together: once every CPU has dropped its
 * translations of them when other threads may run on the address space (one thread: its
 * own CPU's went with each entry).
 */
struct unmap_batch {
	struct mm_struct *mm;
	bool shared; /* page-cache pages: a reference and a map count to drop */
	unsigned int n;
	struct page *pages[32];
};

static void unmap_batch_release(struct unmap_batch *b, u64 start, u64 end)
{
	if (b->n && READ_ONCE(b->mm->users) > 1)
		flush_tlb_user_range(start, end);
	for (unsigned int i = 0; i < b->n; i++) {
		if (b->shared) {
			page_mapcount_dec(b->pages[i]);
			put_page(b->pages[i]);
		} else {
			anon_page_put(b->pages[i]);
		}
	}
	b->n = 0;
}

/* [start, end) of v's pages unmapped (freed if private; left in the cache if shared). */
static void unmap_pages(struct vm_area_struct *v, u64 start, u64 end)
{
	struct unmap_batch b = { .mm = v->mm, .shared = v->shared };
	u64 from = start;

	for (u64 va = start; va < end; va += PAGE_SIZE) {
		u64 phys;

		if (v->shared)
			spin_lock(&b.mm->page_table_lock);
		phys = user_unmap_page(b.mm->pgd, va);
		if (v->shared)
			spin_unlock(&b.mm->page_table_lock);
		if (!phys)
			continue;
		dec_mm_counter(b.mm);
		b.pages[b.n++] = pfn_to_page(phys >> PAGE_SHIFT);
		if (b.n == ARRAY_SIZE(b.pages)) {
			unmap_batch_release(&b, from, va + PAGE_SIZE);
			from = va + PAGE_SIZE;
		}
	}
	unmap_batch_release(&b, from, end);
}

void mm_zap(struct mm_struct *mm, u64 start, u64 end)
{
	struct vm_area_struct *v;

	list_for_each_entry(v, &mm->vmas, node) {
		if (v->start < end && v->end > start)
			unmap_pages(v, max(v->start, start), min(v->end, end));
	}
}

static void vma_free(struct vm_area_struct *v)
{
	list_del(&v->node);
	if (v->shared)
		vma_unlink_file(v);
	if (v->file)
		fput(v->file);
	kfree(v);
}

static void mm_free(struct mm_struct *mm);

void mm_get(struct mm_struct *mm)
{
	__atomic_add_fetch(&mm->users, 1, __ATOMIC_RELAXED);
}

void mm_put(struct mm_struct *mm)
{
	if (!__atomic_sub_fetch(&mm->users, 1, __ATOMIC_ACQ_REL))
		mm_free(mm);
}

static void mm_free(struct mm_struct *mm)
{
	struct vm_area_struct *v, *n;

	list_for_each_entry_safe(v, n, &mm->vmas, node) {
		unmap_pages(v, v->start, v->end);
		vma_free(v);
	}
	WARN_ON_ONCE(get_mm_counter(mm));
	user_pgd_free(mm->pgd);
	kfree(mm);
}

/*
 * A shared page of the parent's mapped in the child too, read-only: the child's first store
 * faults and dirties it (were it writable, writeback could clean it unseen in between).
 */
static int share_page(struct mm_struct *mm, struct mm_struct *old, u64 va)
{
	unsigned int prot;
	struct page *page;
	u64 phys;
	int err = user_pte_prepare(mm->pgd, va);

	if (err)
		return err;
	spin_lock(&old->page_table_lock);
	phys = user_lookup_page(old->pgd, va, &prot);
	page = phys ? pfn_to_page(phys >> PAGE_SHIFT) : NULL;
	if (page) {
		get_page(page);
		page_mapcount_inc(page);
	}
	spin_unlock(&old->page_table_lock);
	if (!page)
		return 0;
	spin_lock(&mm->page_table_lock);
	BUG_ON(user_map_page(mm->pgd, va, phys, prot & ~UPROT_WRITE));
	inc_mm_counter(mm);
	spin_unlock(&mm->page_table_lock);
	return 0;
}

/*
 * A private page of the parent's mapped in the child too, read-only in both: the first
 * store on either side faults and copies it (fault_private()). Under the parent's lock,
 * which also covers its private entries.
 */
static int share_private_page(struct mm_struct *mm, struct mm_struct *old, u64 va)
{
	unsigned int prot;
	u64 phys = user_lookup_page(old->pgd, va, &prot);
	struct page *page = phys ? pfn_to_page(phys >> PAGE_SHIFT) : NULL;
	int err;

	if (!page)
		return 0;
	if (prot & UPROT_WRITE)
		user_protect_page(old->pgd, va, prot & ~UPROT_WRITE);
	get_page(page);
	err = user_map_page(mm->pgd, va, phys, prot & ~UPROT_WRITE);
	if (err) {
		anon_page_put(page);
		return err;
	}
	inc_mm_counter(mm);
	return 0;
}

/* v's pages shared with mm's tables (the same addresses; private ones copy-on-write). */
static int copy_pages(struct mm_struct *mm, struct mm_struct *old, struct vm_area_struct *v)
{
	for (u64 va = v->start; va < v->end; va += PAGE_SIZE) {
		int err = v->shared ? share_page(mm, old, va) : share_private_page(mm, old, va);

		if (err)
			return err;
	}
	return 0;
}

static int dup_areas(struct mm_struct *mm, struct mm_struct *old)
{
	struct vm_area_struct *v, *nv;

	list_for_each_entry(v, &old->vmas, node) {
		nv = kmalloc(sizeof(*nv), GFP_KERNEL);
		if (!nv)
			return -ENOMEM;
		*nv = *v;
		nv->mm = mm;
		if (nv->file)
			get_file(nv->file);
		if (nv->shared)
			vma_link_file(nv);
		list_add_tail(&nv->node, &mm->vmas);
		if (copy_pages(mm, old, nv))
			return -ENOMEM;
	}
	return 0;
}

struct mm_struct *mm_dup(struct mm_struct *old)
{
	struct mm_struct *mm = mm_alloc();
	int err;

	if (!mm)
		return NULL;
	mutex_lock(&old->lock);
	mm->start_brk = old->start_brk;
	mm->brk = old->brk;
	mm->mmap_base = old->mmap_base;
	err = dup_areas(mm, old);
	/* the parent's other threads drop the writable translations of what is shared now */
	if (READ_ONCE(old->users) > 1)
		flush_tlb_user_range(0, 0);
	mutex_unlock(&old->lock);
	if (err) {
		mm_put(mm);
		return NULL;
	}
	return mm;
}

static struct vm_area_struct *find_vma(struct mm_struct *mm, u64 addr)
{
	struct vm_area_struct *v;

	list_for_each_entry(v, &mm->vmas, node) {
		if (addr < v->end)
			return addr >= v->start ? v : NULL;
	}
	return NULL;
}

bool mm_shared_file_pos(struct mm_struct *mm, u64 addr, struct address_space **mapping, u64 *pos)
{
	struct vm_area_struct *v;
	bool shared;

	mutex_lock(&mm->lock);
	v = find_vma(mm, addr);
	shared = v && v->shared && v->file;
	if (shared) {
		*mapping = v->file->f_mapping;
		*pos = v->file_off + (addr - v->start);
	}
	mutex_unlock(&mm->lock);
	return shared;
}

/* Split v at addr (inside it): v keeps [start, addr), the new area [addr, end). */
static struct vm_area_struct *split_vma(struct vm_area_struct *v, u64 addr)
{
	struct vm_area_struct *tail = kmalloc(sizeof(*tail), GFP_KERNEL);

	if (!tail)
		return NULL;
	*tail = *v;
	tail->start = addr;
	tail->file_off = v->file_off + (addr - v->start);
	if (tail->file)
		get_file(tail->file);
	if (tail->shared)
		vma_link_file(tail);
	v->end = addr;
	list_add(&tail->node, &v->node);
	return tail;
}

/* Make area boundaries at start and end, so that whole areas cover [start, end). */
static int split_at(struct mm_struct *mm, u64 start, u64 end)
{
	struct vm_area_struct *v;

	list_for_each_entry(v, &mm->vmas, node) {
		u64 cut = v->start < start && start < v->end ? start :
			  v->start < end && end < v->end     ? end :
							       0;
		if (cut && !split_vma(v, cut))
			return -ENOMEM;
	}
	return 0;
}

int mm_unmap(struct mm_struct *mm, u64 start, u64 end)
{
	struct vm_area_struct *v, *n;
	int err = split_at(mm, start, end);

	if (err)
		return err;
	list_for_each_entry_safe(v, n, &mm->vmas, node) {
		if (v->start >= start && v->end <= end) {
			unmap_pages(v, v->start, v->end);
			vma_free(v);
		}
	}
	return 0;
}

int mm_protect(struct mm_struct *mm, u64 start, u64 end, unsigned int prot)
{
	struct vm_area_struct *v;
	u64 covered = 0;
	int err;

	list_for_each_entry(v, &mm->vmas, node) {
		if (v->start < end && v->end > start)
			covered += min(v->end, end) - max(v->start, start);
	}
	if (covered != end - start)
		return -ENOMEM; /* Linux: a hole in the range */
	err = split_at(mm, start, end);
	if (err)
		return err;
	list_for_each_entry(v, &mm->vmas, node) {
		if (v->start < start || v->end > end)
			continue;
		v->prot = prot;
		/*
		 * A shared page becomes writable at its next store's fault (page_mkwrite), and
		 * so does a private one another program maps too (copy-on-write).
		 */
		spin_lock(&mm->page_table_lock);
		for (u64 va = v->start; va < v->end; va += PAGE_SIZE) {
			bool wp = v->shared || page_cow_shared(mm, va);

			user_protect_page(mm->pgd, va, wp ? prot & ~UPROT_WRITE : prot);
		}
		spin_unlock(&mm->page_table_lock);
		if (READ_ONCE(mm->users) > 1) /* other threads' CPUs keep the old rights */
			flush_tlb_user_range(v->start, v->end);
	}
	return 0;
}

/* The area before start's place (NULL: the list's head), [start, end) left free. */
static struct vm_area_struct *area_before(struct mm_struct *mm, u64 end)
{
	struct vm_area_struct *v, *prev = NULL;

	list_for_each_entry(v, &mm->vmas, node) {
		if (v->start >= end)
			break;
		prev = v;
	}
	return prev;
}

static struct vm_area_struct *new_area(struct mm_struct *mm, u64 start, u64 end, unsigned int prot,
				       struct file *file, u64 file_off)
{
	struct vm_area_struct *v = kzalloc(sizeof(*v), GFP_KERNEL);

	if (!v)
		return NULL;
	v->mm = mm;
	v->start = start;
	v->end = end;
	v->prot = prot;
	v->file = file ? get_file(file) : NULL;
	v->file_off = file_off;
	return v;
}

int mm_map(struct mm_struct *mm, u64 start, u64 end, unsigned int prot, struct file *file,
	   u64 file_off, u64 file_end)
{
	struct vm_area_struct *v, *prev;
	int err = mm_unmap(mm, start, end);

	if (err)
		return err;
	prev = area_before(mm, end);
	/* an anonymous area right after another like it grows that one (the heap, stacks) */
	if (!file && prev && prev->end == start && !prev->file && prev->prot == prot) {
		prev->end = end;
		return 0;
	}
	v = new_area(mm, start, end, prot, file, file_off);
	if (!v)
		return -ENOMEM;
	v->file_end = file ? file_end : start;
	list_add(&v->node, prev ? &prev->node : &mm->vmas);
	return 0;
}

int mm_map_shared(struct mm_struct *mm, u64 start, u64 end, unsigned int prot, struct file *file,
		  u64 file_off)
{
	struct vm_area_struct *v, *prev;
	int err = mm_unmap(mm, start, end);

	if (err)
		return err;
	prev = area_before(mm, end);
	v = new_area(mm, start, end, prot, file, file_off);
	if (!v)
		return -ENOMEM;
	v->shared = true;
	vma_link_file(v);
	list_add(&v->node, prev ? &prev->node : &mm->vmas);
	return 0;
}

u64 mm_get_unmapped_area(struct mm_struct *mm, u64 len)
{
	struct vm_area_struct *v;
	u64 top = mm->mmap_base;

	list_for_each_entry_reverse(v, &mm->vmas, node) {
		if (v->start >= top)
			continue;
		if (top - MMAP_MIN_ADDR < len)
			return 0;
		if (v->end <= top - len)
			return top - len;
		top = v->start;
	}
	return top >= MMAP_MIN_ADDR + len ? top - len : 0;
}

/* The page's bytes from v's file (zeros past what it has), into page. */
static int fill_from_file(struct vm_area_struct *v, u64 va, void *page)
{
	loff_t pos = (loff_t)(v->file_off + (va - v->start));
	size_t len = (size_t)min(PAGE_SIZE, v->file_end - va);

	while (len) {
		ssize_t n = kernel_read(v->file, page, len, &pos);

		if (n < 0)
			return (int)n;
		if (n == 0)
			break; /* past the file's end: zeros, as Linux (which would SIGBUS) */
		page = (char *)page + n;
		len -= (size_t)n;
	}
	return 0;
}

static int fault_in(struct mm_struct *mm, struct vm_area_struct *v, u64 va)
{
	struct page *page = anon_page_alloc(__GFP_ZERO);
	int err = page ? 0 : -ENOMEM;

	if (!err && v->file && va < v->file_end)
		err = fill_from_file(v, va, page_address(page));
	if (!err)
		err = user_map_page(mm->pgd, va, page_to_phys(page), v->prot);
	if (err) {
		if (page)
			anon_page_put(page);
		return err;
	}
	inc_mm_counter(mm);
	return 0;
}

/*
 * A store into a private page mapped read-only in a writable area (Linux's do_wp_page()):
 * the page is this program's alone (reuse it) or shared since a fork (copy it). The old
 * translation leaves every CPU before the copy is mapped, so no thread of the program
 * goes on reading the page the other program may now change.
 */
static int wp_page(struct mm_struct *mm, struct vm_area_struct *v, u64 va, u64 phys)
{
	struct page *old = pfn_to_page(phys >> PAGE_SHIFT), *page;

	if (page_count(old) == 1) {
		user_protect_page(mm->pgd, va, v->prot);
		return 0;
	}
	page = anon_page_alloc(0);
	if (!page)
		return -ENOMEM;
	memcpy(page_address(page), phys_to_virt(phys), PAGE_SIZE);
	user_unmap_page(mm->pgd, va);
	if (READ_ONCE(mm->users) > 1)
		flush_tlb_user_range(va, va + PAGE_SIZE);
	BUG_ON(user_map_page(mm->pgd, va, page_to_phys(page), v->prot));
	anon_page_put(old);
	return 0;
}

static bool fault_allowed(const struct vm_area_struct *v, unsigned int error_code)
{
	if (error_code & PF_WRITE)
		return v->prot & UPROT_WRITE;
	if (error_code & PF_INSTR)
		return v->prot & UPROT_EXEC;
	return v->prot & UPROT_READ;
}

/*
 * A private page: made at its first touch; a store into a writable area's read-only page
 * is copy-on-write; a present one otherwise means another thread made it since this one
 * faulted (a spurious fault: go back and retry) or a protection fault.
 */
static int fault_private(struct mm_struct *mm, struct vm_area_struct *v, u64 va,
			 unsigned int error_code)
{
	unsigned int prot;
	u64 phys = user_lookup_page(mm->pgd, va, &prot);

	if (!phys)
		return fault_in(mm, v, va);
	if ((error_code & PF_WRITE) && !(prot & UPROT_WRITE))
		return v->prot & UPROT_WRITE ? wp_page(mm, v, va, phys) : -EACCES;
	if ((error_code & PF_INSTR) && !(prot & UPROT_EXEC))
		return -EACCES;
	return 0;
}

int handle_mm_fault(struct mm_struct *mm, u64 addr, unsigned int error_code)
{
	struct file *dirtied = NULL;
	struct vm_area_struct *v;
	int err;

	if (addr >= TASK_SIZE_MAX)
		return -EFAULT;
	count_vm_events(PGFAULT, 1);
	mutex_lock(&mm->lock);
	v = find_vma(mm, addr);
	if (!v) {
		err = -EFAULT;
	} else if (!fault_allowed(v, error_code)) {
		err = -EACCES;
	} else if (v->shared) {
		err = fault_shared(mm, v, addr & PAGE_MASK, error_code & PF_WRITE);
		if (!err && (error_code & PF_WRITE))
			dirtied = get_file(v->file);
	} else {
		err = fault_private(mm, v, addr & PAGE_MASK, error_code);
	}
	mutex_unlock(&mm->lock);
	/* as a write's: outside the program's lock (Linux drops mmap_lock for it too) */
	if (dirtied) {
		balance_dirty_pages_ratelimited(dirtied->f_mapping);
		fput(dirtied);
	}
	return err;
}

int mm_copy_to(struct mm_struct *mm, u64 va, const void *src, size_t len)
{
	if (!access_ok(va, len))
		return -EFAULT; /* a program's clone(CLONE_CHILD_SETTID) may name any address */
	while (len) {
		size_t off = va & ~PAGE_MASK, n = min(len, PAGE_SIZE - off);
		unsigned int prot;
		u64 phys = user_lookup_page(mm->pgd, va & PAGE_MASK, &prot);
		/* a store as the program's: a page it shares or has not dirtied faults first */
		int err = phys && (prot & UPROT_WRITE) ? 0 :
							 handle_mm_fault(mm, va, PF_WRITE | PF_USER);

		if (err)
			return err;
		phys = user_lookup_page(mm->pgd, va & PAGE_MASK, &prot);
		memcpy((char *)phys_to_virt(phys) + off, src, n);
		va += n;
		src = (const char *)src + n;
		len -= n;
	}
	return 0;
}

u64 mm_brk(struct mm_struct *mm, u64 brk)
{
	u64 old_end = PAGE_ALIGN(mm->brk), new_end = PAGE_ALIGN(brk);
	int err = 0;

	if (brk < mm->start_brk || brk >= mm->mmap_base)
		return mm->brk;
	mutex_lock(&mm->lock);
	if (new_end > old_end) {
		struct vm_area_struct *v;

		list_for_each_entry(v, &mm->vmas, node) {
			if (v->start < new_end && v->end > old_end)
				err = -ENOMEM; /* the heap would run into another area */
		}
		if (!err)
			err = mm_map(mm, old_end, new_end, UPROT_READ | UPROT_WRITE, NULL, 0, 0);
	} else if (new_end < old_end) {
		err = mm_unmap(mm, new_end, old_end);
	}
	if (!err)
		mm->brk = brk;
	mutex_unlock(&mm->lock);
	return mm->brk;
}
