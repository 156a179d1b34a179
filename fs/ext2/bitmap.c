/*
 * Searching ext2 bitmaps: bit n is bit (n % 8) of byte n / 8, whatever the CPU. Whole
 * 64-bit words are skipped at a time, since a bitmap block covers up to 32768 bits.
 */
#include "ext2.h"
#include <cgwb/string.h>

static u64 load_word(const u8 *map, unsigned int byte)
{
	u64 w;

	memcpy(&w, map + byte, sizeof(w)); /* little-endian: bit order matches the disk's */
	return w;
}

/* First bit >= start whose value is want (0 or 1) in map[0, size); size if none. */
static unsigned int find_next_bit_value(const u8 *map, unsigned int size, unsigned int start,
					bool want)
{
	unsigned int nr = start;
	u64 flip = want ? 0 : ~0ULL;

	while (nr < size) {
		if ((nr & 63) == 0 && nr + 64 <= size) {
			u64 w = load_word(map, nr >> 3) ^ flip;
			if (!w) {
				nr += 64;
				continue;
			}
			return nr + (unsigned int)__builtin_ctzll(w);
		}
		if (ext2_test_bit(map, nr) == want)
			return nr;
		nr++;
	}
	return size;
}

unsigned int ext2_find_next_zero_bit(const u8 *map, unsigned int size, unsigned int start)
{
	return find_next_bit_value(map, size, start, false);
}

unsigned int ext2_find_next_set_bit(const u8 *map, unsigned int size, unsigned int start)
{
	return find_next_bit_value(map, size, start, true);
}

unsigned int ext2_count_zero_bits(const u8 *map, unsigned int size)
{
	unsigned int n = 0;

	for (unsigned int nr = ext2_find_next_zero_bit(map, size, 0); nr < size;
	     nr = ext2_find_next_zero_bit(map, size, nr + 1))
		n++;
	return n;
}
