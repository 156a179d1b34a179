/*
 * sha256sum [-c [--quiet|--status]] [FILE]...: "HASH  NAME" per file (coreutils format),
 * standard input for none or "-"; with -c, FILEs hold such lines and each file named is
 * checked: "NAME: OK", "NAME: FAILED" or "NAME: FAILED open or read", then coreutils'
 * warnings and status 1 if anything failed.
 */
#include <cgwb/shell.h>
#include <cgwb/fs.h>
#include <cgwb/sched.h>
#include <cgwb/mm.h>
#include <cgwb/sha256.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include "textio.h"
#include "internal.h"

/* Large and page-aligned: reads of a disk then go down as big direct requests. */
#define SUM_BUF_ORDER 6
#define HEX_LEN (2 * SHA256_DIGEST_SIZE)

enum sum_verbosity { SUM_ALL, SUM_QUIET, SUM_STATUS }; /* -c: all, failures only, nothing */

static int sum_file(struct file *f, char *buf, u8 digest[SHA256_DIGEST_SIZE])
{
	struct sha256_state s;

	sha256_init(&s);
	for (;;) {
		if (signal_pending(current))
			return -EINTR;
		ssize_t n = file_read(f, buf, PAGE_SIZE << SUM_BUF_ORDER);
		if (n < 0)
			return (int)n;
		if (n == 0)
			break;
		sha256_update(&s, buf, (size_t)n);
	}
	sha256_final(&s, digest);
	return 0;
}

/* The hex digest of name ("-": standard input) into hex: 0 or -errno (not reported). */
static int sum_name(const char *name, char *buf, char hex[HEX_LEN + 1])
{
	bool is_stdin = !strcmp(name, "-");
	struct file *f = is_stdin ? current->files[0] : filp_open(name, O_RDONLY, 0);
	u8 digest[SHA256_DIGEST_SIZE];

	if (!f)
		return -EBADF;
	if (IS_ERR(f))
		return (int)PTR_ERR(f);
	int err = sum_file(f, buf, digest);
	if (!is_stdin)
		fput(f);
	if (!err)
		sha256_hex(digest, hex);
	return err;
}

static int sum_one(const char *name, char *buf)
{
	char hex[HEX_LEN + 1];
	int err = sum_name(name, buf, hex);

	if (err == -EINTR)
		return SH_STATUS_KILLED;
	if (err)
		return sh_operand_error("sha256sum", NULL, name, err);
	sh_out("%s  %s\n", hex, name);
	return 0;
}

/* sha256sum -c over one list of checksums. */
struct check_ctx {
	char *buf;
	enum sum_verbosity v;
	unsigned int ok, mismatched, unreadable, malformed; /* the lines so far */
};

/* "HASH  NAME" or "HASH *NAME" (binary mode: the same bytes here): the name, or NULL. */
static const char *check_line_name(const char *line, size_t len, char hex[HEX_LEN + 1])
{
	while (len && (*line == ' ' || *line == '\t')) {
		line++;
		len--;
	}
	if (len < HEX_LEN + 3 || line[HEX_LEN] != ' ' ||
	    (line[HEX_LEN + 1] != ' ' && line[HEX_LEN + 1] != '*'))
		return NULL;
	for (int i = 0; i < HEX_LEN; i++) {
		char c = line[i];

		if (c >= 'A' && c <= 'F')
			c = (char)(c - 'A' + 'a');
		if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
			return NULL;
		hex[i] = c;
	}
	hex[HEX_LEN] = '\0';
	return line + HEX_LEN + 2;
}

