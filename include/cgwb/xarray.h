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

void xa_init(struct xarray *xa);
#define xa_lock_irqsave(xa, flags) spin_lock_irqsave(&(xa)->xa_lock, flags)
#define xa_unlock_irqrestore(xa, flags) spin_unlock_irqrestore(&(xa)->xa_lock, flags)

/* The entry at index or NULL; safe without xa_lock (see above). */
void *xa_load(struct xarray *xa, unsigned long index);
/* Store at an empty index: 0, -EEXIST, or -ENOMEM (nodes come from gfp; atomic under lock). */
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
int xa_insert_spare(struct xarray *xa, unsigned long index, void *entry, gfp_t gfp,
		    struct xa_spare *spare);
/* Top the spares up to XA_MAX_HEIGHT: 0, or -ENOMEM (those allocated are kept). */
int xa_spare_fill(struct xa_spare *spare, gfp_t gfp);
/* Free what the insert did not take. */
void xa_spare_free(struct xa_spare *spare);
/* Remove and return the entry (NULL if none); its marks go with it. */
void *xa_erase(struct xarray *xa, unsigned long index);
/* Replace an existing entry, keeping its marks; returns the old one. */
void *xa_replace(struct xarray *xa, unsigned long index, void *entry);

void xa_set_mark(struct xarray *xa, unsigned long index, xa_mark_t mark);
void xa_clear_mark(struct xarray *xa, unsigned long index, xa_mark_t mark);
bool xa_get_mark(struct xarray *xa, unsigned long index, xa_mark_t mark);
/* Any entry carrying mark? */
bool xa_marked(const struct xarray *xa, xa_mark_t mark);
static inline bool xa_empty(const struct xarray *xa)
{
	return xa->xa_head == NULL;
}

/*
 * First entry at an index in [*index, max] that has filter (a mark, or XA_PRESENT for any
 * entry); sets *index to it and returns it, or NULL.
 */
void *xa_find(struct xarray *xa, unsigned long *index, unsigned long max, xa_mark_t filter);

/* Visit entries in [start, max] with filter, in index order (entry may be erased by fn). */
#define xa_for_each_range(xa, index, entry, start, max, filter)                \
	for (index = (start), entry = xa_find(xa, &index, max, filter); entry; \
	     entry = (index == ~0UL || ++index > (max)) ? NULL : xa_find(xa, &index, max, filter))

/* Consistency check for tests: counts and marks agree with the entries below them. */
int xa_check(struct xarray *xa);

#endif
