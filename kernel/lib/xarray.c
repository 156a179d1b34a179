/*
 * Radix tree with marks (portable). Internal nodes are stored in slots tagged with bit 1,
 * so entries must be at least 4-byte aligned pointers (pages are). A node's mark bit for a
 * slot is set iff that slot's entry, or some entry below it, carries the mark; searches
 * use those bitmaps to skip whole subtrees. Empty nodes leave the tree at once and the tree
 * shrinks when only slot 0 of the root is used, so its height always fits its largest index.
 *
 * Readers under RCU (Linux's radix tree rules): xa_load() may run without xa_lock, against
 * a writer on another CPU. So a node or entry is published with rcu_assign_pointer() once
 * it is filled in, slots and the head are read once each with rcu_dereference(), a node's
 * shift never changes, and a node that leaves the tree is freed only after a grace period
 * (node_free_rcu, as radix_tree_node_rcu_free()): a reader that reached it still finds the
 * slots it held when it was unlinked. Marks, counts and parents are the writers' alone.
 */
#include <cgwb/xarray.h>
#include <cgwb/slab.h>
#include <cgwb/rcupdate.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include <cgwb/printk.h>
#include <cgwb/bug.h>

static bool xa_is_node(const void *entry)
{
	return ((uintptr_t)entry & 3) == 2;
}

static struct xa_node *xa_to_node(const void *entry)
{
	return (struct xa_node *)((uintptr_t)entry - 2);
}

static void *xa_mk_node(const struct xa_node *node)
{
	return (void *)((uintptr_t)node | 2);
}

void xa_init(struct xarray *xa)
{
	spin_lock_init(&xa->xa_lock);
	xa->xa_lock.name = "xa_lock";
	xa->xa_head = NULL;
	xa->nr_nodes = 0;
	xa->head_marks = 0;
}

/* A new node: from gfp, or else from the caller's spares (filled where it could sleep). */
static struct xa_node *node_alloc(struct xarray *xa, unsigned int shift, gfp_t gfp,
				  struct xa_spare *spare)
{
	struct xa_node *node = kzalloc(sizeof(*node), gfp | __GFP_NOWARN);

	if (!node && spare && spare->nr)
		node = spare->nodes[--spare->nr];
	if (node) {
		node->shift = (unsigned char)shift;
		xa->nr_nodes++;
	}
	return node;
}

static void node_free_rcu(struct rcu_head *head)
{
	kfree(container_of(head, struct xa_node, rcu));
}

static void node_free(struct xarray *xa, struct xa_node *node)
{
	xa->nr_nodes--;
	call_rcu(&node->rcu, node_free_rcu);
}

/* Largest index a tree whose root is node can hold. */
static unsigned long node_max_index(const struct xa_node *node)
{
	unsigned int shift = node->shift + XA_CHUNK_SHIFT;

	return shift >= 64 ? ~0UL : (1UL << shift) - 1;
}

/* Largest index the current tree can hold. */
static unsigned long xa_max_index(const struct xarray *xa)
{
	return xa_is_node(xa->xa_head) ? node_max_index(xa_to_node(xa->xa_head)) : 0;
}

static bool node_has_mark(const struct xa_node *node, xa_mark_t mark)
{
	return node->marks[mark] != 0;
}

static bool entry_has_mark(const struct xarray *xa, xa_mark_t mark)
{
	if (!xa->xa_head)
		return false;
	if (xa_is_node(xa->xa_head))
		return node_has_mark(xa_to_node(xa->xa_head), mark);
	return xa->head_marks & (1U << mark);
}

bool xa_marked(const struct xarray *xa, xa_mark_t mark)
{
	return entry_has_mark(xa, mark);
}

/* Add a level on top so the tree covers index. */
static int xa_grow(struct xarray *xa, unsigned long index, gfp_t gfp, struct xa_spare *spare)
{
	while (index > xa_max_index(xa) || !xa->xa_head) {
		void *head = xa->xa_head;
		unsigned int shift;

		if (!head) {
			/* empty: build the root at the height index needs */
			shift = 0;
			while (shift + XA_CHUNK_SHIFT < 64 && (index >> (shift + XA_CHUNK_SHIFT)))
				shift += XA_CHUNK_SHIFT;
		} else {
			shift = xa_is_node(head) ? xa_to_node(head)->shift + XA_CHUNK_SHIFT : 0;
		}
		struct xa_node *node = node_alloc(xa, shift, gfp, spare);
		if (!node)
			return -ENOMEM;
		if (head) {
			node->slots[0] = head;
			node->count = 1;
			for (xa_mark_t m = 0; m < XA_MAX_MARKS; m++)
				if (entry_has_mark(xa, m))
					node->marks[m] |= 1;
			if (xa_is_node(head)) {
				xa_to_node(head)->parent = node;
				xa_to_node(head)->offset = 0;
			}
		}
		xa->head_marks = 0;
		rcu_assign_pointer(xa->xa_head, xa_mk_node(node));
	}
	return 0;
}

