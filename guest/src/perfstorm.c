// SPDX-License-Identifier: GPL-2.0
/*
 * perfstorm: perf_event_open storms for `make stress` (guest/stress/).
 * Built static for the guest by workshop/build.py (programs()).
 *
 *   perfstorm openclose SECONDS SEED [--hw]
 *	Open, enable, read, disable and close events on one target task (a
 *	child that naps and spins) from two processes at once: single
 *	events and groups, software events, hardware events of the CPU PMU
 *	if there is one (arm64), and with --hw also task events of the test
 *	PMUs (test_hw0..2; this pins the test PMU module).
 *   perfstorm inherit SECONDS SEED [--hw]
 *	Groups with inherit=1 on itself (software events, CPU PMU events if
 *	any, and with --hw a test_hw leader or member), some enabled on
 *	exec, some removed on exec,
 *	then a burst of forks whose children fork, exec /bin/true, spin and
 *	exit; the parent reads the group back (PERF_FORMAT_GROUP) and checks
 *	its times.
 *
 * Stops after SECONDS or when /tmp/stress/stop exists.  Prints one line:
 * "perfstorm MODE: opened=N failed=N loops=N bad=N torn=N errpath=N"; exit
 * status 1 when a read returned something impossible (bad > 0), else 0.
 *
 * errpath: opens that must fail after the core took their PMU context (the
 * syscall's err_locked path, under kmemleak in make stress): an event with
 * aux_sample_size but no AUX group leader gets EINVAL there.  One that
 * opens counts as bad.
 *
 * torn: a read with time_running > time_enabled that a re-read of the same
 * fd put right.  6.1 itself does this: perf_event_read_value() adds up
 * total_time_enabled and total_time_running after it dropped ctx->lock, so
 * a context switch in between can tear the pair (the base had 6 in 13644
 * reads in one run).  Only a pair that stays wrong over RE_READS re-reads,
 * or a read of the wrong shape, counts as bad; workshop/judge/stress_rules.py
 * also fails a run with more torn pairs than 6.1 shows.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "pmu.h"

#define STOP_FILE	"/tmp/stress/stop"
#define MAX_GROUP	6
#define RE_READS	3

static unsigned long opened, failed, loops, bad, torn, errpath;
static int use_hw;
static int cpu_hw;	/* the CPU has a hardware PMU (arm64's armv8_pmuv3) */
static time_t deadline;

static int done(void)
{
	return time(NULL) >= deadline || access(STOP_FILE, F_OK) == 0;
}

/*
 * A read of {value or nr, enabled, running, ...} that gave running > enabled:
 * torn if one of RE_READS re-reads of fd gives running <= enabled, else bad.
 */
static void check_times(int fd, unsigned long long *buf, size_t size)
{
	int i;

	if (buf[2] <= buf[1])
		return;
	for (i = 0; i < RE_READS; i++) {
		if (read(fd, buf, size) >= 3 * (ssize_t)sizeof(buf[0]) &&
		    buf[2] <= buf[1]) {
			torn++;
			return;
		}
	}
	bad++;
}

static const unsigned long long sw_events[] = {
	PERF_COUNT_SW_CPU_CLOCK, PERF_COUNT_SW_TASK_CLOCK,
	PERF_COUNT_SW_CONTEXT_SWITCHES, PERF_COUNT_SW_CPU_MIGRATIONS,
	PERF_COUNT_SW_PAGE_FAULTS, PERF_COUNT_SW_DUMMY,
};

/* A random event: software, or (with --hw, one in two) a test_hw event. */
static void random_attr(struct perf_event_attr *a, int allow_hw)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			 PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID;
	if (allow_hw && cpu_hw && rand() % 3 == 0) {
		a->type = PERF_TYPE_HARDWARE;
		a->config = (rand() & 1) ? PERF_COUNT_HW_CPU_CYCLES :
					   PERF_COUNT_HW_INSTRUCTIONS;
		return;
	}
	if (allow_hw && use_hw && (rand() & 1)) {
		static const char * const hw[] = { "test_hw0", "test_hw1", "test_hw2" };
		/* read anew each time: the module may reload */
		int t = pmu_file(hw[rand() % 3], "type");

		if (t >= 0) {
			a->type = t;
			a->config = rand() % 2;	/* cycles, starts */
			return;
		}
	}
	a->type = PERF_TYPE_SOFTWARE;
	a->config = sw_events[rand() % (sizeof(sw_events) / sizeof(sw_events[0]))];
	a->exclude_kernel = rand() % 4 == 0;
}

