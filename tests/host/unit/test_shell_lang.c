/*
 * Unit tests of the shell's portable language core (shell/lang/): tokens, parsing,
 * parse errors and incomplete input, expansion with quoting and field splitting,
 * arithmetic, variables, and test expressions.
 *
 * Built and run by `make test-host` (T='shell*' for only these). Without the host platform:
 *   gcc -std=gnu11 -DCGWB_SHELL_LANG_STANDALONE -Iinclude -fsanitize=address,undefined \
 *       tests/host/unit/test_shell_lang.c shell/lang/\*.c kernel/lib/string_ext.c \
 *       -lcriterion
 */
#include <criterion/criterion.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include "../../../shell/lang/lexer.h"
#include "../../../shell/lang/parser.h"
#include "../../../shell/lang/expand.h"
#include "../../../shell/lang/arith.h"
#include "../../../shell/lang/vars.h"
#include "../../../shell/lang/test.h"
#include "../../../shell/lang/pattern.h"
#include "../../../shell/lang/read.h"

/*
 * Memory: the real kmalloc on the host platform, or malloc when built standalone. Every
 * test checks that the language core gave back every object it took.
 */
#ifdef CGWB_SHELL_LANG_STANDALONE

static long live_objects;

void *kmalloc(size_t size, gfp_t gfp)
{
	void *p = size ? malloc(size) : NULL;

	if (p && (gfp & __GFP_ZERO))
		memset(p, 0, size);
	live_objects += p != NULL;
	return p;
}

void *kzalloc(size_t size, gfp_t gfp)
{
	return kmalloc(size, gfp | __GFP_ZERO);
}

void kfree(const void *p)
{
	live_objects -= p != NULL;
	free((void *)p);
}

static long objects_in_use(void)
{
	return live_objects;
}

static void platform_init(void)
{
}

static void platform_exit(void)
{
}
#else
#include "host.h"

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

static void platform_init(void)
{
	host_platform_init(8 << 20);
}

static void platform_exit(void)
{
	host_platform_exit();
}
#endif

static long objects_at_start;
static void env_release(void);

static void setup(void)
{
	platform_init();
	objects_at_start = objects_in_use();
}

static void teardown(void)
{
	platform_exit();
}

/*
 * Criterion only warns about a failed assertion in .fini, so the leak check runs at the
 * end of each test body: SHELL_TEST is Test with that check added.
 */
static void check_leaks(void)
{
	long leaked;

	env_release();
	leaked = objects_in_use() - objects_at_start;
	cr_assert_eq(leaked, 0, "%ld objects not freed", leaked);
}

#define SHELL_TEST(suite, name)                  \
	static void suite##_##name##_body(void); \
	Test(suite, name)                        \
	{                                        \
		suite##_##name##_body();         \
		check_leaks();                   \
	}                                        \
	static void suite##_##name##_body(void)

/* The tables most tests are: an input, what it must give, and why where it is not plain. */
struct str_case {
	const char *in, *want, *why;
};

struct arith_case {
	const char *expr;
	s64 want;
};

struct pattern_case {
	const char *pattern, *s;
	bool match;
};

/* ------------------------------------------------------------------ an environment */

struct test_env {
	struct sh_env env;
	struct sh_vars vars;
	int substs; /* command substitutions run */
	char status[16];
};

static struct test_env T;

static const char *t_get(struct sh_env *env, const char *name)
{
	struct test_env *t = (struct test_env *)env;

	if (!strcmp(name, "?"))
		return t->status;
	if (!strcmp(name, "$"))
		return "42";
	return sh_var_get(&t->vars, name);
}

static int t_set(struct sh_env *env, const char *name, const char *value)
{
	return sh_var_set(&((struct test_env *)env)->vars, name, value, 0);
}

/* A stand-in for running commands: "echo ARGS" prints ARGS, "fail" exits 3. */
static int t_subst(struct sh_env *env, const char *src, size_t len, struct strbuf *out)
{
	struct test_env *t = (struct test_env *)env;

	t->substs++;
	if (len == 4 && !memcmp(src, "fail", 4))
		return 3;
	if (len >= 5 && !memcmp(src, "echo ", 5)) {
		sb_addn(out, src + 5, len - 5);
		sb_adds(out, "\n\n");
		return 0;
	}
	if (len == 7 && !memcmp(src, "seq 1 3", 7)) {
		sb_adds(out, "1\n2\n3\n");
		return 0;
	}
	return 127;
}

/* A stand-in for the filesystem: these paths exist, in this (sorted) order. */
static int t_glob(struct sh_env *env, const char *pattern, struct strv *out)
{
	static const char *const paths[] = { "a b.c", "b.c", "b.h", "dir/x.c", "star*" };
	int n = 0;

	for (size_t i = 0; i < ARRAY_SIZE(paths); i++) {
		/* as in a directory listing, * never crosses a / */
		if (!strchr(pattern, '/') != !strchr(paths[i], '/'))
			continue;
		if (sh_pattern_match(pattern, paths[i], strlen(paths[i]))) {
			strv_push(out, kstrdup(paths[i], GFP_KERNEL));
			n++;
		}
	}
	return n;
}

static const struct sh_env_ops t_ops = {
	.get = t_get,
	.set = t_set,
	.subst = t_subst,
	.glob = t_glob,
};

static void env_setup(void)
{
	setup();
	memset(&T, 0, sizeof(T));
	T.env.ops = &t_ops;
	T.env.subst_status = -1;
	strcpy(T.status, "0");
	sh_var_set(&T.vars, "x", "hello", 0);
	sh_var_set(&T.vars, "sp", " a  b ", 0);
	sh_var_set(&T.vars, "empty", "", 0);
	sh_var_set(&T.vars, "n", "7", 0);
}

static void env_release(void)
{
	sh_vars_free(&T.vars);
}

/* The fields of a word joined as "[f1][f2]..." for easy comparison. */
static char *fields(const char *word)
{
	static char out[512];
	struct strv sv = STRV_INIT;
	int err = sh_expand_fields(&T.env, word, &sv);

	if (err) {
		snprintf(out, sizeof(out), "error: %s", T.env.err);
	} else {
		out[0] = '\0';
		for (int i = 0; i < sv.n; i++) {
			strcat(out, "[");
			strcat(out, sv.v[i]);
			strcat(out, "]");
		}
	}
	strv_free(&sv);
	return out;
}

