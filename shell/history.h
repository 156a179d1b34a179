/* The interactive shell's command history (most recent last). */
#ifndef CGWB_KERNEL_SHELL_HISTORY_H
#define CGWB_KERNEL_SHELL_HISTORY_H

#define HISTORY_SIZE 64

void history_add(const char *line);
int history_count(void);
/* The n-th entry back from the newest (1 = the last line entered); NULL past the oldest. */
const char *history_back(int n);

#endif
