/*
 * The console shell: the boot script first (non-interactive, like `sh script`), then the
 * interactive prompt, which collects lines until they form complete commands.
 */
#include <cgwb/sched.h>
#include <cgwb/errno.h>
#include <cgwb/shell.h>
#include <cgwb/file.h>
#include <cgwb/string.h>
#include <cgwb/printk.h>
#include <cgwb/bug.h>
#include <cgwb/console.h>
#include <cgwb/reboot.h>
#include "internal.h"
#include "jobs.h"
#include "lineedit.h"
#include "lang/parser.h"

#define PS1 SH_NAME "# "
#define PS2 "> "

static void console_files(void)
{
	struct file *con = alloc_file(&console_fops, O_RDWR, NULL);

	if (!con)
		panic("shell: cannot open the console");
	for (int fd = 0; fd < SH_NFILES; fd++)
		current->files[fd] = get_file(con);
	fput(con);
}

static void begin_command(struct shell *sh)
{
	WRITE_ONCE(sh->busy, true);
}

/* After a top-level command: report Ctrl-C, and leave nothing behind for the next one. */
static void end_command(struct shell *sh)
{
	WRITE_ONCE(sh->busy, false);
	if (READ_ONCE(sh->interrupted)) {
		sh->status = SH_STATUS_KILLED;
		console_write("^C\n", 3);
	}
	WRITE_ONCE(sh->interrupted, false);
	shell_flush_kill();
	sh->breaks = 0;
	sh->continues = 0;
}

static void run_boot_script(struct shell *sh, const char *script)
{
	begin_command(sh);
	shell_run_script(sh, script, strlen(script));
	end_command(sh);
	sh->exiting = false; /* exit ends the script, not the machine */
}

static void run_command(struct shell *sh, struct sh_node *n)
{
	begin_command(sh);
	sh_exec(sh, n);
	end_command(sh);
	if (sh->exiting) {
		/* the console shell is the machine's only session: leaving it powers off */
		kernel_poweroff(sh->exit_status);
	}
}

/* Run the complete commands in pending; keep an incomplete last one for more lines. */
static void run_pending(struct shell *sh, struct strbuf *pending)
{
	struct sh_parser p;
	size_t start;

	sh_parser_init(&p, pending->buf, pending->len);
	for (;;) {
		struct sh_node *n;
		int err;

		start = sh_parser_pos(&p);
		err = sh_parse_next(&p, &n);
		if (err == -EAGAIN) {
			memmove(pending->buf, pending->buf + start, pending->len - start);
			sb_truncate(pending, pending->len - start);
			return;
		}
		if (err) {
			shell_msg(NULL, "syntax error: %s", p.msg);
			sh->status = 2;
			break;
		}
		if (!n)
			break;
		run_command(sh, n);
		sh_node_free(n);
	}
	sb_truncate(pending, 0);
}

static __noreturn void interactive_loop(struct shell *sh)
{
	struct strbuf pending = STRBUF_INIT;

	sh->interactive = true;
	for (;;) {
		const char *line;
		int err;

		if (!pending.len)
			jobs_notify(sh);
		err = lineedit_read(pending.len ? PS2 : PS1, &line);
		if (err == -E2BIG) {
			shell_msg(NULL, "line too long (more than %d characters): not run",
				  LINEEDIT_LINE_MAX - 1);
			sb_truncate(&pending, 0);
			sh->status = 2;
			continue;
		}
		if (err) {
			sb_truncate(&pending, 0); /* Ctrl-C drops the command being typed */
			sh->status = SH_STATUS_KILLED;
			continue;
		}
		sb_adds(&pending, line);
		sb_addc(&pending, '\n');
		if (pending.failed) {
			shell_msg(NULL, "out of memory");
			sb_release(&pending);
			continue;
		}
		run_pending(sh, &pending);
	}
}

int shell_run_console(const char *script)
{
	struct shell *sh = shell_alloc();

	if (!sh)
		panic("shell: out of memory");
	sh->console = true;
	/* the machine's init: the OOM killer passes it by, as Linux's passes init by */
	current->oom_score_adj = OOM_SCORE_ADJ_MIN;
	current->shell = sh;
	console_files();
	jobs_set_console_shell(sh);
	if (script)
		run_boot_script(sh, script);
	interactive_loop(sh);
}