static char *str(const char *word)
{
	static char out[512];
	char *s;
	int err = sh_expand_string(&T.env, word, &s);

	if (err) {
		snprintf(out, sizeof(out), "error: %s", T.env.err);
		return out;
	}
	snprintf(out, sizeof(out), "%s", s);
	kfree(s);
	return out;
}

static void check_strings(const struct str_case *c, size_t n, char *(*fn)(const char *))
{
	for (size_t i = 0; i < n; i++)
		cr_assert_str_eq(fn(c[i].in), c[i].want, "%s%s%s", c[i].in, c[i].why ? ": " : "",
				 c[i].why ? c[i].why : "");
}

/* Each word's fields, as "[f1][f2]..." (or "error: ..."). */
static void check_fields(const struct str_case *c, size_t n)
{
	check_strings(c, n, fields);
}

/* Each word expanded as one string (an assignment's value). */
static void check_strs(const struct str_case *c, size_t n)
{
	check_strings(c, n, str);
}

/* ------------------------------------------------------------------ lexer */

static int lex_all(const char *src, struct sh_token *toks, int max)
{
	struct sh_lexer lx;
	int n = 0;

	sh_lexer_init(&lx, src, strlen(src));
	while (n < max) {
		int err = sh_lex(&lx, &toks[n]);

		if (err)
			return err;
		if (toks[n++].type == TOK_EOF)
			break;
	}
	return n;
}

TestSuite(shell_lexer, .init = setup, .fini = teardown);

SHELL_TEST(shell_lexer, operators_and_words)
{
	struct sh_token t[16];
	int n = lex_all("a&&b||c|d;e&f;;(g)\n", t, 16);

	cr_assert_eq(n, 16);
	enum sh_tok_type want[] = {
		TOK_WORD,   TOK_AND_IF, TOK_WORD,   TOK_OR_IF,   TOK_WORD, TOK_PIPE,
		TOK_WORD,   TOK_SEMI,   TOK_WORD,   TOK_AMP,     TOK_WORD, TOK_DSEMI,
		TOK_LPAREN, TOK_WORD,   TOK_RPAREN, TOK_NEWLINE,
	};
	for (int i = 0; i < 16; i++)
		cr_assert_eq(t[i].type, want[i], "token %d", i);
}

SHELL_TEST(shell_lexer, quotes_and_substitutions_stay_in_one_word)
{
	struct sh_token t[4];
	const char *src = "'a b'\"c $(d; e) f\"$((1 + (2)))${x:-y z}`g h` next";
	int n = lex_all(src, t, 4);

	cr_assert_eq(n, 3);
	cr_assert_eq(t[0].type, TOK_WORD);
	cr_assert(t[0].quoted);
	cr_assert_eq(t[0].len, strlen(src) - 5);
	cr_assert_eq(t[1].len, 4);
}

SHELL_TEST(shell_lexer, redirections)
{
	struct sh_token t[12];
	int n = lex_all("a 2>&1 >>f <g 10>h", t, 12);

	cr_assert_eq(n, 10);
	cr_assert_eq(t[1].type, TOK_REDIR);
	cr_assert_eq(t[1].redir, REDIR_DUP_OUT);
	cr_assert_eq(t[1].fd, 2);
	cr_assert_eq(t[3].redir, REDIR_APPEND);
	cr_assert_eq(t[3].fd, -1);
	cr_assert_eq(t[5].redir, REDIR_IN);
	cr_assert_eq(t[7].fd, 10);
	cr_assert_eq(t[7].len, 3);
}

SHELL_TEST(shell_lexer, comments_and_continuations)
{
	struct sh_token t[8];
	int n = lex_all("a # b c\nd \\\ne a#b", t, 8);

	cr_assert_eq(n, 6);
	cr_assert_eq(t[1].type, TOK_NEWLINE);
	cr_assert_eq(t[2].len, 1);
	cr_assert_eq(t[3].len, 1);
	cr_assert_eq(t[4].len, 3, "a # inside a word is not a comment");
}

SHELL_TEST(shell_lexer, incomplete_input)
{
	struct sh_token t[4];

	cr_assert_eq(lex_all("echo 'abc", t, 4), -EAGAIN);
	cr_assert_eq(lex_all("echo \"abc", t, 4), -EAGAIN);
	cr_assert_eq(lex_all("echo $(abc", t, 4), -EAGAIN);
	cr_assert_eq(lex_all("echo abc\\", t, 4), -EAGAIN);
	cr_assert_eq(lex_all("echo abc \\\n", t, 4), -EAGAIN);
	/* << and <<- are redirections; the parser reads the body */
	cr_assert_eq(lex_all("cat <<-EOF", t, 4), 4);
	cr_assert_eq(t[1].redir, REDIR_HEREDOC_STRIP);
	cr_assert_eq(t[1].len, 3);
}

/* ------------------------------------------------------------------ parser */

static struct sh_node *parse1(const char *src, int *err)
{
	static struct sh_parser p;
	struct sh_node *n = NULL;

	sh_parser_init(&p, src, strlen(src));
	*err = sh_parse_next(&p, &n);
	return n;
}

static const char *parse_msg(const char *src)
{
	static struct sh_parser p;
	struct sh_node *n = NULL;

	sh_parser_init(&p, src, strlen(src));
	while (!sh_parse_next(&p, &n) && n)
		sh_node_free(n);
	return p.err ? p.msg : "ok";
}

static void check_parse_msgs(const struct str_case *c, size_t n)
{
	for (size_t i = 0; i < n; i++)
		cr_assert_str_eq(parse_msg(c[i].in), c[i].want, "%s", c[i].in);
}

TestSuite(shell_parser, .init = setup, .fini = teardown);

