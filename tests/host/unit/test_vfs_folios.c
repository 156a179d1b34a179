/*
 * Buffered writes into large folios (mm/filemap.c's filemap_grab_folio() and
 * generic_perform_write(), through tmpfs, whose mappings take them): a write fills folios
 * as large as it covers (up to 64 KiB, starting where it starts), each found at every one
 * of its indexes; rewrites, reads, truncation inside a folio and partial writes keep the
 * bytes a reader sees exactly as with single pages.
 */
#include <stdlib.h>
#include "vfs_test.h"
#include <cgwb/file.h>
#include <cgwb/string.h>

TestSuite(vfs_folios, .init = vfs_test_setup, .fini = vfs_test_teardown);

static struct address_space *path_mapping(const char *name)
{
	struct path p;
	struct address_space *mapping;

	cr_assert_eq(kern_path(name, LOOKUP_FOLLOW, &p), 0, "%s", name);
	mapping = p.dentry->d_inode->i_mapping;
	path_put(&p); /* the name keeps the inode */
	return mapping;
}

static char pattern(loff_t pos, char seed)
{
	return (char)(seed + pos % 251);
}

/* Write len bytes of seed's pattern at pos of name (created if need be). */
static void write_at(const char *name, loff_t pos, size_t len, char seed)
{
	struct file *f = filp_open(name, O_WRONLY | O_CREAT, 0644);
	char *buf = malloc(len);

	cr_assert(!IS_ERR(f));
	for (size_t i = 0; i < len; i++)
		buf[i] = pattern(pos + (loff_t)i, seed);
	cr_assert_eq(vfs_llseek(f, pos, SEEK_SET), pos);
	cr_assert_eq(file_write(f, buf, len), (ssize_t)len);
	fput(f);
	free(buf);
}

/* The whole file, as a reader sees it. */
static char *read_all(const char *name, size_t *size)
{
	struct file *f = filp_open(name, O_RDONLY, 0);
	size_t cap = 1 << 20;
	char *buf = malloc(cap);
	ssize_t n;

	cr_assert(!IS_ERR(f));
	*size = 0;
	while ((n = file_read(f, buf + *size, cap - *size)) > 0)
		*size += (size_t)n;
	cr_assert_geq(n, 0);
	fput(f);
	return buf;
}

/* The folio at index, its order and first index checked. */
static void assert_folio(struct address_space *mapping, pgoff_t index, pgoff_t first,
			 unsigned int order)
{
	struct folio *folio = filemap_get_folio(mapping, index);

	cr_assert_not_null(folio, "index %lu", index);
	cr_assert_eq(folio->index, first, "index %lu: folio at %lu", index, folio->index);
	cr_assert_eq(folio_order(folio), order, "index %lu: order %u", index, folio_order(folio));
	cr_assert(folio_test_uptodate(folio));
	folio_put(folio);
}

Test(vfs_folios, a_write_fills_folios_as_large_as_it_covers)
{
	struct address_space *mapping;
	size_t size;
	char *data;

	write_at("/f", 0, 64 << 10, 'a');
	mapping = path_mapping("/f");
	cr_assert_eq(mapping->nrpages, 16);
	for (pgoff_t i = 0; i < 16; i++)
		assert_folio(mapping, i, 0, 4);

	/* from page 1: one page there (its alignment), then two, then what is left */
	write_at("/g", PAGE_SIZE, 5 * PAGE_SIZE + 100, 'b');
	mapping = path_mapping("/g");
	assert_folio(mapping, 1, 1, 0);
	assert_folio(mapping, 3, 2, 1);
	assert_folio(mapping, 4, 4, 1);
	assert_folio(mapping, 6, 6, 0);
	cr_assert_eq(mapping->nrpages, 6, "no page before the write, none past it");
	cr_assert_null(find_get_page(mapping, 0));

	data = read_all("/g", &size);
	cr_assert_eq(size, 6 * PAGE_SIZE + 100);
	for (size_t i = 0; i < size; i++)
		cr_assert_eq(data[i], i < PAGE_SIZE ? 0 : pattern((loff_t)i, 'b'), "byte %zu", i);
	free(data);
}

/* Rewrites and partial writes land in the folios there; what they leave is as it was. */
Test(vfs_folios, rewrites_inside_a_folio)
{
	struct address_space *mapping;
	size_t size;
	char *data;

	write_at("/f", 0, 64 << 10, 'a');
	write_at("/f", 10000, 300, 'c');   /* inside, across a page boundary */
	write_at("/f", 60000, 20000, 'd'); /* from inside it to past its end */
	mapping = path_mapping("/f");
	assert_folio(mapping, 0, 0, 4);
	cr_assert_null(find_get_page(mapping, 20), "past the end of the last write");
	data = read_all("/f", &size);
	cr_assert_eq(size, 80000);
	for (size_t i = 0; i < size; i++) {
		char seed = i >= 60000 ? 'd' : i >= 10000 && i < 10300 ? 'c' : 'a';

		cr_assert_eq(data[i], pattern((loff_t)i, seed), "byte %zu", i);
	}
	free(data);
}

