/*
 * Waiting in poll and select, for cgwb's system tests: each case prints one line, "ok" or
 * what went wrong.
 *   pollers   a pipe written by a child 0.2 s later wakes poll (POLLIN) and select; a
 *             closed write end is POLLHUP; a timerfd armed for 0.1 s wakes a poll with no
 *             timeout; a timerfd re-armed by another thread from 10 s to 0.05 s wakes a
 *             poll sleeping on it; nothing ready times out (0).
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/select.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void check(const char *what, int ok)
{
	printf("%s: %s\n", what, ok ? "ok" : errno ? strerror(errno) : "wrong");
}

/* A child that writes a byte into p[1] after ms milliseconds. */
static pid_t late_writer(int p[2], int ms)
{
	pid_t pid = fork();

	if (pid == 0) {
		usleep(ms * 1000);
		if (write(p[1], "x", 1) != 1)
			_exit(1);
		_exit(0);
	}
	return pid;
}

static void pipe_cases(void)
{
	struct pollfd pfd;
	fd_set rd;
	int p[2];
	char c;

	if (pipe(p))
		return check("pipe", 0);
	pfd = (struct pollfd){ .fd = p[0], .events = POLLIN };
	late_writer(p, 200);
	check("poll woken by a pipe", poll(&pfd, 1, 5000) == 1 && (pfd.revents & POLLIN));
	check("read", read(p[0], &c, 1) == 1);
	wait(NULL);
	late_writer(p, 200);
	FD_ZERO(&rd);
	FD_SET(p[0], &rd);
	check("select woken by a pipe",
	      select(p[0] + 1, &rd, NULL, NULL, &(struct timeval){ 5, 0 }) == 1 &&
		      FD_ISSET(p[0], &rd));
	check("read", read(p[0], &c, 1) == 1);
	wait(NULL);
	errno = 0;
	check("poll timing out", poll(&pfd, 1, 300) == 0);
	close(p[1]);
	check("poll sees the writer gone", poll(&pfd, 1, 5000) == 1 && (pfd.revents & POLLHUP));
	close(p[0]);
}

static int rearm_fd;

static void *rearmer(void *arg)
{
	struct itimerspec soon = { .it_value = { 0, 50 * 1000000 } };

	(void)arg;
	usleep(100000);
	timerfd_settime(rearm_fd, 0, &soon, NULL);
	return NULL;
}

static void timerfd_cases(void)
{
	struct itimerspec its = { .it_value = { 0, 100 * 1000000 } };
	int fd = timerfd_create(CLOCK_MONOTONIC, 0);
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	pthread_t t;
	long t0;

	if (fd < 0 || timerfd_settime(fd, 0, &its, NULL))
		return check("timerfd", 0);
	check("poll woken by a timerfd", poll(&pfd, 1, -1) == 1 && (pfd.revents & POLLIN));
	its.it_value = (struct timespec){ 10, 0 };
	rearm_fd = fd;
	if (timerfd_settime(fd, 0, &its, NULL) || pthread_create(&t, NULL, rearmer, NULL))
		return check("timerfd rearm", 0);
	t0 = now_ms();
	check("poll woken by a timerfd re-armed sooner",
	      poll(&pfd, 1, 5000) == 1 && (pfd.revents & POLLIN) && now_ms() - t0 < 4000);
	pthread_join(t, NULL);
	close(fd);
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	pipe_cases();
	timerfd_cases();
	return 0;
}