SHELL_TEST(shell_parser, simple_command)
{
	int err;
	struct sh_node *n = parse1("A=1 B=2 echo x=y >out 2>&1 z\n", &err);

	cr_assert_eq(err, 0);
	cr_assert_eq(n->type, SH_CMD);
	cr_assert_eq(sh_words_count(n->cmd.assigns), 2);
	cr_assert_eq(sh_words_count(n->cmd.words), 3);
	cr_assert_str_eq(n->cmd.words->next->text, "x=y");
	cr_assert_eq(n->redirs->fd, 1);
	cr_assert_str_eq(n->redirs->target->text, "out");
	cr_assert_eq(n->redirs->next->fd, 2);
	cr_assert_str_eq(n->redirs->next->target->text, "1");
	sh_node_free(n);
}

SHELL_TEST(shell_parser, list_and_or_pipeline)
{
	int err;
	struct sh_node *n = parse1("a | b && ! c || d & e; f", &err), *k;

	cr_assert_eq(err, 0);
	cr_assert_eq(n->type, SH_LIST);
	k = n->kids;
	cr_assert_eq(k->type, SH_ANDOR);
	cr_assert(k->flags & SH_BG);
	cr_assert_eq(k->kids->type, SH_PIPE);
	cr_assert(k->kids->next->flags & SH_IF_OK);
	cr_assert(k->kids->next->flags & SH_NEGATE);
	cr_assert(k->kids->next->next->flags & SH_IF_FAIL);
	cr_assert_eq(k->src_len, strlen("a | b && ! c || d"));
	cr_assert_eq(k->next->type, SH_CMD);
	cr_assert_eq(k->next->next->type, SH_CMD);
	sh_node_free(n);
}

SHELL_TEST(shell_parser, compound_commands)
{
	int err;
	struct sh_node *n = parse1("for i in 1 2 3; do\n  if a; then b; elif c; then d; else e; "
				   "fi\ndone > log\n",
				   &err);

	cr_assert_eq(err, 0);
	cr_assert_eq(n->type, SH_FOR);
	cr_assert_str_eq(n->loop.var, "i");
	cr_assert_eq(sh_words_count(n->loop.words), 3);
	cr_assert_eq(n->loop.body->type, SH_IF);
	cr_assert_eq(n->loop.body->cond.alt->type, SH_IF);
	cr_assert_eq(n->loop.body->cond.alt->cond.alt->type, SH_CMD);
	cr_assert_str_eq(n->redirs->target->text, "log");
	sh_node_free(n);

	n = parse1("while x; do y; done; until z; do w; done", &err);
	cr_assert_eq(err, 0);
	cr_assert_eq(n->kids->type, SH_WHILE);
	cr_assert_eq(n->kids->next->type, SH_UNTIL);
	sh_node_free(n);

	n = parse1("{ a; b; } | ( c & )", &err);
	cr_assert_eq(err, 0);
	cr_assert_eq(n->kids->type, SH_BRACE);
	cr_assert_eq(n->kids->next->type, SH_SUBSHELL);
	cr_assert_eq(n->kids->next->body->type, SH_LIST);
	sh_node_free(n);
}

SHELL_TEST(shell_parser, case_items)
{
	int err;
	struct sh_node *n =
		parse1("case $x in\n(a|b*) echo 1;;\n c) ;;\n *) echo 2; echo 3\nesac > out", &err);
	struct sh_node *it;

	cr_assert_eq(err, 0);
	cr_assert_eq(n->type, SH_CASE);
	cr_assert_str_eq(n->kase.word->text, "$x");
	it = n->kase.items;
	cr_assert_eq(sh_words_count(it->item.patterns), 2);
	cr_assert_str_eq(it->item.patterns->next->text, "b*");
	cr_assert_eq(it->item.body->type, SH_CMD);
	it = it->next;
	cr_assert_null(it->item.body);
	it = it->next;
	cr_assert_eq(it->item.body->type, SH_LIST);
	cr_assert_null(it->next);
	cr_assert_str_eq(n->redirs->target->text, "out");
	sh_node_free(n);
	n = parse1("case a in esac", &err);
	cr_assert_eq(err, 0);
	cr_assert_null(n->kase.items);
	sh_node_free(n);
	n = parse1("case a in\n a)", &err);
	cr_assert_eq(err, -EAGAIN);
	sh_node_free(n);
}

SHELL_TEST(shell_parser, function_definitions)
{
	int err;
	struct sh_node *n = parse1("f() { echo $1; } ; g ()\n{ f x; }", &err);

	cr_assert_eq(err, 0);
	cr_assert_eq(n->type, SH_LIST);
	cr_assert_eq(n->kids->type, SH_FUNCDEF);
	cr_assert_str_eq(n->kids->func.name, "f");
	cr_assert_eq(n->kids->func.body->type, SH_BRACE);
	cr_assert_eq(n->kids->next->type, SH_FUNCDEF);
	cr_assert_str_eq(n->kids->next->func.name, "g");
	sh_node_free(n);
	/* Not a definition: the lookahead backs out. */
	n = parse1("f x (", &err);
	cr_assert_eq(err, -EINVAL);
	sh_node_free(n);
	n = parse1("f", &err);
	cr_assert_eq(err, 0);
	cr_assert_eq(n->type, SH_CMD);
	sh_node_free(n);
}

static void count_redir(const struct sh_redir *r, void *arg)
{
	*(int *)arg += r->type == REDIR_HEREDOC;
}

