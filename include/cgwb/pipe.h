/* Pipes: between the commands of a shell pipeline, and a program's pipe(2). */
#ifndef CGWB_PIPE_H
#define CGWB_PIPE_H

#include <cgwb/types.h>

struct file;

/**
 * create_pipe_files() - a new pipe
 * @rd: set to its read end, with one reference
 * @wr: set to its write end, with one reference
 *
 * Reads return 0 (end of file) once every write end is closed; a write with no read end
 * open gets -EPIPE and kills the writer, as SIGPIPE would.
 *
 * Context: process context; may sleep.
 * Return: 0, or -ENOMEM.
 */
int create_pipe_files(struct file **rd, struct file **wr);
/**
 * pipe_broken() - would writing to a file fail for lack of a reader?
 * @f: the file, or NULL
 *
 * Context: any context.
 * Return: true if @f is the write end of a pipe whose read ends are all closed.
 */
bool pipe_broken(const struct file *f);
/**
 * file_is_pipe() - is a file a pipe's? (sendfile's destination: Linux's get_pipe_info())
 * @f: the file, or NULL
 *
 * Context: any context.
 * Return: true if @f is either end of a pipe.
 */
bool file_is_pipe(const struct file *f);

#endif
