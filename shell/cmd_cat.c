/* cat [FILE...]: copy files (or stdin, "-") to stdout. */
#include <cgwb/shell.h>
#include <cgwb/sched.h>
#include <cgwb/fs.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include "internal.h"

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

struct cat_ctx {
	char *buf;
	bool write_failed; /* the output is gone: the operands left are not read */
};

static int cat_operand(const char *name, void *ctx)
{
	struct cat_ctx *c = ctx;
	bool in_stdin = !strcmp(name, "-");
	struct file *in;
	int err;

	if (c->write_failed)
		return 0;
	in = in_stdin ? current->files[0] : filp_open(name, O_RDONLY, 0);
	if (IS_ERR_OR_NULL(in))
		return sh_operand_error("cat", NULL, name, in ? (int)PTR_ERR(in) : -EBADF);
	err = copy_file(in, c->buf, &c->write_failed);
	if (!in_stdin)
		fput(in);
	if (err && !signal_pending(current))
		return sh_operand_error("cat", NULL, name, err);
	return 0;
}

static int cmd_cat(int argc, char **argv)
{
	struct cat_ctx c = { .buf = kmalloc(CAT_BUF, GFP_KERNEL) };
	int status;

	if (!c.buf)
		return sh_error("cat", "%s", errstr(-ENOMEM));
	status = sh_for_each_input(argc, argv, 1, cat_operand, &c);
	kfree(c.buf);
	return c.write_failed ? 1 : status;
}
DEFINE_SHELL_CMD(cat, "cat", "cat [FILE...]", "copy files (or stdin, -) to stdout", cmd_cat, 0);