static int open_one(struct perf_event_attr *a, pid_t pid, int group_fd)
{
	int fd = sys_perf_event_open(a, pid, -1, group_fd, PERF_FLAG_FD_CLOEXEC);

	if (fd < 0)
		failed++;
	else
		opened++;
	return fd;
}

/* ---- openclose ---- */

static void target_loop(void)
{
	struct timespec ts = { 0, 200000 };
	volatile unsigned long x = 0;
	int i;

	for (;;) {
		for (i = 0; i < 20000; i++)
			x += i;
		nanosleep(&ts, NULL);
		if (getppid() == 1)
			_exit(0);
	}
}

static void openclose_worker(pid_t target)
{
	int fds[MAX_GROUP];
	struct perf_event_attr a;
	unsigned long long buf[64];
	int grp[MAX_GROUP];
	ssize_t r;
	int n, i;

	while (!done()) {
		loops++;
		n = 1 + rand() % MAX_GROUP;
		for (i = 0; i < n; i++) {
			random_attr(&a, 1);
			a.disabled = i == 0 && (rand() & 1);
			grp[i] = i == 0 && (rand() & 1);
			if (grp[i])
				a.read_format |= PERF_FORMAT_GROUP;
			/* A group, or n separate events. */
			fds[i] = open_one(&a, target,
					  (rand() & 1) && i ? fds[0] : -1);
		}
		for (i = 0; i < n; i++) {
			if (fds[i] < 0)
				continue;
			switch (rand() % 4) {
			case 0:
				ioctl(fds[i], PERF_EVENT_IOC_ENABLE, 0);
				break;
			case 1:
				ioctl(fds[i], PERF_EVENT_IOC_DISABLE, 0);
				break;
			case 2:
				ioctl(fds[i], PERF_EVENT_IOC_RESET, 0);
				break;
			default:
				break;
			}
			r = read(fds[i], buf, sizeof(buf));
			if (r < 0) {
				if (errno != ENOSPC)
					failed++;
				continue;
			}
			/*
			 * {value, enabled, running, id}, or with GROUP
			 * {nr, enabled, running, {value, id}...}: running
			 * never exceeds enabled (check_times), a group has 1
			 * to n members.
			 */
			if (r < 4 * (ssize_t)sizeof(buf[0]) ||
			    (grp[i] && (buf[0] < 1 || buf[0] > (unsigned int)n)))
				bad++;
			else
				check_times(fds[i], buf, sizeof(buf));
		}
		/* The error path after the PMU context, alone or as a member. */
		if (rand() & 1) {
			int fd;

			random_attr(&a, 1);
			a.aux_sample_size = 1;
			fd = sys_perf_event_open(&a, target, -1,
						 (rand() & 1) ? fds[0] : -1,
						 PERF_FLAG_FD_CLOEXEC);
			if (fd >= 0) {
				bad++;
				close(fd);
			} else if (errno == EINVAL) {
				errpath++;
			}
		}
		/* Close in a random order: leader before members at times. */
		for (i = 0; i < n; i++) {
			int j = rand() % n;

			if (fds[j] >= 0) {
				close(fds[j]);
				fds[j] = -1;
			}
		}
		for (i = 0; i < n; i++)
			if (fds[i] >= 0)
				close(fds[i]);
	}
}

static int do_openclose(unsigned int seed)
{
	pid_t target, w[2];
	int i, status;

	target = fork();
	if (target == 0)
		target_loop();
	for (i = 0; i < 2; i++) {
		w[i] = fork();
		if (w[i] == 0) {
			srand(seed + i + 1);
			openclose_worker(target);
			printf("perfstorm openclose/%d: opened=%lu failed=%lu loops=%lu bad=%lu torn=%lu errpath=%lu\n",
			       i, opened, failed, loops, bad, torn, errpath);
			fflush(stdout);
			_exit(0);
		}
	}
	for (i = 0; i < 2; i++)
		waitpid(w[i], &status, 0);
	kill(target, SIGKILL);
	waitpid(target, &status, 0);
	return 0;
}

