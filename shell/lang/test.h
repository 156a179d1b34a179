/*
 * test / [ expressions (POSIX, with the XSI -a -o and parentheses): strings (-z -n = != < >),
 * integers (-eq -ne -lt -le -gt -ge), negation, and file tests through a callback.
 */
#ifndef CGWB_SHELL_TEST_H
#define CGWB_SHELL_TEST_H

#include <cgwb/types.h>

/* -e -f -d -r -w -x -s -c -b -p -L -h -S on path; NULL: every file test is false. */
typedef bool (*sh_file_test_fn)(char op, const char *path);

/* argv without the command name (and without "]"): 0 true, 1 false, 2 error (err says why). */
int sh_test(int argc, char **argv, sh_file_test_fn file_test, char *err, size_t errlen);

#endif