SHELL_TEST(shell_parser, here_documents)
{
	int err;
	struct sh_node *n = parse1("cat <<EOF; cat <<-'E2' >out\nhi "
				   "$x\nEOF\n\t\ttabbed\n\tE2\necho after",
				   &err);
	struct sh_redir *r;

	cr_assert_eq(err, 0);
	cr_assert_eq(n->type, SH_LIST);
	r = n->kids->redirs;
	cr_assert_eq(r->type, REDIR_HEREDOC);
	cr_assert_eq(r->fd, 0);
	cr_assert_str_eq(r->body->text, "hi $x\n");
	cr_assert(!r->literal);
	r = n->kids->next->redirs;
	cr_assert_eq(r->type, REDIR_HEREDOC_STRIP);
	cr_assert(r->literal);
	cr_assert_str_eq(r->body->text, "tabbed\n");
	sh_node_free(n);

	/* The body is not the next command; the one after it is. */
	{
		static struct sh_parser p;
		const char *src = "cat <<X\necho no\nX\necho yes\n";

		sh_parser_init(&p, src, strlen(src));
		cr_assert_eq(sh_parse_next(&p, &n), 0);
		sh_node_free(n);
		cr_assert_eq(sh_parse_next(&p, &n), 0);
		cr_assert_str_eq(n->cmd.words->next->text, "yes");
		sh_node_free(n);
	}
	/* where each body is in the source, for a subshell re-parsing the command's text */
	{
		static const char src[] = "{ cat <<A; cat <<B; } | sort\na\nA\nb\nB\n";
		int count = 0;

		n = parse1(src, &err);
		cr_assert_eq(err, 0);
		sh_node_for_each_redir(n, count_redir, &count);
		cr_assert_eq(count, 2);
		r = n->kids->body->kids->redirs;
		cr_assert_eq(r->body_src, src + strlen("{ cat <<A; cat <<B; } | sort\n"));
		cr_assert_eq(r->body_src_len, strlen("a\nA\n"));
		cr_assert_eq(n->kids->body->kids->next->redirs->body_src, r->body_src + 4);
		sh_node_free(n);
	}
	n = parse1("cat <<EOF\nline\n", &err);
	cr_assert_eq(err, -EAGAIN);
	sh_node_free(n);
	n = parse1("cat <<EOF\nline\nEOF", &err);
	cr_assert_eq(err, 0);
	cr_assert_str_eq(n->redirs->body->text, "line\n");
	sh_node_free(n);
}

SHELL_TEST(shell_parser, reserved_words_only_in_command_position)
{
	int err;
	struct sh_node *n = parse1("echo if then done }", &err);

	cr_assert_eq(err, 0);
	cr_assert_eq(sh_words_count(n->cmd.words), 5);
	sh_node_free(n);
	n = parse1("\"if\" x", &err);
	cr_assert_eq(err, 0);
	cr_assert_eq(n->type, SH_CMD);
	sh_node_free(n);
}

SHELL_TEST(shell_parser, one_complete_command_at_a_time)
{
	const char *src = "echo a; echo b\n\n# comment\nfor i in 1\ndo x\ndone\necho c";
	struct sh_parser p;
	struct sh_node *n;
	int count = 0;

	sh_parser_init(&p, src, strlen(src));
	while (!sh_parse_next(&p, &n) && n) {
		if (count == 1)
			cr_assert_eq(n->type, SH_FOR);
		count++;
		sh_node_free(n);
	}
	cr_assert_eq(p.err, 0);
	cr_assert_eq(count, 3);
}

SHELL_TEST(shell_parser, incomplete_input_asks_for_more)
{
	const char *partial[] = {
		"for i in 1 2",
		"for i in 1 2; do",
		"if true; then x",
		"while a",
		"a &&",
		"a |",
		"a ||\n",
		"{ a; ",
		"( a",
		"echo 'x",
		"echo $(",
		"if a; then b; else",
	};
	for (size_t i = 0; i < ARRAY_SIZE(partial); i++) {
		int err;
		struct sh_node *n = parse1(partial[i], &err);

		cr_assert_eq(err, -EAGAIN, "'%s' gives %d", partial[i], err);
		cr_assert_null(n);
	}
}

SHELL_TEST(shell_parser, syntax_errors)
{
	static const struct str_case cases[] = {
		{ "done", "unexpected 'done'", NULL },
		{ "echo a; fi", "unexpected 'fi'", NULL },
		{ "| a", "unexpected '|'", NULL },
		{ "a && ; b", "unexpected ';'", NULL },
		{ "a ;; b", "unexpected ';;'", NULL },
		{ "if a; then fi", "unexpected 'fi'", NULL },
		{ "while a; do done", "unexpected 'done'", NULL },
		{ "for 1x in a; do b; done", "bad for loop variable '1x'", NULL },
		{ "a )", "unexpected ')'", NULL },
		{ "echo >", "unexpected end of file", NULL },
		{ "echo > ;", "unexpected ';'", NULL },
		{ "case x in a b) ;; esac", "unexpected 'b'", NULL },
		{ "case x in a) y esac", "unexpected end of file", NULL },
		{ "f() echo x", "unexpected 'echo'", NULL },
		{ "echo ok\n", "ok", NULL },
	};

	check_parse_msgs(cases, ARRAY_SIZE(cases));
}

SHELL_TEST(shell_parser, nesting_is_bounded)
{
	char src[2048] = "";

	for (int i = 0; i < SH_MAX_NESTING + 1; i++)
		strcat(src, "{ ");
	strcat(src, "a; ");
	for (int i = 0; i < SH_MAX_NESTING + 1; i++)
		strcat(src, "}; ");
	cr_assert_str_eq(parse_msg(src), "too deeply nested");
}

SHELL_TEST(shell_parser, elif_chains_are_flat)
{
	char src[4096] = "if a; then b; ";
	struct sh_node *n, *k;
	int err, count = 0;

	/* far more branches than nesting levels: an elif is not a level */
	for (int i = 0; i < 3 * SH_MAX_NESTING; i++)
		strcat(src, "elif c; then d; ");
	strcat(src, "else e; fi");
	n = parse1(src, &err);
	cr_assert_eq(err, 0);
	for (k = n->cond.alt; k && k->type == SH_IF; k = k->cond.alt) {
		cr_assert(k->flags & SH_ELIF);
		count++;
	}
	cr_assert_eq(count, 3 * SH_MAX_NESTING);
	cr_assert_eq(k->type, SH_CMD, "the else part ends the chain");
	sh_node_free(n);
}

SHELL_TEST(shell_parser, assignments_are_found_before_the_command_name_only)
{
	cr_assert_eq(sh_assignment_name_len("a_1=x", 5), 3);
	cr_assert_eq(sh_assignment_name_len("=x", 2), 0);
	cr_assert_eq(sh_assignment_name_len("1a=x", 4), 0);
	cr_assert_eq(sh_assignment_name_len("a.b=x", 5), 0);
	cr_assert_eq(sh_assignment_name_len("ab", 2), 0);

	int err;
	struct sh_node *n = parse1("x=1 echo y=2", &err);

	cr_assert_eq(sh_words_count(n->cmd.assigns), 1);
	cr_assert_str_eq(n->cmd.words->next->text, "y=2");
	sh_node_free(n);
}

