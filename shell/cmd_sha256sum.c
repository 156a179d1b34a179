/* sha256sum: "HASH  NAME" per file (coreutils format), standard input for none or "-". */
#include <cgwb/shell.h>
#include <cgwb/fs.h>
#include <cgwb/sched.h>
#include <cgwb/mm.h>
#include <cgwb/sha256.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>

/* Large and page-aligned: reads of a disk then go down as big direct requests. */
#define SUM_BUF_ORDER 6

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

static int sum_one(const char *name, char *buf)
{
	bool is_stdin = !strcmp(name, "-");
	struct file *f = is_stdin ? current->files[0] : filp_open(name, O_RDONLY, 0);
	u8 digest[SHA256_DIGEST_SIZE];
	char hex[2 * SHA256_DIGEST_SIZE + 1];

	if (!f)
		f = ERR_PTR(-EBADF);
	if (IS_ERR(f))
		return sh_error("sha256sum", "%s: %s", name, errstr((int)PTR_ERR(f)));
	int err = sum_file(f, buf, digest);
	if (!is_stdin)
		fput(f);
	if (err == -EINTR)
		return SH_STATUS_KILLED;
	if (err)
		return sh_error("sha256sum", "%s: %s", name, errstr(err));
	sha256_hex(digest, hex);
	sh_out("%s  %s\n", hex, name);
	return 0;
}

static int cmd_sha256sum(int argc, char **argv)
{
	char *buf = __get_free_pages(GFP_KERNEL, SUM_BUF_ORDER);
	int status = 0;

	if (!buf)
		return sh_error("sha256sum", "%s", errstr(-ENOMEM));
	if (argc < 2)
		status = sum_one("-", buf);
	for (int i = 1; i < argc && status != SH_STATUS_KILLED; i++) {
		int s = sum_one(argv[i], buf);
		if (s)
			status = s;
	}
	free_pages(buf, SUM_BUF_ORDER);
	return status;
}

DEFINE_SHELL_CMD(sha256sum, "sha256sum", "sha256sum [FILE]...",
		 "print SHA-256 checksums (standard input without FILE or for -)", cmd_sha256sum, 0);
