/*
 * A radix tree from unsigned long indexes to pointers, with three marks (tags) per entry
 * and fast "next entry with mark M at or after index" searches. It is the page cache index
 * (mapping->i_pages), where the marks are the DIRTY, WRITEBACK and TOWRITE page tags.
 *
 * Locking is the caller's: every call that modifies the tree holds xa_lock (taken with
 * xa_lock_irqsave, because writeback completion clears marks in interrupt context) or the
 * owner's lock that stands for it, and so does every reader but one: xa_load() also runs
 * locklessly, under rcu_read_lock() if what it returns is to be used (Linux's rule), since
 * nodes are freed a grace period after they leave the tree.
 */
#ifndef CGWB_XARRAY_H
#define CGWB_XARRAY_H

#include <cgwb/spinlock.h>
#include <cgwb/gfp.h>
#include <cgwb/rcupdate.h>

#define XA_CHUNK_SHIFT 6
#define XA_CHUNK_SIZE (1UL << XA_CHUNK_SHIFT)
#define XA_CHUNK_MASK (XA_CHUNK_SIZE - 1)
#define XA_MAX_MARKS 3

typedef unsigned int xa_mark_t;
#define XA_MARK_0 0U
#define XA_MARK_1 1U
#define XA_MARK_2 2U
#define XA_PRESENT 8U /* xa_find: any entry, marked or not */

struct xa_node {
	unsigned char shift;  /* index bits below this node's slots */
	unsigned char offset; /* slot in the parent */
	unsigned char count;  /* non-empty slots */
	struct xa_node *parent;
	void *slots[XA_CHUNK_SIZE];
	u64 marks[XA_MAX_MARKS]; /* bit i: slot i holds a marked entry (or a node with one) */
	struct rcu_head rcu;     /* freed a grace period after it left the tree */
};

struct xarray {
	spinlock_t xa_lock;
	void *xa_head; /* an entry (tree of height 0: index 0 only) or a node */
	unsigned long nr_nodes;
	unsigned int head_marks; /* marks of the head entry when it is not a node */
};

/**
 * xa_init() - set up an empty xarray
 * @xa: the xarray
 *
 * Context: any context; never sleeps.
 */
void xa_init(struct xarray *xa);
#define xa_lock_irqsave(xa, flags) spin_lock_irqsave(&(xa)->xa_lock, flags)
#define xa_unlock_irqrestore(xa, flags) spin_unlock_irqrestore(&(xa)->xa_lock, flags)

/**
 * xa_load() - the entry at an index
 * @xa: the xarray
 * @index: the index
 *
 * Safe without xa_lock: each pointer is read once, so a concurrent grow, shrink or erase
 * is seen whole. A caller that uses what it returns holds rcu_read_lock() (the entry may
 * leave the tree at once) or the lock.
 *
 * Context: any context; never sleeps.
 * Return: the entry, or NULL.
 */
void *xa_load(struct xarray *xa, unsigned long index);
/**
 * xa_insert() - store an entry at an empty index
 * @xa: the xarray
 * @index: the index
 * @entry: the entry: not NULL, 4-byte aligned
 * @gfp: how to allocate the nodes; one that does not block under xa_lock
 *
 * Context: xa_lock (or the lock that stands for it) held.
 * Return: 0; -EEXIST if the index holds an entry; -ENOMEM if a node could not be
 * allocated (the tree is left without the entry).
 */
int xa_insert(struct xarray *xa, unsigned long index, void *entry, gfp_t gfp);

/*
 * Nodes for an insert that may not sleep under its lock, as Linux's xas_nomem(): on
 * -ENOMEM the caller drops the lock, fills the spares with a gfp that may sleep, and tries
 * again; the insert takes a spare wherever gfp fails. Enough for the deepest tree.
 */
#define XA_MAX_HEIGHT ((64 + XA_CHUNK_SHIFT - 1) / XA_CHUNK_SHIFT)
struct xa_spare {
	unsigned int nr;
	struct xa_node *nodes[XA_MAX_HEIGHT];
};
/**
 * xa_insert_spare() - store an entry at an empty index, with spare nodes
 * @xa: the xarray
 * @index: the index
 * @entry: the entry: not NULL, 4-byte aligned
 * @gfp: how to allocate the nodes under the lock (GFP_NOWAIT...)
 * @spare: nodes filled beforehand (xa_spare_fill()), taken wherever @gfp fails; or NULL
 *
 * Context: xa_lock (or the lock that stands for it) held.
 * Return: 0; -EEXIST if the index holds an entry; -ENOMEM if a node could be neither
 * allocated nor taken from @spare: drop the lock, xa_spare_fill() with a gfp that may
 * sleep, and try again.
 */
