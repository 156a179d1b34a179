/*
 * The writeback_control's cgroup side (shared/spec/writeback.md 1.8, 6.1, 6.3, 7).
 *
 * For an inode with cgroup writeback (its bdi does writeback and its filesystem set
 * SB_I_CGROUPWB), each writeback round runs with wbc->wb = the inode's wb: the bios it
 * builds carry that wb's io cgroup (wbc_init_bio), and every page written is reported with
 * the memcg it is charged to (wbc_account_cgroup_owner), the input of foreign-owner
 * detection. Otherwise wbc->wb stays NULL and bios keep the submitter's association.
 */
#include <cgwb/fs.h>
#include <cgwb/backing-dev.h>
#include <cgwb/memcontrol.h>
#include <cgwb/blk-cgroup.h>
#include <cgwb/writeback.h>
#include <cgwb/bio.h>

void wbc_attach_and_unlock_inode(struct writeback_control *wbc, struct inode *inode)
{
	struct bdi_writeback *wb;

	if (!inode_cgwb_enabled(inode)) {
		spin_unlock(&inode->i_lock);
		return;
	}
	wb = inode_to_wb(inode);
	wb_get(wb);
	wbc->wb = wb;
	wbc->inode = inode;
	wbc->wb_id = mem_cgroup_id(wb_memcg(wb));
	wbc->wb_lcand_id = inode->i_wb_frn_winner;
	wbc->wb_tcand_id = 0;
	wbc->wb_bytes = wbc->wb_lcand_bytes = wbc->wb_tcand_bytes = 0;
	spin_unlock(&inode->i_lock);

	/*
	 * A wb killed while its memcg lives means the io cgroup association changed: move the
	 * inode to the memcg's current wb.
	 */
	if (wb_dying(wb) && !css_is_dying(&wb_memcg(wb)->css))
		inode_switch_wbs(inode, wbc->wb_id);
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
	/* the round's owner vote is decided here once foreign detection exists (6.4) */
	wb_put(wbc->wb);
	wbc->wb = NULL;
}

void wbc_init_bio(struct writeback_control *wbc, struct bio *bio)
{
	struct blkcg *blkcg;

	if (!wbc->wb)
		return;
	/* submission takes the bio's own css reference (bio_associate_blkcg) */
	blkcg = wb_blkcg(wbc->wb);
	bio_release_blkcg(bio);
	bio->bi_blkcg = blkcg;
}

void wbc_account_cgroup_owner(struct writeback_control *wbc, struct page *page, size_t bytes)
{
	struct mem_cgroup *memcg;
	int id;

	if (!wbc->wb || wbc->no_cgroup_owner)
		return;
	memcg = page_memcg(page);
	if (css_is_dying(&memcg->css))
		return; /* dead groups do not vote */
	id = mem_cgroup_id(memcg);
	if (id == wbc->wb_id) {
		wbc->wb_bytes += bytes;
		return;
	}
	if (id == wbc->wb_lcand_id)
		wbc->wb_lcand_bytes += bytes;
	/* Boyer-Moore majority vote among the foreign writers */
	if (!wbc->wb_tcand_bytes)
		wbc->wb_tcand_id = id;
	if (id == wbc->wb_tcand_id)
		wbc->wb_tcand_bytes += bytes;
	else
		wbc->wb_tcand_bytes -= min(bytes, wbc->wb_tcand_bytes);
}
