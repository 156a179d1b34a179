/*
 * Shared by the fuzz harnesses that walk directories (ext2_fuzz.c, pseudo_fuzz.c): the
 * names of one directory, gathered through iterate_dir() into a buffer of their own so
 * that the caller may open, stat and recurse after the directory is closed.
 */
#ifndef CGWB_FUZZ_DIR_H
#define CGWB_FUZZ_DIR_H

#include <cgwb/fs.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>

#define FUZZ_DIR_MAX 96 /* names kept per directory; the rest are skipped */

struct fuzz_dir {
	struct dir_context ctx;
	int n;
	char names[FUZZ_DIR_MAX][NAME_MAX + 1];
	unsigned char types[FUZZ_DIR_MAX]; /* DT_DIR, DT_REG...: what readdir said */
};

static inline bool fuzz_dir_collect(struct dir_context *ctx, const char *name, int len, loff_t off,
				    u64 ino, unsigned int type)
{
	struct fuzz_dir *d = container_of(ctx, struct fuzz_dir, ctx);

	(void)off;
	(void)ino;
	if (d->n >= FUZZ_DIR_MAX)
		return false;
	if (len <= 0 || len > NAME_MAX || memchr(name, '/', (size_t)len) ||
	    memchr(name, 0, (size_t)len))
		return true; /* not a name a path can hold (a corrupt directory may have one) */
	if ((len == 1 && name[0] == '.') || (len == 2 && name[0] == '.' && name[1] == '.'))
		return true;
	memcpy(d->names[d->n], name, (size_t)len);
	d->names[d->n][len] = 0;
	d->types[d->n] = (unsigned char)type;
	d->n++;
	return true;
}

/* The names in dir (kfree the result), or NULL if it cannot be allocated. */
static inline struct fuzz_dir *fuzz_dir_read(const char *dir)
{
	struct fuzz_dir *d = kzalloc(sizeof(*d), GFP_KERNEL);
	struct file *f;

	if (!d)
		return NULL;
	d->ctx.actor = fuzz_dir_collect;
	f = filp_open(dir, O_RDONLY | O_DIRECTORY, 0);
	if (!IS_ERR(f)) {
		iterate_dir(f, &d->ctx);
		fput(f);
	}
	return d;
}

#endif
