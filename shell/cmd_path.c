/* basename NAME [SUFFIX] and dirname NAME: string operations on paths, as coreutils. */
#include <cgwb/shell.h>
#include <cgwb/string.h>
#include "cmd_fs_util.h"

static int cmd_basename(int argc, char **argv)
{
	char buf[256];
	const char *base;
	size_t len;

	if (argc < 2 || argc > 3)
		return sh_usage("basename");
	base = fs_basename(argv[1], buf, sizeof(buf));
	len = strlen(base);
	/* a suffix is removed only if something is left */
	if (argc == 3) {
		size_t sl = strlen(argv[2]);

		if (sl < len && !strcmp(base + len - sl, argv[2]))
			len -= sl;
	}
	sh_out("%.*s\n", (int)len, base);
	return 0;
}
DEFINE_SHELL_CMD(basename, "basename", "basename NAME [SUFFIX]",
		 "print NAME without its directories (and SUFFIX)", cmd_basename, 0);

static int cmd_dirname(int argc, char **argv)
{
	const char *p;
	size_t len;

	if (argc != 2)
		return sh_usage("dirname");
	p = argv[1];
	len = strlen(p);
	while (len > 1 && p[len - 1] == '/') /* "a/b/" is "a/b" */
		len--;
	while (len && p[len - 1] != '/') /* the last component */
		len--;
	if (!len) {
		sh_out(".\n");
		return 0;
	}
	while (len > 1 && p[len - 1] == '/') /* the slashes before it */
		len--;
	sh_out("%.*s\n", (int)len, p);
	return 0;
}
DEFINE_SHELL_CMD(dirname, "dirname", "dirname NAME", "print NAME without its last component",
		 cmd_dirname, 0);