int xa_insert_spare(struct xarray *xa, unsigned long index, void *entry, gfp_t gfp,
		    struct xa_spare *spare);
/**
 * xa_spare_fill() - top spare nodes up to XA_MAX_HEIGHT
 * @spare: the spares
 * @gfp: how to allocate them
 *
 * Context: as kmalloc() with @gfp; not under xa_lock with a gfp that may sleep.
 * Return: 0, or -ENOMEM (those allocated are kept).
 */
int xa_spare_fill(struct xa_spare *spare, gfp_t gfp);
/**
 * xa_spare_free() - free the spare nodes an insert did not take
 * @spare: the spares
 *
 * Context: any context; never sleeps.
 */
void xa_spare_free(struct xa_spare *spare);
/**
 * xa_erase() - remove the entry at an index
 * @xa: the xarray
 * @index: the index
 *
 * Its marks go with it; nodes left empty leave the tree and are freed a grace period
 * later, for the lockless readers.
 *
 * Context: xa_lock (or the lock that stands for it) held; never sleeps.
 * Return: the entry removed, or NULL if there was none.
 */
void *xa_erase(struct xarray *xa, unsigned long index);
/**
 * xa_replace() - replace the entry at an index
 * @xa: the xarray
 * @index: the index, which holds an entry
 * @entry: the new entry: not NULL, 4-byte aligned
 *
 * The marks stay; a lockless reader sees the old entry or the new one.
 *
 * Context: xa_lock (or the lock that stands for it) held; never sleeps.
 * Return: the old entry, or NULL if there was none (nothing is stored then).
 */
void *xa_replace(struct xarray *xa, unsigned long index, void *entry);

/**
 * xa_set_mark() - mark the entry at an index
 * @xa: the xarray
 * @index: the index; nothing is done if it holds no entry
 * @mark: XA_MARK_0, XA_MARK_1 or XA_MARK_2
 *
 * The mark is propagated up the tree, for xa_find() and xa_marked().
 *
 * Context: xa_lock (or the lock that stands for it) held; never sleeps.
 */
void xa_set_mark(struct xarray *xa, unsigned long index, xa_mark_t mark);
/**
 * xa_clear_mark() - clear a mark of the entry at an index
 * @xa: the xarray
 * @index: the index
 * @mark: XA_MARK_0, XA_MARK_1 or XA_MARK_2
 *
 * Context: xa_lock (or the lock that stands for it) held; never sleeps.
 */
void xa_clear_mark(struct xarray *xa, unsigned long index, xa_mark_t mark);
/**
 * xa_get_mark() - does the entry at an index carry a mark?
 * @xa: the xarray
 * @index: the index
 * @mark: XA_MARK_0, XA_MARK_1 or XA_MARK_2
 *
 * Context: xa_lock (or the lock that stands for it) held.
 * Return: true if an entry is there with @mark.
 */
bool xa_get_mark(struct xarray *xa, unsigned long index, xa_mark_t mark);
/**
 * xa_marked() - does any entry carry a mark?
 * @xa: the xarray
 * @mark: the mark
 *
 * Context: xa_lock held for an exact answer; a lockless read may be stale.
 * Return: true if some entry carries @mark.
 */
bool xa_marked(const struct xarray *xa, xa_mark_t mark);
static inline bool xa_empty(const struct xarray *xa)
{
	return xa->xa_head == NULL;
}

/**
 * xa_find() - the first entry at or after an index that passes a filter
 * @xa: the xarray
 * @index: where to start; set to the entry's index when one is found
 * @max: the last index to look at
 * @filter: a mark, or XA_PRESENT for any entry
 *
 * Context: xa_lock (or the lock that stands for it) held; never sleeps.
 * Return: the entry, or NULL if none in [*@index, @max] passes.
 */
void *xa_find(struct xarray *xa, unsigned long *index, unsigned long max, xa_mark_t filter);

/* Visit entries in [start, max] with filter, in index order (entry may be erased by fn). */
#define xa_for_each_range(xa, index, entry, start, max, filter)                \
	for (index = (start), entry = xa_find(xa, &index, max, filter); entry; \
	     entry = (index == ~0UL || ++index > (max)) ? NULL : xa_find(xa, &index, max, filter))

/* Consistency check for tests: counts and marks agree with the entries below them. */
int xa_check(struct xarray *xa);

#endif
