/*
 * xargs [-n N] [COMMAND [ARG...]]: run COMMAND (echo) with the words of stdin added to
 * its arguments, N at a time (all by default). Words are separated by blanks and
 * newlines; quotes and backslashes work as in POSIX xargs. Each run is a task, like any command (a shell
 * builtin cannot be run: it needs the shell's task). Status 123 if a run failed, 127 if
 * COMMAND does not exist, as in coreutils.
 */
#include <cgwb/shell.h>
#include <cgwb/sched.h>
#include <cgwb/file.h>
#include <cgwb/fs.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include "exec.h"
#include "textio.h"

#define XARGS_MAX_WORDS 4096

/* One run of the command with words[0..n) after its own arguments: its status. */
static int xargs_run(char **cmd, int ncmd, char **words, int n)
{
	char **argv = kcalloc((size_t)(ncmd + n + 1), sizeof(*argv), GFP_KERNEL);
	struct file *files[3];
	struct task_struct *t;
	int err, status;

	if (!argv)
		return -ENOMEM;
	memcpy(argv, cmd, (size_t)ncmd * sizeof(*argv));
	memcpy(argv + ncmd, words, (size_t)n * sizeof(*argv));
	/* the command gets /dev/null as stdin: the words are xargs' input, not its */
	files[0] = filp_open("/dev/null", O_RDONLY, 0);
	files[1] = current->files[1];
	files[2] = current->files[2];
	if (IS_ERR(files[0]))
		files[0] = NULL;
	err = shell_spawn(argv, NULL, files, &t);
	if (files[0])
		fput(files[0]);
	kfree(argv);
	if (err)
		return err;
	if (kthread_join_killable(t, &status) < 0) {
		send_sig_kill(t);
		return -EINTR;
	}
	return status;
}

/*
 * The words of one input line, as POSIX xargs reads them: blanks separate words, '...' and
 * "..." keep blanks (and the other quote) inside a word, a backslash takes the next
 * character as it is. -EINVAL: a quote left open at the end of the line.
 */
static int xargs_words(const char *line, size_t len, struct strv *words)
{
	char *word = kmalloc(len + 1, GFP_KERNEL);
	size_t i = 0;

	if (!word)
		return -ENOMEM;
	while (i < len) {
		size_t n = 0;
		bool any = false;

		while (i < len && (line[i] == ' ' || line[i] == '\t'))
			i++;
		while (i < len && line[i] != ' ' && line[i] != '\t') {
			char c = line[i++];

			any = true;
			if (c == '\\' && i < len) {
				word[n++] = line[i++];
			} else if (c == '\'' || c == '"') {
				while (i < len && line[i] != c)
					word[n++] = line[i++];
				if (i == len) {
					kfree(word);
					return -EINVAL;
				}
				i++; /* the closing quote */
			} else {
				word[n++] = c;
			}
		}
		if (any)
			strv_push(words, kstrndup(word, n, GFP_KERNEL));
	}
	kfree(word);
	return 0;
}

static int cmd_xargs(int argc, char **argv)
{
	static char *echo[] = { "echo" };
	struct strv words = STRV_INIT;
	struct text_in in;
	const char *line;
	size_t len;
	int per = XARGS_MAX_WORDS, i = 1, got, status = 0;
	char **cmd;
	int ncmd;

	if (i + 1 < argc && !strcmp(argv[i], "-n")) {
		if (kstrtoint(argv[i + 1], 10, &per) || per < 1)
			return sh_error("xargs", "invalid number '%s'", argv[i + 1]);
		i += 2;
	} else if (i < argc && argv[i][0] == '-') {
		return sh_usage("xargs");
	}
	cmd = i < argc ? argv + i : echo;
	ncmd = i < argc ? argc - i : 1;
	if (text_in_open(&in, "xargs", NULL))
		return 1;
	while ((got = text_in_line(&in, &line, &len)) > 0 && words.n < XARGS_MAX_WORDS)
		if ((got = xargs_words(line, len, &words)) < 0)
			break;
	text_in_close(&in);
	if (got == -EINVAL) {
		strv_free(&words);
		return sh_error("xargs", "unmatched quote; by default quotes are special to xargs");
	}
	if (got < 0 || words.failed) {
		strv_free(&words);
		return sh_error("xargs", "%s", errstr(got < 0 ? got : -ENOMEM));
	}
	/* with no words at all the command still runs once, as in GNU xargs */
	for (int k = 0; k < words.n || (k == 0 && !words.n); k += per) {
		int st = xargs_run(cmd, ncmd, words.v + k, min(per, words.n - k));

		if (st == -ENOENT) {
			sh_error("xargs", "%s: No such file or directory", cmd[0]);
			status = 127;
			break;
		}
		if (st < 0) {
			status = st == -EINTR ? SH_STATUS_KILLED :
						sh_error("xargs", "%s", errstr(st));
			break;
		}
		if (st)
			status = 123;
	}
	strv_free(&words);
	return status;
}
DEFINE_SHELL_CMD(xargs, "xargs", "xargs [-n N] [COMMAND [ARG...]]",
		 "run COMMAND with the words of stdin as arguments", cmd_xargs, 0);