SHELL_TEST(shell_parser, redirection_operators)
{
	int err;
	struct sh_node *n = parse1("c <in >|clob <>rw 3<&0 2>&- >>app", &err);
	struct sh_redir *r = n->redirs;

	cr_assert_eq(err, 0);
	cr_assert_eq(r->type, REDIR_IN);
	cr_assert_eq(r->fd, 0);
	r = r->next;
	cr_assert_eq(r->type, REDIR_OUT);
	cr_assert_str_eq(r->target->text, "clob");
	r = r->next;
	cr_assert_eq(r->type, REDIR_RDWR);
	cr_assert_eq(r->fd, 0);
	r = r->next;
	cr_assert_eq(r->type, REDIR_DUP_IN);
	cr_assert_eq(r->fd, 3);
	r = r->next;
	cr_assert_eq(r->type, REDIR_DUP_OUT);
	cr_assert_str_eq(r->target->text, "-");
	r = r->next;
	cr_assert_eq(r->type, REDIR_APPEND);
	cr_assert_eq(r->fd, 1);
	sh_node_free(n);
}

SHELL_TEST(shell_parser, node_spans_cover_their_source)
{
	int err;
	const char *src = "sleep 1 && echo done & while true; do x; done > f\n";
	struct sh_node *n = parse1(src, &err);

	cr_assert_eq(err, 0);
	cr_assert_eq(n->kids->src_len, strlen("sleep 1 && echo done"));
	cr_assert_eq(
		strncmp(n->kids->next->src, "while true; do x; done > f", n->kids->next->src_len), 0);
	cr_assert_eq(n->kids->next->src_len, strlen("while true; do x; done > f"));
	sh_node_free(n);
}

/* ------------------------------------------------------------------ expansion */

TestSuite(shell_expand, .init = env_setup, .fini = teardown);

SHELL_TEST(shell_expand, quotes)
{
	static const struct str_case cases[] = {
		{ "'a b'", "[a b]", NULL },
		{ "\"a b\"", "[a b]", NULL },
		{ "a\\ b", "[a b]", NULL },
		{ "'$x'", "[$x]", NULL },
		{ "\"$x\"", "[hello]", NULL },
		{ "\"\\$x \\\\ \\a \\\"\"", "[$x \\ \\a \"]", NULL },
		{ "''", "[]", NULL },
		{ "\"\"", "[]", NULL },
		{ "a'b'\"c\"d", "[abcd]", NULL },
		{ "'it'\\''s'", "[it's]", NULL },
	};

	check_fields(cases, ARRAY_SIZE(cases));
}

SHELL_TEST(shell_expand, parameters)
{
	static const struct str_case cases[] = {
		{ "$x", "[hello]", NULL },
		{ "${x}world", "[helloworld]", NULL },
		{ "$x.txt", "[hello.txt]", NULL },
		{ "$nope", "", NULL },
		{ "a$nope", "[a]", NULL },
		{ "$?", "[0]", NULL },
		{ "$$", "[42]", NULL },
		{ "$", "[$]", NULL },
		{ "a$ b", "[a$ b]", NULL },
		{ "${#x}", "[5]", NULL },
		{ "${#nope}", "[0]", NULL },
	};

	check_fields(cases, ARRAY_SIZE(cases));
}

SHELL_TEST(shell_expand, parameter_operators)
{
	static const struct str_case cases[] = {
		{ "${nope:-def}", "[def]", NULL },  { "${empty:-def}", "[def]", NULL },
		{ "${empty-def}", "", NULL },       { "${x:-def}", "[hello]", NULL },
		{ "${x:+alt}", "[alt]", NULL },     { "${nope:+alt}", "", NULL },
		{ "${nope:-a b}", "[a][b]", NULL }, { "\"${nope:-a b}\"", "[a b]", NULL },
		{ "${nope:-$x}", "[hello]", NULL }, { "${new:=val}", "[val]", NULL },
	};

	check_fields(cases, ARRAY_SIZE(cases));
	cr_assert_str_eq(sh_var_get(&T.vars, "new"), "val");
	cr_assert_str_eq(fields("${nope:?is missing}"), "error: nope: is missing");
	cr_assert_str_eq(fields("${x/l/L}"), "error: ${x/l/L}: bad substitution");
}

SHELL_TEST(shell_expand, field_splitting)
{
	static const struct str_case cases[] = {
		{ "$sp", "[a][b]", NULL },           { "\"$sp\"", "[ a  b ]", NULL },
		{ "x${sp}y", "[x][a][b][y]", NULL }, { "$empty", "", NULL },
		{ "\"$empty\"", "[]", NULL },
	};

	check_fields(cases, ARRAY_SIZE(cases));
	cr_assert_str_eq(str("$sp"), " a  b ");
}

SHELL_TEST(shell_expand, command_substitution)
{
	static const struct str_case cases[] = {
		{ "$(echo a b)", "[a][b]", NULL },
		{ "\"$(echo a b)\"", "[a b]", NULL },
		{ "$(seq 1 3)", "[1][2][3]", NULL },
		{ "`echo x`", "[x]", NULL },
		{ "\"<$(echo in)>\"", "[<in>]", "trailing newlines are removed" },
	};

	check_fields(cases, ARRAY_SIZE(cases));
	cr_assert_eq(T.env.subst_status, 0);
	cr_assert_str_eq(fields("$(fail)"), "");
	cr_assert_eq(T.env.subst_status, 3);
	cr_assert_eq(T.substs, 6);
}

SHELL_TEST(shell_expand, arithmetic)
{
	static const struct str_case cases[] = {
		{ "$((1 + 2 * 3))", "[7]", NULL },
		{ "$(( (1 + 2) * 3 ))", "[9]", NULL },
		{ "$((n * 2))", "[14]", NULL },
		{ "$(($n - 10))", "[-3]", NULL },
		{ "$((nope + 1))", "[1]", NULL },
		{ "a$((1<2))b", "[a1b]", NULL },
		{ "$((x + 1))", "error: x: not a number", NULL },
		{ "$((1 / 0))", "error: division by zero", NULL },
	};

	check_fields(cases, ARRAY_SIZE(cases));
}

