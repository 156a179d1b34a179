/*
 * Shared file mappings (Linux's mm/memory.c fault path for them, filemap_page_mkwrite()
 * and mm/rmap.c): a program's stores go straight into page-cache pages, and writeback sees
 * them as it sees write(2)'s.
 *
 * - A fault maps the file's page-cache page (read in if need be), read-only unless the
 *   fault is a write. A read fault also maps the pages around it that are cached and
 *   uptodate, read-only, in the 64 KiB of addresses around the fault (Linux's
 *   do_fault_around() with its default fault_around_bytes): a program reading a mapping
 *   in order faults once per 64 KiB, once per large folio, not once per page. The first
 *   store to a clean page faults: page_mkwrite() has the file
 *   system make the page writable as write(2) would (write_begin/write_end over the part
 *   inside the file: blocks allocated or reserved, the page dirtied and accounted to the
 *   inode's wb and the memcg), then the entry is made writable, and the fault path runs
 *   balance_dirty_pages_ratelimited() like a write.
 * - Writeback write-protects a page before cleaning it (clear_page_dirty_for_io() calls
 *   page_mkclean(): every entry found through the file's list of shared areas), so the next
 *   store faults and dirties it again. Truncation removes the entries (try_to_unmap()).
 * - Each entry holds a page reference and counts in page->_mapcount: reclaim and
 *   invalidation leave mapped pages alone. No stable pages: no device here asks for them
 *   (the queue's stable_writes is 0), so a store to a page under writeback does not wait,
 *   as on Linux with the same device.
 *
 * Locks, in order: mm->lock (the areas; held by the fault), the page lock, the mapping's
 * i_mmap_lock (its list of shared areas), mm->page_table_lock (a program's entries). The
 * reverse map takes the last two only, so writeback (page locked) never waits for a
 * program's mm->lock. An entry that becomes writable does so with the page locked and
 * dirty, so it cannot slip between page_mkclean() and the page's cleaning.
 */
#include <cgwb/mm.h>
#include <cgwb/fs.h>
#include <cgwb/file.h>
#include <cgwb/pagemap.h>
#include <cgwb/rmap.h>
#include <cgwb/writeback.h>
#include <cgwb/errno.h>
#include <cgwb/bug.h>
#include "internal.h"

#define FAULT_AROUND_PAGES 16 /* Linux's default fault_around_bytes: 64 KiB */

void vma_link_file(struct vm_area_struct *v)
{
	struct address_space *mapping = v->file->f_mapping;

	spin_lock(&mapping->i_mmap_lock);
	list_add_tail(&v->i_mmap_node, &mapping->i_mmap);
	spin_unlock(&mapping->i_mmap_lock);
}

void vma_unlink_file(struct vm_area_struct *v)
{
	struct address_space *mapping = v->file->f_mapping;

	spin_lock(&mapping->i_mmap_lock);
	list_del(&v->i_mmap_node);
	spin_unlock(&mapping->i_mmap_lock);
}

static u64 vma_pgoff(const struct vm_area_struct *v, u64 va)
{
	return (v->file_off + (va - v->start)) >> PAGE_SHIFT;
}

/* Where v maps page, or 0 if it does not cover the page's offset. */
static u64 vma_address(const struct vm_area_struct *v, const struct page *page)
{
	u64 off = (u64)page_index(page) << PAGE_SHIFT;

	if (off < v->file_off || off - v->file_off >= v->end - v->start)
		return 0;
	return v->start + (off - v->file_off);
}

/* ---------------------------------------------------------------- the reverse map */

/* Under v's page-table lock: change the entry at va if it maps page. */
static bool rmap_one(struct vm_area_struct *v, u64 va, struct page *page, bool unmap)
{
	struct mm_struct *mm = v->mm;
	unsigned int prot;
	bool changed = false;

	spin_lock(&mm->page_table_lock);
	if (user_lookup_page(mm->pgd, va, &prot) == page_to_phys(page)) {
		if (unmap) {
			user_unmap_page(mm->pgd, va);
			page_mapcount_dec(page);
			dec_mm_counter(mm);
			put_page(page); /* the cache holds another: not the last */
			changed = true;
		} else if (prot & UPROT_WRITE) {
			user_protect_page(mm->pgd, va, prot & ~UPROT_WRITE);
			changed = true;
		}
	}
	spin_unlock(&mm->page_table_lock);
	return changed;
}

