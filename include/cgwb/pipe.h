/* Pipes: between the commands of a shell pipeline, and a program's pipe(2). */
#ifndef CGWB_PIPE_H
#define CGWB_PIPE_H

#include <cgwb/types.h>

struct file;

/*
 * A new pipe: a read end and a write end, one reference each. Reads return 0 (end of file)
 * once every write end is closed; a write with no read end open gets -EPIPE and kills the
 * writer, as SIGPIPE would.
 */
int create_pipe_files(struct file **rd, struct file **wr);
/* f is the write end of a pipe whose read ends are all closed: writing would fail. */
bool pipe_broken(const struct file *f);

#endif
