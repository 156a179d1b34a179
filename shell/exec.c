/*
 * Running parsed commands: lists, && and ||, and the compound commands, which run in the
 * shell's own task (their simple commands become tasks). Every command sets $?.
 */
#include <cgwb/sched.h>
#include <cgwb/slab.h>
#include <cgwb/errno.h>
#include <cgwb/string.h>
#include <cgwb/shell.h>
#include "internal.h"
#include <cgwb/pipe.h>
#include "lang/expand.h"
#include "lang/pattern.h"

static int exec_list(struct shell *sh, struct sh_node *n)
{
	int status = 0;

	for (struct sh_node *kid = n->kids; kid; kid = kid->next) {
		if (kid->flags & SH_BG) {
			sh_exec_background(sh, kid);
			status = sh->status = 0;
		} else {
			status = sh_exec(sh, kid);
		}
		if (sh_unwinding(sh))
			break;
	}
	return status;
}

static int exec_andor(struct shell *sh, struct sh_node *n)
{
	int status = 0;

	for (struct sh_node *kid = n->kids; kid; kid = kid->next) {
		if ((kid->flags & SH_IF_OK) && status)
			continue;
		if ((kid->flags & SH_IF_FAIL) && !status)
			continue;
		status = sh_exec(sh, kid);
		if (sh_unwinding(sh))
			break;
	}
	return status;
}

/* After a loop body: whether to leave the loop (break, an outer continue, exit, Ctrl-C). */
static bool loop_leave(struct shell *sh)
{
	if (sh->breaks) {
		sh->breaks--;
		return true;
	}
	if (sh->continues)
		return --sh->continues > 0; /* 0: "continue" is for this loop */
	return sh_unwinding(sh);
}

static int exec_while(struct shell *sh, struct sh_node *n, bool until)
{
	int status = 0;

	sh->loop_depth++;
	for (;;) {
		int cond = sh_exec(sh, n->cond.cond);

		if (sh_unwinding(sh)) {
			if (loop_leave(sh))
				break;
			continue;
		}
		if ((cond == 0) == until)
			break;
		status = sh_exec(sh, n->cond.body);
		if (loop_leave(sh))
			break;
	}
	sh->loop_depth--;
	return status;
}

static int exec_for(struct shell *sh, struct sh_node *n)
{
	struct strv words = STRV_INIT;
	int status = 0;

	if (sh_expand_words(sh, n->loop.words, &words)) {
		strv_free(&words);
		return 2;
	}
	sh->loop_depth++;
	for (int i = 0; i < words.n && !sh_unwinding(sh); i++) {
		int err = sh_var_set(&sh->vars, n->loop.var, words.v[i], 0);

		if (err) {
			shell_msg(NULL, "%s: %s", n->loop.var, errstr(err));
			status = 1;
			break;
		}
		status = sh_exec(sh, n->loop.body);
		if (loop_leave(sh))
			break;
	}
	sh->loop_depth--;
	strv_free(&words);
	return status;
}

/* if, and its elif chain, in a loop: a long chain is not a deep recursion. */
static int exec_if(struct shell *sh, struct sh_node *n)
{
	for (;;) {
		int cond = sh_exec(sh, n->cond.cond);
		struct sh_node *alt = n->cond.alt;

		if (sh_unwinding(sh))
			return cond;
		if (!cond)
			return sh_exec(sh, n->cond.body);
		if (!alt)
			return 0;
		if (!(alt->flags & SH_ELIF))
			return sh_exec(sh, alt);
		n = alt;
	}
}

/* Does one of the item's patterns match word? -1 after a failed expansion. */
static int case_item_matches(struct shell *sh, const struct sh_node *item, const char *word)
{
	for (const struct sh_word *w = item->item.patterns; w; w = w->next) {
		char *pat;
		bool hit;

		if (sh_expand_pattern(&sh->env, w->text, &pat)) {
			sh_expansion_failed(sh, NULL);
			return -1;
		}
		hit = sh_pattern_match(pat, word, strlen(word));
		kfree(pat);
		if (hit)
			return 1;
	}
	return 0;
}

/* The first item with a matching pattern runs; none: status 0. */
static int exec_case(struct shell *sh, struct sh_node *n)
{
	char *word;
	int status = 0;

	if (sh_expand_string(&sh->env, n->kase.word->text, &word))
		return sh_expansion_failed(sh, NULL);
	for (struct sh_node *item = n->kase.items; item; item = item->next) {
		int hit = case_item_matches(sh, item, word);

		if (hit < 0) {
			status = 2;
			break;
		}
		if (hit) {
			status = item->item.body ? sh_exec(sh, item->item.body) : 0;
			break;
		}
	}
	kfree(word);
	return status;
}

static int exec_compound_body(struct shell *sh, struct sh_node *n)
{
	switch (n->type) {
	case SH_BRACE:
		return sh_exec(sh, n->body);
	case SH_IF:
		return exec_if(sh, n);
	case SH_WHILE:
		return exec_while(sh, n, false);
	case SH_UNTIL:
		return exec_while(sh, n, true);
	case SH_FOR:
		return exec_for(sh, n);
	case SH_CASE:
		return exec_case(sh, n);
	case SH_FUNCDEF:
		return sh_func_define(sh, n->func.name, n->func.body->src, n->func.body->src_len);
	default:
		return 2;
	}
}

/* A compound command in the shell's task, its redirections in force while it runs. */
static int exec_compound(struct shell *sh, struct sh_node *n)
{
	struct sh_files fs, saved;
	int status;

	if (!n->redirs)
		return exec_compound_body(sh, n);
	files_from_current(&fs);
	status = sh_redirect(sh, n->redirs, &fs);
	if (status) {
		files_put(&fs);
		return status;
	}
	files_install(&fs, &saved);
	status = exec_compound_body(sh, n);
	files_restore(&saved);
	return status;
}

/*
 * Room left on the task's stack. The parser and the expansions bound their own depth;
 * running nested commands is bounded by what is left, with enough kept for one command's
 * expansions, arithmetic and messages at the deepest point.
 */
#define EXEC_STACK_RESERVE 7168

static size_t stack_left(void)
{
	return (size_t)((char *)__builtin_frame_address(0) - (char *)current->stack);
}

int sh_exec(struct shell *sh, struct sh_node *n)
{
	int status;

	if (stack_left() < EXEC_STACK_RESERVE) {
		shell_msg(NULL, "too deeply nested");
		return sh->status = 2;
	}
	switch (n->type) {
	case SH_CMD:
		status = sh_exec_simple(sh, n);
		break;
	case SH_PIPE:
	case SH_SUBSHELL:
		status = sh_exec_job(sh, n);
		break;
	case SH_LIST:
		status = exec_list(sh, n);
		break;
	case SH_ANDOR:
		status = exec_andor(sh, n);
		break;
	default:
		status = exec_compound(sh, n);
	}
	if (n->flags & SH_NEGATE)
		status = !status;
	sh->status = status;
	/*
	 * A subshell writing into a pipe nobody reads any more would get SIGPIPE at its next
	 * write; its commands are tasks that got it instead, so it stops here on their behalf
	 * ("while true; do echo x; done | true" ends).
	 */
	if (!sh->console && pipe_broken(current->files[1]))
		send_sig_kill(current);
	return status;
}