static void xa_shrink(struct xarray *xa, struct xa_node *node);

int xa_insert_spare(struct xarray *xa, unsigned long index, void *entry, gfp_t gfp,
		    struct xa_spare *spare)
{
	struct xa_node *node;
	unsigned int off;

	BUG_ON(!entry || ((uintptr_t)entry & 3));
	if (!xa->xa_head && index == 0) {
		xa->head_marks = 0;
		rcu_assign_pointer(xa->xa_head, entry);
		return 0;
	}
	if (!xa_is_node(xa->xa_head) && xa->xa_head && index == 0)
		return -EEXIST;
	int err = xa_grow(xa, index, gfp, spare);
	if (err)
		return err;
	node = xa_to_node(xa->xa_head);
	while (node->shift) {
		off = (index >> node->shift) & XA_CHUNK_MASK;
		if (!node->slots[off]) {
			struct xa_node *child =
				node_alloc(xa, node->shift - XA_CHUNK_SHIFT, gfp, spare);
			if (!child) {
				xa_shrink(xa, node); /* drop the empty nodes this call created */
				return -ENOMEM;
			}
			child->parent = node;
			child->offset = (unsigned char)off;
			rcu_assign_pointer(node->slots[off], xa_mk_node(child));
			node->count++;
		}
		node = xa_to_node(node->slots[off]);
	}
	off = index & XA_CHUNK_MASK;
	if (node->slots[off])
		return -EEXIST;
	rcu_assign_pointer(node->slots[off], entry);
	node->count++;
	return 0;
}

int xa_insert(struct xarray *xa, unsigned long index, void *entry, gfp_t gfp)
{
	return xa_insert_spare(xa, index, entry, gfp, NULL);
}

int xa_spare_fill(struct xa_spare *spare, gfp_t gfp)
{
	while (spare->nr < XA_MAX_HEIGHT) {
		struct xa_node *node = kzalloc(sizeof(*node), gfp);

		if (!node)
			return -ENOMEM;
		spare->nodes[spare->nr++] = node;
	}
	return 0;
}

void xa_spare_free(struct xa_spare *spare)
{
	while (spare->nr)
		kfree(spare->nodes[--spare->nr]);
}

/* The leaf node and slot for index, or NULL if the index is beyond the tree. */
static struct xa_node *leaf_of(const struct xarray *xa, unsigned long index, unsigned int *offp)
{
	struct xa_node *node;

	if (!xa_is_node(xa->xa_head) || index > xa_max_index(xa))
		return NULL;
	node = xa_to_node(xa->xa_head);
	while (node->shift) {
		void *slot = node->slots[(index >> node->shift) & XA_CHUNK_MASK];
		if (!slot)
			return NULL;
		node = xa_to_node(slot);
	}
	*offp = index & XA_CHUNK_MASK;
	return node;
}

/* Lockless: each pointer is read once, so a concurrent grow, shrink or erase is seen whole. */
void *xa_load(struct xarray *xa, unsigned long index)
{
	void *entry;

	rcu_read_lock();
	entry = rcu_dereference(xa->xa_head);
	if (!xa_is_node(entry)) {
		if (index)
			entry = NULL;
	} else if (index > node_max_index(xa_to_node(entry))) {
		entry = NULL;
	} else {
		for (struct xa_node *node = xa_to_node(entry);; node = xa_to_node(entry)) {
			entry = rcu_dereference(node->slots[(index >> node->shift) & XA_CHUNK_MASK]);
			if (!node->shift || !entry)
				break;
		}
	}
	rcu_read_unlock();
	return entry;
}

void *xa_replace(struct xarray *xa, unsigned long index, void *entry)
{
	unsigned int off;
	struct xa_node *leaf;
	void *old;

	BUG_ON(!entry || ((uintptr_t)entry & 3));
	if (!xa_is_node(xa->xa_head)) {
		if (index || !xa->xa_head)
			return NULL;
		old = xa->xa_head;
		rcu_assign_pointer(xa->xa_head, entry);
		return old;
	}
	leaf = leaf_of(xa, index, &off);
	if (!leaf || !leaf->slots[off])
		return NULL;
	old = leaf->slots[off];
	rcu_assign_pointer(leaf->slots[off], entry);
	return old;
}