static void rmap_walk(struct page *page, bool unmap)
{
	struct address_space *mapping = page_folio(page)->mapping;
	struct vm_area_struct *v;
	u64 flush_va = 0;
	int changed = 0;

	if (!mapping)
		return;
	spin_lock(&mapping->i_mmap_lock);
	list_for_each_entry(v, &mapping->i_mmap, i_mmap_node) {
		u64 va = vma_address(v, page);

		if (va && rmap_one(v, va, page, unmap)) {
			changed++;
			flush_va = va;
		}
	}
	spin_unlock(&mapping->i_mmap_lock);
	/* other CPUs may hold the old entries: all of them drop them before the page is used */
	if (changed == 1)
		flush_tlb_user_range(flush_va, flush_va + PAGE_SIZE);
	else if (changed)
		flush_tlb_user_range(0, 0); /* several addresses: everything */
}

static void rmap_mkclean(struct page *page)
{
	rmap_walk(page, false);
}

static void rmap_unmap(struct page *page)
{
	rmap_walk(page, true);
}

static const struct rmap_ops shared_rmap_ops = {
	.mkclean = rmap_mkclean,
	.unmap = rmap_unmap,
};

void shared_mapping_init(void)
{
	rmap_register(&shared_rmap_ops);
}

/* ---------------------------------------------------------------- faults */

/*
 * Make the page at index writable through a mapping, as write(2) would: write_begin and
 * write_end over the part inside the file. The page comes back locked and dirty, with a
 * reference; ERR_PTR(-ENXIO) past the end of the file (SIGBUS), -EAGAIN if it
 * was truncated meanwhile (fault again).
 */
static struct page *page_mkwrite(struct file *file, pgoff_t index)
{
	struct address_space *mapping = file->f_mapping;
	struct inode *inode = mapping->host;
	loff_t pos = (loff_t)index << PAGE_SHIFT;
	struct page *page;
	void *fsdata = NULL;
	unsigned int len;
	int err;

	down_write(&inode->i_rwsem);
	if (pos >= inode->i_size) {
		up_write(&inode->i_rwsem);
		return ERR_PTR(-ENXIO);
	}
	len = (unsigned int)min((loff_t)PAGE_SIZE, inode->i_size - pos);
	err = mapping->a_ops->write_begin(file, mapping, pos, len, &page, &fsdata);
	if (!err && !PageUptodate(page)) {
		/* not the page the caller read: a whole-page write_begin would not read it */
		mapping->a_ops->write_end(file, mapping, pos, len, 0, page, fsdata);
		err = -EAGAIN;
	} else if (!err) {
		get_page(page); /* write_end drops write_begin's */
		err = mapping->a_ops->write_end(file, mapping, pos, len, len, page, fsdata);
		if (err < 0)
			put_page(page);
		else
			file_update_time(file);
	}
	up_write(&inode->i_rwsem);
	if (err < 0)
		return ERR_PTR(err);
	/* writeback may have cleaned it since write_end unlocked it: dirty it again, locked */
	lock_page(page);
	if (page_folio(page)->mapping != mapping) {
		unlock_page(page);
		put_page(page);
		return ERR_PTR(-EAGAIN);
	}
	set_page_dirty(page);
	return page;
}

