/* cat [FILE...]: copy files (or stdin, "-") to stdout. */
#include <cgwb/shell.h>
#include <cgwb/sched.h>
#include <cgwb/fs.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>

#define CAT_BUF 4096

/* 0, or the error that stopped the copy (reading: negative; -EPIPE etc. from writing). */
static int copy_file(struct file *in, char *buf, bool *write_failed)
{
	for (;;) {
		ssize_t n = file_read(in, buf, CAT_BUF);

		if (n <= 0)
			return (int)n;
		if (sh_write(buf, (size_t)n) < 0) {
			*write_failed = true;
			return 0;
		}
	}
}

static int cmd_cat(int argc, char **argv)
{
	char *buf = kmalloc(CAT_BUF, GFP_KERNEL);
	bool write_failed = false;
	int status = 0;

	if (!buf)
		return sh_error("cat", "%s", errstr(-ENOMEM));
	for (int i = argc > 1 ? 1 : 0; i < argc && !write_failed; i++) {
		const char *name = i ? argv[i] : "-";
		bool in_stdin = !strcmp(name, "-");
		struct file *in = in_stdin ? current->files[0] : filp_open(name, O_RDONLY, 0);
		int err;

		if (IS_ERR_OR_NULL(in)) {
			status = sh_error("cat", "%s: %s", name,
					  errstr(in ? (int)PTR_ERR(in) : -EBADF));
			continue;
		}
		err = copy_file(in, buf, &write_failed);
		if (err && !signal_pending(current))
			status = sh_error("cat", "%s: %s", name, errstr(err));
		if (!in_stdin)
			fput(in);
		if (signal_pending(current))
			break;
	}
	kfree(buf);
	return write_failed ? 1 : status;
}
DEFINE_SHELL_CMD(cat, "cat", "cat [FILE...]", "copy files (or stdin, -) to stdout", cmd_cat, 0);