/* One line of a check file: 0, or -EINTR when a kill stops it. */
static int check_one(const char *line, size_t len, void *ctx)
{
	struct check_ctx *c = ctx;
	enum sum_verbosity v = c->v;
	char want[HEX_LEN + 1], got[HEX_LEN + 1];
	const char *name;
	int err;

	if (len && line[0] == '#')
		return 0; /* a comment */
	name = check_line_name(line, len, want);
	if (!name) {
		c->malformed++;
		return 0;
	}
	err = sum_name(name, c->buf, got);
	if (err == -EINTR)
		return err;
	if (err) {
		c->unreadable++;
		if (v != SUM_STATUS) {
			sh_err("sha256sum: %s: %s\n", name, errstr(err));
			sh_out("%s: FAILED open or read\n", name);
		}
	} else if (strcmp(want, got)) {
		c->mismatched++;
		if (v != SUM_STATUS)
			sh_out("%s: FAILED\n", name);
	} else {
		c->ok++;
		if (v == SUM_ALL)
			sh_out("%s: OK\n", name);
	}
	return 0;
}

static void check_warn(unsigned int n, const char *one, const char *many)
{
	if (n)
		sh_err("sha256sum: WARNING: %u %s\n", n, n == 1 ? one : many);
}

/* Check the files listed in list ("-": standard input): 0, or 1 if any failed. */
static int check_list(const char *list, char *buf, enum sum_verbosity v)
{
	struct check_ctx c = { .buf = buf, .v = v };
	int status = text_in_each_line("sha256sum", list, check_one, &c);

	if (status)
		return status;
	if (!c.ok && !c.mismatched && !c.unreadable)
		return sh_error("sha256sum", "%s: no properly formatted checksum lines found",
				strcmp(list, "-") ? list : "standard input");
	if (v != SUM_STATUS) {
		check_warn(c.malformed, "line is improperly formatted",
			   "lines are improperly formatted");
		check_warn(c.unreadable, "listed file could not be read",
			   "listed files could not be read");
		check_warn(c.mismatched, "computed checksum did NOT match",
			   "computed checksums did NOT match");
	}
	return c.mismatched || c.unreadable ? 1 : 0;
}

/* Options first; the index of the first FILE, or -1 after a usage message. */
static int sum_options(int argc, char **argv, bool *check, enum sum_verbosity *v)
{
	int i;

	*check = false;
	*v = SUM_ALL;
	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		}
		if (!strcmp(argv[i], "-c") || !strcmp(argv[i], "--check"))
			*check = true;
		else if (!strcmp(argv[i], "--quiet"))
			*v = *v == SUM_STATUS ? SUM_STATUS : SUM_QUIET;
		else if (!strcmp(argv[i], "--status"))
			*v = SUM_STATUS;
		else {
			sh_usage("sha256sum");
			return -1;
		}
	}
	if (*v != SUM_ALL && !*check) {
		sh_err("sha256sum: the --%s option is meaningful only when verifying checksums\n",
		       *v == SUM_QUIET ? "quiet" : "status");
		return -1;
	}
	return i;
}

struct sum_ctx {
	char *buf;
	bool check;
	enum sum_verbosity v;
};

/* One FILE: its checksum printed, or (-c) the files it lists checked. */
static int sum_operand(const char *name, void *ctx)
{
	struct sum_ctx *c = ctx;

	return c->check ? check_list(name, c->buf, c->v) : sum_one(name, c->buf);
}

static int cmd_sha256sum(int argc, char **argv)
{
	struct sum_ctx c;
	int first = sum_options(argc, argv, &c.check, &c.v), status;

	if (first < 0)
		return 1;
	c.buf = __get_free_pages(GFP_KERNEL, SUM_BUF_ORDER);
	if (!c.buf)
		return sh_error("sha256sum", "%s", errstr(-ENOMEM));
	status = sh_for_each_input(argc, argv, first, sum_operand, &c);
	free_pages(c.buf, SUM_BUF_ORDER);
	return status;
}

DEFINE_SHELL_CMD(sha256sum, "sha256sum", "sha256sum [-c [--quiet|--status]] [FILE]...",
		 "print or check (-c) SHA-256 checksums (standard input without FILE or for -)",
		 cmd_sha256sum, 0);