SHELL_TEST(shell_expand, backquotes_unescape_before_running)
{
	cr_assert_str_eq(fields("`echo \\$x`"), "[$x]",
			 "\\$ inside `` is a literal $ for the command");
	cr_assert_str_eq(fields("\"`echo a  b`\""), "[a  b]");
	cr_assert_eq(T.substs, 2);
}

SHELL_TEST(shell_expand, special_parameters_and_lengths)
{
	static const struct str_case cases[] = {
		{ "${?}${$}", "[042]", NULL },
		{ "${#sp}", "[6]", NULL },
		{ "\"${x}\"\"${x}\"", "[hellohello]", NULL },
	};

	check_fields(cases, ARRAY_SIZE(cases));
	cr_assert_str_eq(str("a=$x"), "a=hello");
	cr_assert_str_eq(str("''"), "");
}

SHELL_TEST(shell_expand, errors_are_reported)
{
	cr_assert_str_eq(fields("${x"), "error: unterminated ${");
	cr_assert_str_eq(fields("'abc"), "error: unterminated '");
}

/* ------------------------------------------------------------------ arithmetic */

SHELL_TEST(shell_expand, trim_prefix_suffix)
{
	sh_var_set(&T.vars, "u", "123.45 678.90", 0);
	sh_var_set(&T.vars, "f", "/a/b.tar.gz", 0);
	static const struct str_case cases[] = {
		{ "${u%% *}", "[123.45]", NULL },   { "${u% *}", "[123.45]", NULL },
		{ "${u#* }", "[678.90]", NULL },    { "${f%.*}", "[/a/b.tar]", NULL },
		{ "${f%%.*}", "[/a/b]", NULL },     { "${f#*/}", "[a/b.tar.gz]", NULL },
		{ "${f##*/}", "[b.tar.gz]", NULL }, { "${f%[.]gz}", "[/a/b.tar]", NULL },
		{ "${f#/?/}", "[b.tar.gz]", NULL }, { "${f%x}", "[/a/b.tar.gz]", NULL },
		{ "${nope%x}", "", NULL },
	};

	check_fields(cases, ARRAY_SIZE(cases));
	/* Quoted pattern characters match only themselves. */
	sh_var_set(&T.vars, "s", "a*b*c", 0);
	static const struct str_case cases2[] = {
		{ "${s%\"*\"*}", "a*b", NULL },
		{ "${s#'a*'}", "b*c", NULL },
		{ "${s#\\a}", "*b*c", NULL },
	};

	check_strs(cases2, ARRAY_SIZE(cases2));
	cr_assert_str_eq(fields("${x#\"$nope\"h}"), "[ello]");
	cr_assert_str_eq(fields("\"${sp# }\""), "[a  b ]");
}

SHELL_TEST(shell_expand, positional_parameters)
{
	char *args[] = { "a b", "c", NULL };

	cr_assert_str_eq(fields("$#$1"), "[0]");
	cr_assert_str_eq(fields("\"$@\""), "");
	T.env.argc = 2;
	T.env.argv = args;
	static const struct str_case cases[] = {
		{ "$#", "[2]", NULL },
		{ "$1", "[a][b]", NULL },
		{ "\"$1\"${2}", "[a bc]", NULL },
		{ "$3", "", NULL },
		{ "\"$@\"", "[a b][c]", NULL },
		{ "\"x$@y\"", "[xa b][cy]", NULL },
		{ "\"$*\"", "[a b c]", NULL },
		{ "$@", "[a][b][c]", NULL },
		{ "${1%% *}", "[a]", NULL },
		{ "${#1}", "[3]", NULL },
	};

	check_fields(cases, ARRAY_SIZE(cases));
	T.env.argc = 0;
	T.env.argv = NULL;
}

SHELL_TEST(shell_expand, heredoc_body)
{
	char *s;

	cr_assert_eq(sh_expand_heredoc(&T.env, "a \"$x\" \\$x '$n' \\\"\n", &s), 0);
	cr_assert_str_eq(s, "a \"hello\" $x '7' \\\"\n");
	kfree(s);
}

SHELL_TEST(shell_expand, pathname_expansion)
{
	sh_var_set(&T.vars, "pc", "*.c", 0);
	static const struct str_case cases[] = {
		{ "*.c", "[a b.c][b.c]", NULL },
		{ "b.?", "[b.c][b.h]", NULL },
		{ "[ab]*.[ch]", "[a b.c][b.c][b.h]", NULL },
		{ "dir/*", "[dir/x.c]", NULL },
		/* no match: the word stays */
		{ "*.o", "[*.o]", NULL },
		/* quoted: no expansion */
		{ "\"*.c\"", "[*.c]", NULL },
		{ "'*'.c", "[*.c]", NULL },
		{ "\\*.c", "[*.c]", NULL },
		{ "star\\*", "[star*]", NULL },
		{ "\"star\"*", "[star*]", NULL },
		/* from a variable: unquoted it is a pattern, quoted it is not */
		{ "$pc", "[a b.c][b.c]", NULL },
		{ "\"$pc\"", "[*.c]", NULL },
	};

	check_fields(cases, ARRAY_SIZE(cases));
	/* a string (an assignment) is never expanded */
	cr_assert_str_eq(str("*.c"), "*.c");
}

SHELL_TEST(shell_expand, ifs)
{
	sh_var_set(&T.vars, "p", "a:b::c", 0);
	sh_var_set(&T.vars, "q", " x , y ,z", 0);
	cr_assert_str_eq(fields("$p"), "[a:b::c]");
	sh_var_set(&T.vars, "IFS", ":", 0);
	cr_assert_str_eq(fields("$p"), "[a][b][][c]");
	cr_assert_str_eq(fields("\"$p\""), "[a:b::c]");
	sh_var_set(&T.vars, "IFS", ", ", 0);
	cr_assert_str_eq(fields("$q"), "[x][y][z]");
	sh_var_set(&T.vars, "IFS", "", 0);
	cr_assert_str_eq(fields("$sp"), "[ a  b ]");
	sh_var_unset(&T.vars, "IFS");
	cr_assert_str_eq(fields("$sp"), "[a][b]");
}

TestSuite(shell_read, .init = setup, .fini = teardown);

