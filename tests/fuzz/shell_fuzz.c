/*
 * libFuzzer harness: the shell's language core (shell/lang/) on arbitrary text.
 *
 * Each input is, in turn: lexed to the end; parsed command by command, every word,
 * assignment, redirection target and for-list of the tree expanded (with and without field
 * splitting) in a fake environment whose command substitution only echoes its source, so
 * nothing runs; evaluated as an arithmetic expression; and, split at its first newline,
 * compiled as a regular expression (basic and extended) matched against the rest. Errors
 * are fine; a crash, a sanitizer report, a hang or an object not given back is a finding.
 */
#include <stdint.h>
#include <stddef.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include <cgwb/bug.h>
#include "host.h"
#include "../../shell/lang/lexer.h"
#include "../../shell/lang/parser.h"
#include "../../shell/lang/expand.h"
#include "../../shell/lang/arith.h"
#include "../../shell/lang/vars.h"
#include "../../shell/lang/regex.h"

#define SHELL_FUZZ_MAX_INPUT 4096 /* longer inputs teach nothing more, only slow the run */
#define MAX_COMMANDS 64
#define MAX_EXPANSIONS 256 /* words expanded per input */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

struct fuzz_env {
	struct sh_env env;
	struct sh_vars vars;
	int expansions;
};

static struct fuzz_env E;

static const char *f_get(struct sh_env *env, const char *name)
{
	struct fuzz_env *e = container_of(env, struct fuzz_env, env);

	if (!strcmp(name, "?"))
		return "0";
	if (!strcmp(name, "$"))
		return "42";
	if (!strcmp(name, "#"))
		return "2";
	return sh_var_get(&e->vars, name);
}

static int f_set(struct sh_env *env, const char *name, const char *value)
{
	return sh_var_set(&container_of(env, struct fuzz_env, env)->vars, name, value, 0);
}

/* The stand-in for running a command: its output is its own text. */
static int f_subst(struct sh_env *env, const char *src, size_t len, struct strbuf *out)
{
	sb_addn(out, src, len);
	sb_addc(out, '\n');
	return len & 1;
}

static const struct sh_env_ops f_ops = { .get = f_get, .set = f_set, .subst = f_subst };

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	host_platform_init(16 << 20);
	return 0;
}

static void count_active(const struct kmem_cache_info *info, void *arg)
{
	*(long *)arg += (long)info->active_objs;
}

static long objects_in_use(void)
{
	long n = 0;

	kmem_cache_for_each(count_active, &n);
	return n;
}

static void env_reset(void)
{
	sh_vars_free(&E.vars);
	memset(&E, 0, sizeof(E));
	E.env.ops = &f_ops;
	E.env.subst_status = -1;
	BUG_ON(sh_var_set(&E.vars, "x", "hello", 0));
	BUG_ON(sh_var_set(&E.vars, "sp", " a  b ", 0));
	BUG_ON(sh_var_set(&E.vars, "empty", "", 0));
	BUG_ON(sh_var_set(&E.vars, "n", "7", 0));
}

static void lex_all(const char *src, size_t len)
{
	struct sh_lexer lx;
	struct sh_token tok;

	sh_lexer_init(&lx, src, len);
	for (size_t n = 0; n <= len + 1; n++) {
		if (sh_lex(&lx, &tok) || tok.type == TOK_EOF)
			return;
		BUG_ON(tok.start < src || tok.start + tok.len > src + len);
	}
	BUG(); /* every token takes at least one byte, or the input ends */
}

static void expand_word(const char *word)
{
	struct strv sv = STRV_INIT;
	char *s;

	if (E.expansions++ >= MAX_EXPANSIONS)
		return;
	sh_expand_fields(&E.env, word, &sv);
	for (int i = 0; i < sv.n; i++)
		BUG_ON(!sv.v[i]);
	strv_free(&sv);
	if (!sh_expand_string(&E.env, word, &s))
		kfree(s);
}

static void expand_words(const struct sh_word *w)
{
	for (; w; w = w->next)
		expand_word(w->text);
}

static void expand_tree(const struct sh_node *n, int depth)
{
	BUG_ON(depth > 4 * SH_MAX_NESTING);
	for (; n; n = n->next) {
		for (const struct sh_redir *r = n->redirs; r; r = r->next)
			expand_words(r->target);
		switch (n->type) {
		case SH_CMD:
			expand_words(n->cmd.assigns);
			expand_words(n->cmd.words);
			break;
		case SH_LIST:
		case SH_PIPE:
		case SH_ANDOR:
			expand_tree(n->kids, depth + 1);
			break;
		case SH_BRACE:
		case SH_SUBSHELL:
			expand_tree(n->body, depth + 1);
			break;
		case SH_IF:
		case SH_WHILE:
		case SH_UNTIL:
			expand_tree(n->cond.cond, depth + 1);
			expand_tree(n->cond.body, depth + 1);
			expand_tree(n->cond.alt, depth + 1);
			break;
		case SH_FOR:
			expand_words(n->loop.words);
			expand_tree(n->loop.body, depth + 1);
			break;
		}
	}
}

static void parse_all(const char *src, size_t len)
{
	struct sh_parser p;
	struct sh_node *node;

	sh_parser_init(&p, src, len);
	for (int i = 0; i < MAX_COMMANDS; i++) {
		size_t before = sh_parser_pos(&p);

		if (sh_parse_next(&p, &node) || !node)
			return;
		BUG_ON(sh_parser_pos(&p) <= before || sh_parser_pos(&p) > len);
		expand_tree(node, 0);
		sh_node_free(node);
	}
}

static void regex_try(const char *text)
{
	const char *nl = strchr(text, '\n');
	char *pattern;
	struct regex *re;

	if (!nl)
		return;
	pattern = kmalloc((size_t)(nl - text) + 1, GFP_KERNEL);
	BUG_ON(!pattern);
	memcpy(pattern, text, (size_t)(nl - text));
	pattern[nl - text] = 0;
	for (int ere = 0; ere < 2; ere++) {
		if (regex_compile(&re, pattern, ere, ere) == 0) {
			regex_match(re, nl + 1);
			regex_free(re);
		}
	}
	kfree(pattern);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	long objects = objects_in_use();
	char *text;
	s64 v;

	if (size > SHELL_FUZZ_MAX_INPUT)
		return -1; /* not added to the corpus */
	env_reset();
	text = kmalloc(size + 1, GFP_KERNEL);
	BUG_ON(!text);
	memcpy(text, data, size);
	text[size] = 0;

	lex_all(text, size);
	parse_all(text, size);
	sh_arith(&E.env, text, &v); /* up to the first NUL, as the shell passes it */
	regex_try(text);

	kfree(text);
	sh_vars_free(&E.vars);
	BUG_ON(objects_in_use() != objects); /* everything taken was given back */
	return 0;
}