/* Clear mark at (node, off) and up the tree while a node loses its last mark. */
static void clear_mark_up(struct xa_node *node, unsigned int off, xa_mark_t mark)
{
	while (node) {
		node->marks[mark] &= ~(1ULL << off);
		if (node->marks[mark])
			break;
		off = node->offset;
		node = node->parent;
	}
}

static void set_mark_up(struct xa_node *node, unsigned int off, xa_mark_t mark)
{
	while (node && !(node->marks[mark] & (1ULL << off))) {
		node->marks[mark] |= 1ULL << off;
		off = node->offset;
		node = node->parent;
	}
}

void xa_set_mark(struct xarray *xa, unsigned long index, xa_mark_t mark)
{
	unsigned int off;
	struct xa_node *leaf;

	BUG_ON(mark >= XA_MAX_MARKS);
	if (!xa_is_node(xa->xa_head)) {
		if (!index && xa->xa_head)
			xa->head_marks |= 1U << mark;
		return;
	}
	leaf = leaf_of(xa, index, &off);
	if (leaf && leaf->slots[off])
		set_mark_up(leaf, off, mark);
}

void xa_clear_mark(struct xarray *xa, unsigned long index, xa_mark_t mark)
{
	unsigned int off;
	struct xa_node *leaf;

	BUG_ON(mark >= XA_MAX_MARKS);
	if (!xa_is_node(xa->xa_head)) {
		if (!index)
			xa->head_marks &= ~(1U << mark);
		return;
	}
	leaf = leaf_of(xa, index, &off);
	if (leaf)
		clear_mark_up(leaf, off, mark);
}

bool xa_get_mark(struct xarray *xa, unsigned long index, xa_mark_t mark)
{
	unsigned int off;
	struct xa_node *leaf;

	if (!xa_is_node(xa->xa_head))
		return !index && xa->xa_head && (xa->head_marks & (1U << mark));
	leaf = leaf_of(xa, index, &off);
	return leaf && leaf->slots[off] && (leaf->marks[mark] & (1ULL << off));
}

/* Free empty nodes from node upwards, then lower the tree while the root only uses slot 0. */
static void xa_shrink(struct xarray *xa, struct xa_node *node)
{
	while (node && node->count == 0) {
		struct xa_node *parent = node->parent;
		if (parent) {
			WRITE_ONCE(parent->slots[node->offset], NULL);
			parent->count--;
			for (xa_mark_t m = 0; m < XA_MAX_MARKS; m++)
				clear_mark_up(parent, node->offset, m);
		} else {
			WRITE_ONCE(xa->xa_head, NULL);
		}
		node_free(xa, node);
		node = parent;
	}
	while (xa_is_node(xa->xa_head)) {
		struct xa_node *root = xa_to_node(xa->xa_head);
		if (root->count != 1 || !root->slots[0])
			break;
		void *child = root->slots[0];
		if (xa_is_node(child)) {
			xa_to_node(child)->parent = NULL;
			xa_to_node(child)->offset = 0;
			xa->head_marks = 0;
		} else {
			xa->head_marks = 0;
			for (xa_mark_t m = 0; m < XA_MAX_MARKS; m++)
				if (root->marks[m] & 1)
					xa->head_marks |= 1U << m;
		}
		/* the old root keeps child in slot 0 for readers still on it */
		WRITE_ONCE(xa->xa_head, child);
		node_free(xa, root);
	}
}

void *xa_erase(struct xarray *xa, unsigned long index)
{
	unsigned int off;
	struct xa_node *leaf;
	void *entry;

	if (!xa_is_node(xa->xa_head)) {
		if (index || !xa->xa_head)
			return NULL;
		entry = xa->xa_head;
		WRITE_ONCE(xa->xa_head, NULL);
		xa->head_marks = 0;
		return entry;
	}
	leaf = leaf_of(xa, index, &off);
	if (!leaf || !leaf->slots[off])
		return NULL;
	entry = leaf->slots[off];
	for (xa_mark_t m = 0; m < XA_MAX_MARKS; m++)
		if (leaf->marks[m] & (1ULL << off))
			clear_mark_up(leaf, off, m);
	WRITE_ONCE(leaf->slots[off], NULL);
	leaf->count--;
	xa_shrink(xa, leaf);
	return entry;
}

/* Next slot >= off in node that holds something passing filter, or -1. */
static int next_slot(const struct xa_node *node, unsigned int off, xa_mark_t filter)
{
	if (filter != XA_PRESENT) {
		u64 bits = node->marks[filter] & (~0ULL << off);
		return bits ? __builtin_ctzll(bits) : -1;
	}
	for (unsigned int i = off; i < XA_CHUNK_SIZE; i++)
		if (node->slots[i])
			return (int)i;
	return -1;
}