/* `read` with n names: the values joined as "[v1][v2]...". */
static char *rd(const char *line, const char *ifs, bool raw, int n)
{
	static char out[256];
	struct strv sv = STRV_INIT;

	cr_assert_eq(sh_read_split(line, ifs, raw, n, &sv), 0);
	out[0] = '\0';
	for (int i = 0; i < sv.n; i++) {
		strcat(out, "[");
		strcat(out, sv.v[i]);
		strcat(out, "]");
	}
	strv_free(&sv);
	return out;
}

SHELL_TEST(shell_read, split)
{
	cr_assert_str_eq(rd("  a  b   c  ", " \t\n", false, 2), "[a][b   c]");
	cr_assert_str_eq(rd("a b", " \t\n", false, 3), "[a][b][]");
	cr_assert_str_eq(rd("  one  ", " \t\n", false, 1), "[one]");
	cr_assert_str_eq(rd("a:b::c", ":", false, 4), "[a][b][][c]");
	cr_assert_str_eq(rd("a:b:c", ":", false, 2), "[a][b:c]");
	cr_assert_str_eq(rd("a\\ b c", " ", false, 2), "[a b][c]");
	cr_assert_str_eq(rd("a\\ b c", " ", true, 2), "[a\\][b c]");
	cr_assert_str_eq(rd("x  ", "", false, 1), "[x  ]");
}

TestSuite(shell_pattern, .init = setup, .fini = teardown);

static bool pm(const char *pat, const char *s)
{
	return sh_pattern_match(pat, s, strlen(s));
}

static void check_patterns(const struct pattern_case *c, size_t n)
{
	for (size_t i = 0; i < n; i++)
		cr_assert_eq(pm(c[i].pattern, c[i].s), c[i].match, "'%s' against '%s'",
			     c[i].pattern, c[i].s);
}

SHELL_TEST(shell_pattern, match)
{
	static const struct pattern_case cases[] = {
		{ "abc", "abc", true },
		{ "abc", "abcd", false },
		{ "*", "", true },
		{ "a*c", "abbbc", true },
		{ "a*b*c", "axxbyyc", true },
		{ "a*b*c", "axxbyy", false },
		{ "?.txt", "a.txt", true },
		{ "?.txt", ".txt", false },
		{ "[abc]x", "bx", true },
		{ "[!abc]x", "bx", false },
		{ "[^abc]x", "dx", true },
		{ "[a-c0-9]", "7", true },
		{ "[]]", "]", true },
		{ "[", "[", true },
		{ "\\*", "*", true },
		{ "\\*", "x", false },
		{ "*.[ch]", "main.c", true },
	};

	check_patterns(cases, ARRAY_SIZE(cases));
}

SHELL_TEST(shell_pattern, magic_and_unescape)
{
	char buf[16] = "a\\*b\\\\";

	cr_assert(sh_pattern_has_magic("a*"));
	cr_assert(sh_pattern_has_magic("[ab]"));
	cr_assert(!sh_pattern_has_magic("a\\*"));
	cr_assert(!sh_pattern_has_magic("plain"));
	cr_assert(!sh_pattern_has_magic("["), "the test command is no pattern");
	cr_assert(!sh_pattern_has_magic("a[]"));
	sh_pattern_unescape(buf);
	cr_assert_str_eq(buf, "a*b\\");
}

static s64 ar(const char *expr)
{
	s64 v = -999;
	int err = sh_arith(&T.env, expr, &v);

	cr_assert_eq(err, 0, "'%s': %s", expr, T.env.err);
	return v;
}

static const char *ar_err(const char *expr)
{
	s64 v;

	cr_assert_neq(sh_arith(&T.env, expr, &v), 0, "'%s' should fail", expr);
	return T.env.err;
}

static void check_arith(const struct arith_case *c, size_t n)
{
	for (size_t i = 0; i < n; i++)
		cr_assert_eq(ar(c[i].expr), c[i].want, "%s", c[i].expr);
}

static void check_arith_errors(const struct str_case *c, size_t n)
{
	for (size_t i = 0; i < n; i++)
		cr_assert_str_eq(ar_err(c[i].in), c[i].want, "%s", c[i].in);
}

TestSuite(shell_arith, .init = env_setup, .fini = teardown);

SHELL_TEST(shell_arith, precedence_and_associativity)
{
	static const struct arith_case cases[] = {
		{ "1 + 2 * 3", 7 },
		{ "(1 + 2) * 3", 9 },
		{ "10 - 4 - 3", 3 },
		{ "100 / 10 / 5", 2 },
		{ "7 % 3", 1 },
		{ "-7 / 2", -3 },
		{ "-7 % 3", -1 },
		{ "2 + 3 < 6", 1 },
		{ "1 == 1 && 2 != 2 || 3 >= 3", 1 },
		{ "!0 + !5", 1 },
		{ "~0", -1 },
		{ "1 << 4 | 1", 17 },
		{ "6 & 3 ^ 1", 3 },
		{ "- -3", 3 },
		{ "1 ? 2 : 3", 2 },
		{ "0 ? 2 : 0 ? 3 : 4", 4 },
		{ "", 0 },
		{ "0x10 + 010", 24 },
		{ "  42  ", 42 },
	};

	check_arith(cases, ARRAY_SIZE(cases));
}

SHELL_TEST(shell_arith, comparisons)
{
	static const struct arith_case cases[] = {
		{ "3 < 4", 1 },  { "4 <= 4", 1 }, { "5 > 4", 1 },
		{ "4 >= 5", 0 }, { "4 == 4", 1 }, { "4 != 4", 0 },
	};

	check_arith(cases, ARRAY_SIZE(cases));
}

SHELL_TEST(shell_arith, sixty_four_bits_and_wrapping)
{
	static const struct arith_case cases[] = {
		{ "9223372036854775807", INT64_MAX },
		{ "9223372036854775807 + 1", INT64_MIN },
		{ "-9223372036854775807 - 1", INT64_MIN },
		{ "(-9223372036854775807 - 1) / -1", INT64_MIN },
		{ "(-9223372036854775807 - 1) % -1", 0 },
		{ "1 << 63", INT64_MIN },
		{ "4294967296 * 4294967296", 0 },
	};

	check_arith(cases, ARRAY_SIZE(cases));
}