/* The entry at va maps page with prot (mm->lock held, tables prepared); takes its reference. */
static void set_entry(struct vm_area_struct *v, u64 va, struct page *page, unsigned int prot)
{
	struct mm_struct *mm = v->mm;
	struct page *old = NULL;
	unsigned int old_prot;
	u64 phys;

	spin_lock(&mm->page_table_lock);
	phys = user_lookup_page(mm->pgd, va, &old_prot);
	if (phys == page_to_phys(page)) {
		user_protect_page(mm->pgd, va, prot);
		spin_unlock(&mm->page_table_lock);
		put_page(page); /* the entry holds one already */
		return;
	}
	if (phys) { /* a page truncated and read again since: the old one goes */
		old = pfn_to_page(phys >> PAGE_SHIFT);
		user_unmap_page(mm->pgd, va);
		page_mapcount_dec(old);
		dec_mm_counter(mm);
	}
	BUG_ON(user_map_page(mm->pgd, va, page_to_phys(page), prot));
	page_mapcount_inc(page);
	inc_mm_counter(mm);
	spin_unlock(&mm->page_table_lock);
	if (old)
		put_page(old);
}

/*
 * The entry at va maps page read-only, unless it maps something already (fault-around
 * leaves what is there as it is). Takes the page's reference if it maps it.
 */
static bool set_entry_if_none(struct vm_area_struct *v, u64 va, struct page *page)
{
	struct mm_struct *mm = v->mm;
	unsigned int old_prot;
	bool set;

	spin_lock(&mm->page_table_lock);
	set = !user_lookup_page(mm->pgd, va, &old_prot);
	if (set) {
		BUG_ON(user_map_page(mm->pgd, va, page_to_phys(page), v->prot & ~UPROT_WRITE));
		page_mapcount_inc(page);
		inc_mm_counter(mm);
	}
	spin_unlock(&mm->page_table_lock);
	return set;
}

/*
 * Map what the cache holds around a read fault at va (Linux's filemap_map_pages()): the
 * pages of the FAULT_AROUND_PAGES-aligned window in v, cached, uptodate, inside the file,
 * none of them waited for (a locked page is left to its own fault). The window lies in
 * one page table, which the fault prepared.
 */
static void fault_around(struct vm_area_struct *v, u64 va)
{
	struct address_space *mapping = v->file->f_mapping;
	const u64 window = FAULT_AROUND_PAGES * PAGE_SIZE;
	u64 start = max(va & ~(window - 1), v->start), end = min(start + window, v->end);

	for (u64 a = start; a < end; a += PAGE_SIZE) {
		pgoff_t index = (pgoff_t)vma_pgoff(v, a);
		struct page *page;
		bool mapped = false;

		if (a == va)
			continue;
		page = find_get_page(mapping, index);
		if (!page)
			continue;
		/* inside the file once locked: truncation cuts i_size first, then each page */
		if (trylock_page(page)) {
			if (page_folio(page)->mapping == mapping && PageUptodate(page) &&
			    ((loff_t)index << PAGE_SHIFT) < mapping->host->i_size)
				mapped = set_entry_if_none(v, a, page);
			unlock_page(page);
		}
		if (!mapped)
			put_page(page);
	}
}

static int fault_shared_once(struct vm_area_struct *v, u64 va, bool write)
{
	struct address_space *mapping = v->file->f_mapping;
	pgoff_t index = (pgoff_t)vma_pgoff(v, va);
	struct page *page, *locked;

	if (((loff_t)index << PAGE_SHIFT) >= mapping->host->i_size)
		return -ENXIO; /* past the end: SIGBUS */
	page = filemap_fault_page(v->file, index);
	if (IS_ERR(page))
		return (int)PTR_ERR(page);
	if (!write) {
		set_entry(v, va, page, v->prot & ~UPROT_WRITE);
		fault_around(v, va);
		return 0;
	}
	locked = page_mkwrite(v->file, index); /* the page read stays referenced meanwhile */
	put_page(page);
	if (IS_ERR(locked))
		return (int)PTR_ERR(locked);
	set_entry(v, va, locked, v->prot);
	unlock_page(locked);
	return 0;
}

int fault_shared(struct mm_struct *mm, struct vm_area_struct *v, u64 va, bool write)
{
	int err = user_pte_prepare(mm->pgd, va);

	for (int tries = 0; !err && tries < 8; tries++) {
		err = fault_shared_once(v, va, write);
		if (err != -EAGAIN)
			return err;
		err = 0;
	}
	return err ? err : -EFAULT;
}