/*
 * Cut inside a folio, the folio is split and the pages past the end go; grown again, the
 * cut part reads as zeros.
 */
Test(vfs_folios, truncation_inside_a_folio)
{
	struct address_space *mapping;
	size_t size;
	char *data;

	write_at("/f", 0, 64 << 10, 'a');
	mapping = path_mapping("/f");
	cr_assert_eq(do_truncate("/f", 20000), 0);
	cr_assert_eq(mapping->nrpages, 5, "pages 0-4 left, each a folio of its own");
	for (pgoff_t i = 0; i < 5; i++)
		assert_folio(mapping, i, i, 0);
	cr_assert_eq(do_truncate("/f", 64 << 10), 0);
	data = read_all("/f", &size);
	cr_assert_eq(size, 64 << 10);
	for (size_t i = 0; i < size; i++)
		cr_assert_eq(data[i], i < 20000 ? pattern((loff_t)i, 'a') : 0, "byte %zu", i);
	free(data);

	cr_assert_eq(do_truncate("/f", 0), 0);
	cr_assert_eq(mapping->nrpages, 0);
	write_at("/f", 0, 2 * PAGE_SIZE, 'e'); /* the cache at those indexes is free again */
	assert_folio(mapping, 0, 0, 1);
}

/* A write into a hole between cached pages takes folios that fit between them. */
Test(vfs_folios, a_write_between_cached_pages)
{
	struct address_space *mapping;
	size_t size;
	char *data;

	write_at("/h", 0, PAGE_SIZE, 'a');
	write_at("/h", 7 * PAGE_SIZE, PAGE_SIZE, 'b');
	write_at("/h", PAGE_SIZE, 6 * PAGE_SIZE, 'c');
	mapping = path_mapping("/h");
	cr_assert_eq(mapping->nrpages, 8);
	assert_folio(mapping, 1, 1, 0);
	assert_folio(mapping, 2, 2, 1);
	assert_folio(mapping, 4, 4, 1);
	assert_folio(mapping, 6, 6, 0);
	data = read_all("/h", &size);
	cr_assert_eq(size, 8 * PAGE_SIZE);
	for (size_t i = 0; i < size; i++) {
		char seed = i < PAGE_SIZE ? 'a' : i >= 7 * PAGE_SIZE ? 'b' : 'c';

		cr_assert_eq(data[i], pattern((loff_t)i, seed), "byte %zu", i);
	}
	free(data);
}

/* A folio that would take a slot already cached is made smaller, down to one page. */
Test(vfs_folios, a_cached_page_inside_the_write_shrinks_the_folio)
{
	struct address_space *mapping;
	size_t size;
	char *data;

	write_at("/k", 3 * PAGE_SIZE, PAGE_SIZE, 'a');
	write_at("/k", 0, 4 * PAGE_SIZE, 'c');
	mapping = path_mapping("/k");
	assert_folio(mapping, 1, 0, 1);
	assert_folio(mapping, 2, 2, 0);
	assert_folio(mapping, 3, 3, 0);
	data = read_all("/k", &size);
	cr_assert_eq(size, 4 * PAGE_SIZE);
	for (size_t i = 0; i < size; i++)
		cr_assert_eq(data[i], pattern((loff_t)i, 'c'), "byte %zu", i);
	free(data);
}

/*
 * A read copies a folio at a time: reads of odd sizes at odd offsets, across folio and
 * page boundaries and over the end of file, return the bytes written and no more.
 */
Test(vfs_folios, reads_across_folios_return_the_bytes_written)
{
	static const struct {
		loff_t pos;
		size_t len;
	} reads[] = { { 0, 1 },          { 60000, 10000 },   { 65535, 2 },  { 4095, 65539 },
		      { 131072, 65536 }, { 200000, 100000 }, { 262143, 10 } };
	const size_t size = 262144 - 7;
	char *buf = malloc(size + 100000);

	write_at("/tmp/r", 0, size, 'r');
	for (size_t i = 0; i < sizeof(reads) / sizeof(reads[0]); i++) {
		struct file *f = filp_open("/tmp/r", O_RDONLY, 0);
		size_t want = reads[i].pos >= (loff_t)size ?
				      0 :
				      min(reads[i].len, size - (size_t)reads[i].pos);

		cr_assert(!IS_ERR(f));
		cr_assert_eq(vfs_llseek(f, reads[i].pos, SEEK_SET), reads[i].pos);
		cr_assert_eq(file_read(f, buf, reads[i].len), (ssize_t)want, "read %zu at %lld",
			     reads[i].len, (long long)reads[i].pos);
		for (size_t j = 0; j < want; j++)
			cr_assert_eq(buf[j], pattern(reads[i].pos + (loff_t)j, 'r'), "byte %lld",
				     (long long)(reads[i].pos + (loff_t)j));
		cr_assert_eq(f->f_pos, reads[i].pos + (loff_t)want);
		fput(f);
	}
	free(buf);
}