/*
 * Set *index to the first index after *node's range and *node to the lowest ancestor whose
 * range contains it. False if there is none (the end of the tree or of the index space).
 */
static bool climb(struct xa_node **nodep, unsigned long *indexp)
{
	struct xa_node *node = *nodep;
	unsigned long index = *indexp;
	unsigned int span = node->shift + XA_CHUNK_SHIFT;

	if (span >= 64)
		return false;
	unsigned long next = (index | ((1UL << span) - 1)) + 1;
	if (!next)
		return false;
	/* index lies inside every ancestor; next is inside the first whose high bits match */
	do {
		node = node->parent;
		if (!node)
			return false;
		span = node->shift + XA_CHUNK_SHIFT;
	} while (span < 64 && (next >> span) != (index >> span));
	*nodep = node;
	*indexp = next;
	return true;
}

void *xa_find(struct xarray *xa, unsigned long *indexp, unsigned long max, xa_mark_t filter)
{
	unsigned long index = *indexp;
	struct xa_node *node;

	if (index > max || !xa->xa_head)
		return NULL;
	if (!xa_is_node(xa->xa_head)) {
		if (index == 0 && (filter == XA_PRESENT || (xa->head_marks & (1U << filter))))
			return xa->xa_head;
		return NULL;
	}
	if (index > xa_max_index(xa))
		return NULL;
	node = xa_to_node(xa->xa_head);
	for (;;) {
		unsigned int shift = node->shift;
		int o = next_slot(node, (index >> shift) & XA_CHUNK_MASK, filter);

		if (o < 0) {
			/* nothing left here: move past this node and climb until inside the range */
			if (!climb(&node, &index) || index > max)
				return NULL;
			continue;
		}
		unsigned long base = shift + XA_CHUNK_SHIFT >= 64 ?
					     0 :
					     index & ~((1UL << (shift + XA_CHUNK_SHIFT)) - 1);
		unsigned long start = base | ((unsigned long)o << shift);
		if (start > index)
			index = start;
		if (index > max)
			return NULL;
		if (!shift) {
			*indexp = index;
			return node->slots[o];
		}
		node = xa_to_node(node->slots[o]);
	}
}

static int check_node(const struct xa_node *node, const struct xa_node *parent, unsigned int offset,
		      unsigned long *nodes)
{
	unsigned int count = 0;
	u64 marks[XA_MAX_MARKS] = { 0 };

	(*nodes)++;
	if (node->parent != parent || (parent && node->offset != offset)) {
		pr_err("xarray: node %p has wrong parent/offset\n", (const void *)node);
		return -EUCLEAN;
	}
	for (unsigned int i = 0; i < XA_CHUNK_SIZE; i++) {
		void *slot = node->slots[i];
		if (!slot)
			continue;
		count++;
		if (node->shift) {
			const struct xa_node *child = xa_to_node(slot);
			if (!xa_is_node(slot) || child->shift + XA_CHUNK_SHIFT != node->shift)
				return -EUCLEAN;
			int err = check_node(child, node, i, nodes);
			if (err)
				return err;
			for (xa_mark_t m = 0; m < XA_MAX_MARKS; m++)
				if (child->marks[m])
					marks[m] |= 1ULL << i;
		} else {
			for (xa_mark_t m = 0; m < XA_MAX_MARKS; m++)
				marks[m] |= node->marks[m] & (1ULL << i);
		}
	}
	if (count != node->count || !count) {
		pr_err("xarray: node %p count %u, holds %u\n", (const void *)node, node->count,
		       count);
		return -EUCLEAN;
	}
	for (xa_mark_t m = 0; m < XA_MAX_MARKS; m++) {
		if (marks[m] != node->marks[m]) {
			pr_err("xarray: node %p mark %u bits %#llx, expected %#llx\n",
			       (const void *)node, m, node->marks[m], marks[m]);
			return -EUCLEAN;
		}
	}
	return 0;
}

int xa_check(struct xarray *xa)
{
	unsigned long nodes = 0;
	int err = 0;

	if (xa_is_node(xa->xa_head))
		err = check_node(xa_to_node(xa->xa_head), NULL, 0, &nodes);
	if (!err && nodes != xa->nr_nodes) {
		pr_err("xarray: %lu nodes reachable, %lu allocated\n", nodes, xa->nr_nodes);
		err = -EUCLEAN;
	}
	return err;
}
