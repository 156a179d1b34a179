/*
 * The writeback_control's cgroup side (shared/spec/writeback.md 1.8, 6.1, 6.3, 7).
 *
 * Cgroup writeback applies to an inode only when the memory and io controllers are in use,
 * the bdi does writeback and the filesystem opted in (SB_I_CGROUPWB). Until the memory and
 * io controllers exist nothing qualifies: every inode uses its bdi's root wb, wbc->wb stays
 * NULL during writeback, bios keep the default (root) io cgroup, and no owner votes are
 * taken. Filesystems still call every hook at the right places, so turning the controllers
 * on changes nothing in them.
 */
#include <cgwb/fs.h>
#include <cgwb/backing-dev.h>
#include <cgwb/writeback.h>
#include <cgwb/bio.h>

static bool inode_cgwb_enabled(struct inode *inode)
{
	(void)inode; /* no memory/io controllers yet */
	return false;
}

void wbc_attach_and_unlock_inode(struct writeback_control *wbc, struct inode *inode)
{
	if (!inode_cgwb_enabled(inode)) {
		spin_unlock(&inode->i_lock);
		return;
	}
	wbc->wb = inode_to_wb(inode);
	wbc->inode = inode;
	wbc->wb_bytes = wbc->wb_lcand_bytes = wbc->wb_tcand_bytes = 0;
	wbc->wb_tcand_id = 0;
	wbc->wb_lcand_id = inode->i_wb_frn_winner;
	wb_get(wbc->wb);
	spin_unlock(&inode->i_lock);
}

void wbc_attach_fdatawrite_inode(struct writeback_control *wbc, struct inode *inode)
{
	spin_lock(&inode->i_lock);
	inode_attach_wb(inode, NULL);
	wbc_attach_and_unlock_inode(wbc, inode);
}

void wbc_detach_inode(struct writeback_control *wbc)
{
	if (!wbc->wb)
		return;
	wb_put(wbc->wb);
	wbc->wb = NULL;
}

void wbc_init_bio(struct writeback_control *wbc, struct bio *bio)
{
	if (wbc->wb)
		bio->bi_blkcg = wbc->wb->blkcg;
}

void wbc_account_cgroup_owner(struct writeback_control *wbc, struct page *page, size_t bytes)
{
	if (!wbc->wb || wbc->no_cgroup_owner)
		return;
	(void)page;
	wbc->wb_bytes += bytes;
}