SHELL_TEST(shell_arith, variables_and_assignment)
{
	cr_assert_eq(ar("n + 1"), 8);
	cr_assert_eq(ar("i = 5"), 5);
	cr_assert_str_eq(sh_var_get(&T.vars, "i"), "5");
	static const struct arith_case cases[] = {
		{ "i += 2", 7 },
		{ "i *= 3", 21 },
		{ "i <<= 1", 42 },
		{ "a = b = 3", 3 },
	};

	check_arith(cases, ARRAY_SIZE(cases));
	cr_assert_str_eq(sh_var_get(&T.vars, "a"), "3");
	cr_assert_eq(ar("0 && (c = 1)"), 0);
	cr_assert_null(sh_var_get(&T.vars, "c"), "the branch not taken assigns nothing");
	cr_assert_eq(ar("1 || 1 / 0"), 1, "nor fails");
	cr_assert_eq(ar("1 ? 5 : (d = 1)"), 5);
	cr_assert_null(sh_var_get(&T.vars, "d"));
}

SHELL_TEST(shell_arith, errors)
{
	static const struct str_case cases[] = {
		{ "1 / 0", "division by zero", NULL },        { "5 % 0", "division by zero", NULL },
		{ "1 +", "operand expected", NULL },          { "(1 + 2", "missing ')'", NULL },
		{ "1 2", "syntax error near '2'", NULL },     { "08", "invalid number '08'", NULL },
		{ "1 ? 2", "':' expected for '?'", NULL },    { "x", "x: not a number", NULL },
		{ "3 = 4", "syntax error near '= 4'", NULL },
	};

	check_arith_errors(cases, ARRAY_SIZE(cases));

	char deep[128] = "";
	for (int i = 0; i < SH_ARITH_MAX_DEPTH + 2; i++)
		strcat(deep, "(");
	strcat(deep, "1");
	for (int i = 0; i < SH_ARITH_MAX_DEPTH + 2; i++)
		strcat(deep, ")");
	cr_assert_str_eq(ar_err(deep), "expression too deeply nested");
}

/* ------------------------------------------------------------------ variables */

TestSuite(shell_vars, .init = setup, .fini = teardown);

SHELL_TEST(shell_vars, set_get_unset_copy)
{
	struct sh_vars v = { 0 }, copy = { 0 };

	cr_assert_eq(sh_var_set(&v, "b", "2", 0), 0);
	cr_assert_eq(sh_var_set(&v, "a", "1", SH_VAR_EXPORT), 0);
	cr_assert_eq(sh_var_set(&v, "c", "3", 0), 0);
	cr_assert_eq(sh_var_set(&v, "b", "two", 0), 0);
	cr_assert_eq(sh_var_set(&v, "1x", "bad", 0), -EINVAL);
	cr_assert_str_eq(v.head->name, "a", "kept sorted");
	cr_assert_str_eq(sh_var_get(&v, "b"), "two");
	cr_assert_eq(sh_var_export(&v, "c"), 0);
	cr_assert(v.head->next->next->flags & SH_VAR_EXPORT);
	cr_assert_eq(sh_vars_copy(&copy, &v), 0);
	sh_var_unset(&v, "b");
	sh_var_unset(&v, "nope");
	cr_assert_null(sh_var_get(&v, "b"));
	cr_assert_str_eq(sh_var_get(&copy, "b"), "two");
	cr_assert(copy.head->flags & SH_VAR_EXPORT);
	sh_vars_free(&v);
	sh_vars_free(&copy);
}

/* ------------------------------------------------------------------ test / [ */

static int tst(const char *args)
{
	static char buf[256], err[128];
	char *argv[16];
	int argc = 0;

	strcpy(buf, args);
	for (char *tok = strtok(buf, " "); tok && argc < 16; tok = strtok(NULL, " "))
		argv[argc++] = strcmp(tok, "''") ? tok : (char *)"";
	return sh_test(argc, argv, NULL, err, sizeof(err));
}

TestSuite(shell_test, .init = setup, .fini = teardown);

SHELL_TEST(shell_test, strings)
{
	cr_assert_eq(tst(""), 1);
	cr_assert_eq(tst("abc"), 0);
	cr_assert_eq(tst("''"), 1);
	cr_assert_eq(tst("-n abc"), 0);
	cr_assert_eq(tst("-n ''"), 1);
	cr_assert_eq(tst("-z ''"), 0);
	cr_assert_eq(tst("-n"), 0, "one argument: a non-empty string");
	cr_assert_eq(tst("a = a"), 0);
	cr_assert_eq(tst("a != a"), 1);
	cr_assert_eq(tst("a == b"), 1);
	cr_assert_eq(tst("a < b"), 0);
	cr_assert_eq(tst("= = ="), 0);
	cr_assert_eq(tst("! a = b"), 0);
}

SHELL_TEST(shell_test, integers)
{
	cr_assert_eq(tst("1 -eq 1"), 0);
	cr_assert_eq(tst("1 -ne 1"), 1);
	cr_assert_eq(tst("-3 -lt 2"), 0);
	cr_assert_eq(tst("2 -le 2"), 0);
	cr_assert_eq(tst("3 -gt 2"), 0);
	cr_assert_eq(tst("2 -ge 3"), 1);
	cr_assert_eq(tst("abc -eq 1"), 2);
}

SHELL_TEST(shell_test, logic_and_grouping)
{
	cr_assert_eq(tst("a = a -a b = b"), 0);
	cr_assert_eq(tst("a = a -a b = c"), 1);
	cr_assert_eq(tst("a = c -o b = b"), 0);
	cr_assert_eq(tst("( a = c ) -o ( 1 -lt 2 )"), 0);
	cr_assert_eq(tst("! ( a = a )"), 1);
	cr_assert_eq(tst("-e /nothing"), 1, "no file tests without a callback");
}

SHELL_TEST(shell_test, errors)
{
	cr_assert_eq(tst("a b"), 2);
	cr_assert_eq(tst("a b c"), 2);
	cr_assert_eq(tst("( a"), 2);
	cr_assert_eq(tst("a = b c d e"), 2);
}