/* ---- inherit ---- */

static void child_work(int depth)
{
	volatile unsigned long x = 0;
	unsigned long i;
	pid_t p;

	for (i = 0; i < 50000; i++)
		x += i;
	if (depth > 0 && (rand() & 1)) {
		p = fork();
		if (p == 0) {
			if (rand() & 1) {
				execl("/bin/true", "true", (char *)NULL);
				_exit(127);
			}
			child_work(depth - 1);
			_exit(0);
		}
		if (p > 0)
			waitpid(p, NULL, 0);
	}
	if (rand() % 3 == 0) {
		execl("/bin/true", "true", (char *)NULL);
		_exit(127);
	}
}

static int do_inherit(unsigned int seed)
{
	struct perf_event_attr a;
	int fds[MAX_GROUP], n, i, k;
	pid_t kids[8];
	unsigned long long buf[2 + 3 + 2 * MAX_GROUP];

	srand(seed);
	while (!done()) {
		int enable_on_exec = rand() % 4 == 0;

		int hw_in_group = 0;

		loops++;
		n = 1 + rand() % MAX_GROUP;
		for (i = 0; i < n; i++) {
			/* One test_hw event at most per group: two hardware
			 * PMUs in one group is a different test. */
			random_attr(&a, !hw_in_group && (i == 0 || rand() % 4 == 0));
			if (a.type != PERF_TYPE_SOFTWARE)
				hw_in_group = 1;
			a.inherit = 1;
			a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID |
					PERF_FORMAT_TOTAL_TIME_ENABLED |
					PERF_FORMAT_TOTAL_TIME_RUNNING;
			a.remove_on_exec = rand() % 5 == 0;
			if (i == 0) {
				a.disabled = 1;
				a.enable_on_exec = enable_on_exec;
				a.inherit_stat = rand() & 1;
			}
			fds[i] = open_one(&a, 0, i ? fds[0] : -1);
			if (i == 0 && fds[0] < 0)
				break;
		}
		if (fds[0] < 0)
			continue;
		if (!enable_on_exec)
			ioctl(fds[0], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
		k = 2 + rand() % 6;
		for (i = 0; i < k; i++) {
			kids[i] = fork();
			if (kids[i] == 0) {
				srand(seed ^ (unsigned int)getpid());
				child_work(2);
				_exit(0);
			}
		}
		for (i = 0; i < k; i++)
			if (kids[i] > 0)
				waitpid(kids[i], NULL, 0);
		if (read(fds[0], buf, sizeof(buf)) > 0) {
			/* nr, time_enabled, time_running, {value, id}... */
			if (buf[0] < 1 || buf[0] > MAX_GROUP)
				bad++;
			else
				check_times(fds[0], buf, sizeof(buf));
		}
		for (i = n - 1; i >= 0; i--)
			if (fds[i] >= 0)
				close(fds[i]);
	}
	printf("perfstorm inherit: opened=%lu failed=%lu loops=%lu bad=%lu torn=%lu\n",
	       opened, failed, loops, bad, torn);
	return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
	unsigned int seed;

	if (argc < 4) {
		fprintf(stderr, "usage: perfstorm openclose|inherit SECONDS SEED [--hw]\n");
		return 2;
	}
	deadline = time(NULL) + atoi(argv[2]);
	seed = strtoul(argv[3], NULL, 0);
	use_hw = argc > 4 && !strcmp(argv[4], "--hw");
	{
		/* A CPU PMU, if there is one, in both phases: it is built in. */
		struct perf_event_attr a = {
			.size = sizeof(a), .type = PERF_TYPE_HARDWARE,
			.config = PERF_COUNT_HW_CPU_CYCLES, .disabled = 1,
		};
		int fd = sys_perf_event_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);

		cpu_hw = fd >= 0;
		if (fd >= 0)
			close(fd);
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	srand(seed);
	if (!strcmp(argv[1], "openclose"))
		return do_openclose(seed);
	if (!strcmp(argv[1], "inherit"))
		return do_inherit(seed);
	fprintf(stderr, "perfstorm: unknown mode %s\n", argv[1]);
	return 2;
}
