/* free [-b|-k|-m|-g|-h]: memory use in the format of procps free. */
#include <cgwb/shell.h>
#include <cgwb/vmstat.h>
#include <cgwb/mm.h>
#include <cgwb/string.h>

/* Page cache pages (reclaimable, so part of "available"). The page cache fills this in. */
static unsigned long free_buff_cache_pages(void)
{
	return global_node_page_state_snapshot(NR_FILE_PAGES);
}

/* -h: three significant digits at most, with a binary unit (procps: 502Mi, 1.5Gi). */
static void human(char *buf, size_t size, u64 bytes)
{
	static const char units[] = "BKMGTP";
	u64 scaled = bytes * 10; /* tenths */
	int u = 0;

	while (scaled >= 10240 && u < 5) {
		scaled /= 1024;
		u++;
	}
	if (!u)
		snprintf(buf, size, "%lluB", bytes);
	else if (scaled < 100)
		snprintf(buf, size, "%llu.%llu%ci", scaled / 10, scaled % 10, units[u]);
	else
		snprintf(buf, size, "%llu%ci", (scaled + 5) / 10, units[u]);
}

static void put_row(const char *name, const u64 *pages, int n, int shift, bool hum)
{
	char cols[6][16];

	for (int i = 0; i < n; i++) {
		u64 bytes = pages[i] << PAGE_SHIFT;

		if (hum)
			human(cols[i], sizeof(cols[i]), bytes);
		else
			snprintf(cols[i], sizeof(cols[i]), "%llu", bytes >> shift);
	}
	if (n == 6)
		sh_out("%-7s%13s%12s%12s%12s%12s%12s\n", name, cols[0], cols[1], cols[2], cols[3],
		       cols[4], cols[5]);
	else
		sh_out("%-7s%13s%12s%12s\n", name, cols[0], cols[1], cols[2]);
}

static int cmd_free(int argc, char **argv)
{
	u64 total = totalram_pages, free = nr_free_pages(), cache = free_buff_cache_pages();
	u64 reserve = min_t(u64, totalreserve_pages, free);
	int shift = 10;
	bool hum = false;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-b"))
			shift = 0;
		else if (!strcmp(argv[i], "-k"))
			shift = 10;
		else if (!strcmp(argv[i], "-m"))
			shift = 20;
		else if (!strcmp(argv[i], "-g"))
			shift = 30;
		else if (!strcmp(argv[i], "-h"))
			hum = true;
		else
			return sh_usage("free");
	}
	u64 mem[6] = { total, total - free - cache, free, 0, cache, free - reserve + cache };
	u64 swap[3] = { 0, 0, 0 };

	sh_out("%-7s%13s%12s%12s%12s%12s%12s\n", "", "total", "used", "free", "shared",
	       "buff/cache", "available");
	put_row("Mem:", mem, 6, shift, hum);
	put_row("Swap:", swap, 3, shift, hum);
	return 0;
}
DEFINE_SHELL_CMD(free, "free", "free [-b|-k|-m|-g|-h]",
		 "memory: total, used, free, buff/cache, available (KiB by default)", cmd_free, 0);
