// SPDX-License-Identifier: GPL-2.0
/*
 * perfbench: A/B benchmarks of the perf core's context switch, cgroup
 * switch, open and rotation paths, base kernel against the series, in a
 * guest under QEMU -icount (CLOCK_MONOTONIC then counts guest instructions:
 * the results are deterministic).  Built static, there is no compiler in
 * the guest:
 *	gcc -O2 -Wall -Wextra -static -o perfbench guest/src/perfbench.c
 *
 *   perfbench pipe [--pmus LIST] [--mode self|inherit] [--loops N]
 *	Two processes ping-pong one byte over two pipes; ns per round trip.
 *	self: each of the two opens one event per SPEC of LIST on itself
 *	after the fork (two different contexts).  inherit: a middle process
 *	opens them with inherit=1 on itself, then forks the two, whose
 *	contexts are clones of its own (the swap fast path).
 *   perfbench cgroup [--dev N] [--loops N]
 *	The ping-pong with its two processes in /sys/fs/cgroup/perfbench_a
 *	and perfbench_b (cgroup v2), one cgroup event (context-switches,
 *	PERF_FLAG_PID_CGROUP) on each cgroup, and N test_dev events open.
 *   perfbench open [--dev N] [--pmus SPEC] [--loops N]
 *	With N test_dev events open: perf_event_open of SPEC on itself
 *	(disabled), PERF_EVENT_IOC_ENABLE, close; ns per iteration.
 *   perfbench openclose [--pmus SPEC] [--loops N]
 *	perf_event_open of SPEC on itself and close; ns per pair.
 *   perfbench lookup [--pmus SPEC] [--loops N]
 *	openclose, for the PMU lookup of perf_init_event(): SPEC hw, raw
 *	(the legacy types) or nopmu (a type no PMU owns, the open fails
 *	with ENOENT), with the number of test_x PMUs (test_perf_pmu's
 *	nr_extra, registered before the CPU PMUs) in its PARAMS.
 *	All three keep a disabled software event open on itself over the
 *	loops (see open_keeper()).
 *   perfbench rotate [--pmu NAME[:CONFIG]] [--events E] [--others LIST]
 *		      [--work W]
 *	A spin loop of W iterations timed (b) with E events of the test
 *	PMU NAME on itself (more than its counters: they multiplex) and one
 *	event per SPEC of LIST, (c) with the LIST events only.  The
 *	rotations during (b) are counted from NAME's debugfs stats (add()
 *	calls / events running at a time); ns_per_op = (b - c) / rotations:
 *	the cost of one rotation.
 *   perfbench tick [--mode count|freq] [--pmus LIST] [--work W] [--hz HZ]
 *	The spin loop with the LIST events counting (count), and also one
 *	page-faults event in frequency mode (freq: 1000 Hz, no ring buffer;
 *	it stays in frequency mode and does not overflow in the spin);
 *	ns_per_op: the median time a tick takes from the spin, none= the
 *	same with no event (tick_spin()).
 *
 * Common options: --loops N (operations per repeat: default 5000 for pipe,
 * cgroup and openclose, 2000 for open; rotate and tick take --work),
 * --repeat R (5), --cpu C (0; every process is pinned to CPU C).  Others:
 * --dev N (0), --events E (16), --others LIST (none), --work W (33000000:
 * the loop is 6 instructions on x86_64 and arm64 with gcc -O2, so about
 * 200 ms of guest time at -icount shift=0), --hz HZ (250: the kernel's
 * CONFIG_HZ, for tick).  --pmu is --pmus, and
 * --opt=VALUE works too.
 *
 * SPEC: sw (software context-switches), tp (tracepoint sched:sched_switch),
 * task-clock, cpu-clock, migrations, faults (software), hw (hardware cycles),
 * instructions, branches, branch-misses (hardware), none (no event), or
 * NAME[:CONFIG], the PMU NAME of /sys/bus/event_source/devices with that
 * config (default 0), e.g. test_hw1:1, armv8_pmuv3_0:0x11.  LIST: SPECs
 * separated by commas, or stat (perf stat's default software events:
 * STAT_SW), or stat-hw (and its hardware ones: STAT_HW).  Every event
 * counts (sample_period 0), is enabled at open (but in open) and reads
 * TOTAL_TIME_ENABLED|TOTAL_TIME_RUNNING.  test_dev events are CPU events
 * (pid -1) on the CPU of test_dev's cpumask, which must be --cpu.
 *
 * Each repeat: a warm-up of a tenth of the operations, then the timed
 * operations.  The ping-pong: the parent forks A and B (with inherit, a
 * middle process forks them), A waits for B to be ready, then for each
 * repeat the parent writes "go" to A, A times its round trips with B and
 * sends the time back; the parent reads the test_dev events (times before
 * and after) and prints, outside the timing.  Every process is pinned to
 * --cpu and dies with its parent (PR_SET_PDEATHSIG); at the end or on an
 * error the children are killed and reaped, the fds closed, the cgroups
 * removed.
 *
 * One line per repeat on stdout (I counts from 1; extra=E: the test_x PMUs,
 * which take no event, when there are any):
 *   bench pipe pmus=LIST mode=M [extra=E] rep=I ns_per_op=X ops=N
 *   bench cgroup dev=N rep=I active=K ns_per_op=X ops=N
 *   bench open dev=N pmu=SPEC rep=I active=K ns_per_op=X ops=N
 *   bench openclose pmu=SPEC rep=I ns_per_op=X ops=N
 *   bench lookup pmu=SPEC extra=E rep=I ns_per_op=X ops=N
 *   bench rotate pmu=NAME events=E others=LIST rep=I ns_per_op=X ops=ROT
 *   info rotate pmu=NAME events=E others=LIST rep=I with_ns=B others_ns=C
 *	   adds=N counters=K muxed=J
 *   bench tick mode=M pmus=LIST rep=I none=A ns_per_op=X ops=TICKS
 *   info tick mode=M pmus=LIST rep=I cuts_none=C cuts_with=D hz=HZ
 * active=K: the test_dev events whose time_running grew as much as their
 * time_enabled over the repeat (never off the PMU).  muxed=J: the E events
 * that ran for less time than they were enabled (they did multiplex; a
 * rotate run where none did is an error).
 * A missing PMU, cgroup v2, tracepoint or CPU: "skip SCENARIO PARAMS
 * reason=WHY", exit 0.  A failed syscall: "error SCENARIO PARAMS what=WHAT
 * errno=E", exit 1.  A bad command line: usage on stderr, exit 2.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "pmu.h"

#ifndef CGROUP2_SUPER_MAGIC
#define CGROUP2_SUPER_MAGIC	0x63677270
#endif

#define CGROOT		"/sys/fs/cgroup"
/*
 * perf stat's default events, as `perf stat -- cmd` opens them on the
 * task: the task clock (a PMU of its own) and three software events, and
 * four hardware ones where a hardware PMU exists.
 */
#define STAT_SW	"task-clock,sw,migrations,faults"
#define STAT_HW	"hw,instructions,branches,branch-misses"

#define MAX_SPECS	16
#define MAX_DEV		4096
#define MAX_EVENTS	1024
#define MAX_FDS		(MAX_DEV + MAX_EVENTS + MAX_SPECS + 16)
#define BIT(n)		(1u << (n))
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define __printf(a, b)	__attribute__((format(printf, a, b)))
#define __noreturn	__attribute__((noreturn))

struct spec {
	char name[64];		/* as given: "sw", "test_hw1:1" */
	__u32 type;
	__u64 config;
	int absent;		/* "nopmu": no PMU takes it, ENOENT expected */
};

struct times {
	__u64 enabled, running;
};

/* Options */
static unsigned long loops, repeat = 5, pin_cpu, ndev, nevents = 16;
static unsigned long work = 33000000;
static unsigned long hz = 250;		/* the kernel's CONFIG_HZ, for tick */
static const char *pmus, *mode, *others = "none";

static const char *scen;
static char params[256];	/* "KEY=VALUE ..." of this run */
static int show_active;		/* cgroup, open: active=K before ns_per_op */

/* What cleanup() undoes; a child starts with no children nor cgroups. */
static int in_child;
static pid_t kids[2];
static int nkids;
static int fds[MAX_FDS], nfds;
static const char * const cg_path[2] = {
	CGROOT "/perfbench_a", CGROOT "/perfbench_b",
};
static int cg_made[2];

/*
 * The ping-pong pipes: A writes AB and reads BA, the parent sends GO to A
 * and A sends its results back on RES.
 */
enum { AB_R, AB_W, BA_R, BA_W, GO_R, GO_W, RES_R, RES_W, NPP };
static int pp[NPP] = { -1, -1, -1, -1, -1, -1, -1, -1 };

/* test_dev events: fds and their times at the start of the repeat. */
static int dev_type = -1;
static int *dev_fds;
static struct times *dev_t0;

static void usage(FILE *f)
{
	fprintf(f,
"usage: perfbench SCENARIO [options]\n"
"  pipe      [--pmus LIST] [--mode self|inherit]   pipe ping-pong, ns/round trip\n"
"  cgroup    [--dev N]                              ping-pong in two cgroups\n"
"  open      [--dev N] [--pmus SPEC]                open + enable + close\n"
"  openclose [--pmus SPEC]                          open + close\n"
"  lookup    [--pmus SPEC]                          open + close (hw), with\n"
"                              the number of test_x PMUs: perf_init_event()\n"
"  rotate    [--pmu NAME[:CONFIG]] [--events E] [--others LIST] [--work W]\n"
"  tick      [--mode count|freq] [--pmus LIST] [--work W] [--hz HZ]\n"
"                                                   time of a tick\n"
"common: --loops N (pipe, cgroup, openclose 5000; open 2000)\n"
"        --repeat R (5)  --cpu C (0)\n"
"defaults: --pmus none (pipe), sw (open, openclose); --pmu test_hw0\n"
"          --pmus sw,test_hw0,test_hw1 (tick)\n"
"          --mode self (pipe), count (tick); --dev 0; --events 16\n"
"          --others none; --work 33000000; --hz 250\n"
"SPEC: sw | tp | none | hw | raw | nopmu (a type no PMU owns: the open\n"
"      fails, ENOENT) | task-clock | cpu-clock | migrations | faults |\n"
"      instructions | branches | branch-misses | NAME[:CONFIG] (a PMU in\n"
"      " DEVICES ")\n"
"LIST: SPEC[,SPEC...] | stat (" STAT_SW ") | stat-hw (and " STAT_HW ")\n");
}

static void __printf(1, 2) __noreturn
usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("perfbench: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	usage(stderr);
	exit(2);
}

static void keep(int fd)
{
	if (nfds < MAX_FDS)
		fds[nfds++] = fd;
}

/* Close the fds kept since @mark, newest first. */
static void close_from(int mark)
{
	while (nfds > mark)
		close(fds[--nfds]);
}

/* Close the ping-pong pipe ends not in @mask. */
static void keep_only(unsigned int mask)
{
	int i;

	for (i = 0; i < NPP; i++) {
		if (!(mask & BIT(i)) && pp[i] >= 0) {
			close(pp[i]);
			pp[i] = -1;
		}
	}
}

static void cleanup(void)
{
	int i;

	for (i = 0; i < nkids; i++) {
		kill(kids[i], SIGKILL);
		waitpid(kids[i], NULL, 0);
	}
	nkids = 0;
	keep_only(0);
	close_from(0);
	for (i = 0; i < 2; i++) {
		if (cg_made[i])
			rmdir(cg_path[i]);
		cg_made[i] = 0;
	}
}

static void __noreturn finish(int code)
{
	cleanup();
	fflush(stdout);
	if (in_child)
		_exit(code);
	exit(code);
}

/* "error SCENARIO PARAMS what=WHAT errno=E", E being errno at the call. */
static void __printf(1, 2)
error_line(const char *fmt, ...)
{
	int err = errno;
	va_list ap;

	printf("error %s %s what=", scen, params);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf(" errno=%d\n", err);
}

/* A syscall failed: report it (with errno), clean up, exit 1. */
#define fail(...)	do { error_line(__VA_ARGS__); finish(1); } while (0)

static void __printf(1, 2) __noreturn
skip(const char *fmt, ...)
{
	va_list ap;

	printf("skip %s %s reason=", scen, params);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	finish(0);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/*
 * Before each repeat: 200 ms of idle, which -icount sleep=off skips at no
 * cost, so that the RCU callbacks and deferred work of the previous
 * repeat (event frees, mostly) run there and not inside this one.
 */
static void settle(void)
{
	usleep(200000);
}

static void report(unsigned long rep, const char *extra, uint64_t ns,
		   unsigned long ops)
{
	printf("bench %s %s rep=%lu %sns_per_op=%.1f ops=%lu\n", scen, params,
	       rep, extra, ops ? (double)ns / ops : 0.0, ops);
}

/* The SPECs that name no PMU of DEVICES. */
static const struct {
	const char *name;
	__u32 type;
	__u64 config;
	int absent;
} fixed[] = {
	{ "sw", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, 0 },
	/* the rest of perf stat's default set (STAT_SW, STAT_HW) */
	{ "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, 0 },
	{ "cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, 0 },
	{ "migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS, 0 },
	{ "faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, 0 },
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 0 },
	{ "branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 0 },
	{ "branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES, 0 },
	/* the legacy types, which name no PMU, and a type nobody owns */
	{ "hw", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 0 },
	{ "raw", PERF_TYPE_RAW, 0x11 /* armv8 CPU_CYCLES */, 0 },
	{ "nopmu", 0x7fffff, 0, 1 },
};

/* Resolve one SPEC of @len characters: 0 for "none", 1 for an event. */
static int parse_spec(const char *text, size_t len, struct spec *s)
{
	char name[64], *colon, *end;
	unsigned int i;
	long type;

	if (!len || len >= sizeof(name))
		usage_error("bad PMU spec '%.*s'", (int)len, text);
	memcpy(name, text, len);
	name[len] = '\0';
	strcpy(s->name, name);
	s->config = 0;
	s->absent = 0;
	if (!strcmp(name, "none"))
		return 0;
	for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++) {
		if (!strcmp(name, fixed[i].name)) {
			s->type = fixed[i].type;
			s->config = fixed[i].config;
			s->absent = fixed[i].absent;
			return 1;
		}
	}
	if (!strcmp(name, "tp")) {
		long id = read_num("/sys/kernel/tracing/events/sched/sched_switch/id");

		if (id < 0)
			id = read_num("/sys/kernel/debug/tracing/events/sched/sched_switch/id");
		if (id < 0)
			skip("no_sched_switch_tracepoint");
		s->type = PERF_TYPE_TRACEPOINT;
		s->config = id;
		return 1;
	}
	colon = strchr(name, ':');
	if (colon) {
		*colon = '\0';
		errno = 0;
		s->config = strtoull(colon + 1, &end, 0);
		if (!colon[1] || *end || errno)
			usage_error("bad config in PMU spec '%s'", s->name);
	}
	if (!*name || *name == '.' || strchr(name, '/'))
		usage_error("bad PMU name in '%s'", s->name);
	type = pmu_file(name, "type");
	if (type < 0)
		skip("no_pmu_%s", name);
	s->type = type;
	return 1;
}

/* Resolve a LIST into @s, return the number of events. */
static int drop_unsupported(struct spec *s, int n);

static int parse_list(const char *list, struct spec *s)
{
	const char *p, *comma;
	int n = 0, hw = 0;

	if (!strcmp(list, "stat")) {
		list = STAT_SW;
	} else if (!strcmp(list, "stat-hw")) {
		list = STAT_SW "," STAT_HW;
		hw = 1;
	}
	p = list;
	for (;;) {
		comma = strchr(p, ',');
		if (n == MAX_SPECS)
			usage_error("more than %d PMUs in '%s'", MAX_SPECS, list);
		n += parse_spec(p, comma ? (size_t)(comma - p) : strlen(p), &s[n]);
		if (!comma)
			return hw ? drop_unsupported(s, n) : n;
		p = comma + 1;
	}
}

static void init_attr(struct perf_event_attr *a, const struct spec *s)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = s->type;
	a->config = s->config;
	a->read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			 PERF_FORMAT_TOTAL_TIME_RUNNING;
}

/* Open and keep one counting event of @s, or fail. */
static int open_spec(const struct spec *s, int inherit, pid_t pid, int cpu,
		     unsigned long flags)
{
	struct perf_event_attr a;
	int fd;

	init_attr(&a, s);
	a.inherit = inherit;
	fd = sys_perf_event_open(&a, pid, cpu, -1, flags | PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		fail("perf_event_open:%s", s->name);
	keep(fd);
	return fd;
}

/*
 * stat-hw: perf stat shows a hardware event the CPU PMU refuses as "not
 * supported" and counts the others; so here (QEMU's armv8 PMU has no
 * branch events).  The ones left out are said on an info line.
 */
static int drop_unsupported(struct spec *s, int n)
{
	struct perf_event_attr a;
	char out[128] = "";
	int i, k = 0, fd;

	for (i = 0; i < n; i++) {
		if (s[i].type == PERF_TYPE_HARDWARE) {
			init_attr(&a, &s[i]);
			fd = sys_perf_event_open(&a, 0, -1, -1,
						 PERF_FLAG_FD_CLOEXEC);
			if (fd < 0 && (errno == ENOENT || errno == EOPNOTSUPP ||
				       errno == EINVAL)) {
				snprintf(out + strlen(out), sizeof(out) - strlen(out),
					 "%s%s", *out ? "," : "", s[i].name);
				continue;
			}
			if (fd >= 0)
				close(fd);
		}
		s[k++] = s[i];
	}
	if (*out)
		printf("info %s not supported, left out: %s\n", scen, out);
	return k;
}

static void open_self(const struct spec *s, int n, int inherit)
{
	int i;

	for (i = 0; i < n; i++)
		open_spec(&s[i], inherit, 0, -1, 0);
}

static void read_times(int fd, struct times *t)
{
	__u64 buf[3];
	ssize_t n = read(fd, buf, sizeof(buf));

	if (n != (ssize_t)sizeof(buf)) {
		if (n >= 0)
			errno = 0;	/* short read: an event in error state */
		fail("read_event");
	}
	t->enabled = buf[1];
	t->running = buf[2];
}

/* Before any fork: test_dev present, on our CPU (skip otherwise). */
static void dev_check(void)
{
	long dcpu;

	if (!ndev)
		return;
	dev_type = pmu_file("test_dev", "type");
	if (dev_type < 0)
		skip("no_test_dev");
	dcpu = pmu_file("test_dev", "cpumask");
	if (dcpu < 0)
		skip("no_test_dev_cpumask");
	if ((unsigned long)dcpu != pin_cpu)
		skip("test_dev_on_cpu%ld_not_cpu%lu", dcpu, pin_cpu);
}

/* Open the N test_dev events on the CPU, and read each once. */
static void dev_open(void)
{
	struct spec s = { .name = "test_dev", .config = 0 };
	unsigned long i;

	if (!ndev)
		return;
	s.type = dev_type;
	dev_fds = calloc(ndev, sizeof(*dev_fds));
	dev_t0 = calloc(ndev, sizeof(*dev_t0));
	if (!dev_fds || !dev_t0)
		fail("calloc");
	for (i = 0; i < ndev; i++) {
		dev_fds[i] = open_spec(&s, 0, -1, pin_cpu, 0);
		read_times(dev_fds[i], &dev_t0[i]);
	}
}

static void dev_start(void)
{
	unsigned long i;

	for (i = 0; i < ndev; i++)
		read_times(dev_fds[i], &dev_t0[i]);
}

/* How many test_dev events ran all the time since dev_start(). */
static unsigned long dev_active(void)
{
	unsigned long i, k = 0;
	struct times t;

	for (i = 0; i < ndev; i++) {
		read_times(dev_fds[i], &t);
		if (t.enabled > dev_t0[i].enabled &&
		    t.running - dev_t0[i].running == t.enabled - dev_t0[i].enabled)
			k++;
	}
	return k;
}

/* A child dies with its parent: nothing is left behind on errors. */
static pid_t spawn(void)
{
	pid_t parent = getpid(), pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		fail("fork");
	if (pid == 0) {
		in_child = 1;
		nkids = 0;
		cg_made[0] = cg_made[1] = 0;
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
			_exit(3);
		return 0;
	}
	kids[nkids++] = pid;
	return pid;
}

/*
 * Wait for every child; 0 when all exited 0.  Exit status 1 means the
 * child printed its error line, 3 that its peer went away; anything else
 * gets an error line here.
 */
static int reap_kids(void)
{
	int i, st, bad = 0, reported = 0;
	char what[32] = "";

	for (i = 0; i < nkids; i++) {
		if (waitpid(kids[i], &st, 0) < 0) {
			snprintf(what, sizeof(what), "waitpid");
			bad = 1;
			continue;
		}
		if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
			continue;
		bad = 1;
		if (WIFEXITED(st) && WEXITSTATUS(st) == 1)
			reported = 1;
		else if (WIFSIGNALED(st))
			snprintf(what, sizeof(what), "child_signal_%d",
				 WTERMSIG(st));
		else if (!*what)
			snprintf(what, sizeof(what), "child_exit_%d",
				 WEXITSTATUS(st));
	}
	nkids = 0;
	if (bad && !reported) {
		errno = 0;
		error_line("%s", what);
	}
	return bad;
}

/* -1 on end of file. */
static int get_byte(int fd)
{
	unsigned char c;
	ssize_t n = read(fd, &c, 1);

	if (n < 0)
		fail("read_pipe");
	return n ? c : -1;
}

/* -1 when the reader is gone. */
static int put_byte(int fd, int c)
{
	unsigned char b = c;

	if (write(fd, &b, 1) == 1)
		return 0;
	if (errno != EPIPE)
		fail("write_pipe");
	return -1;
}

/* The parent lost a child: let the others see end of file, report, exit. */
static void __noreturn kids_failed(void)
{
	keep_only(0);
	if (!reap_kids()) {
		errno = 0;
		error_line("child_gone");
	}
	finish(1);
}

/* A: times the round trips of each repeat the parent starts. */
static void __noreturn pong_a(const struct spec *s, int n)
{
	unsigned long i, warm = loops / 10;
	uint64_t t;
	int c;

	keep_only(BIT(AB_W) | BIT(BA_R) | BIT(GO_R) | BIT(RES_W));
	open_self(s, n, 0);
	if (get_byte(pp[BA_R]) != 'R' || put_byte(pp[RES_W], 'r'))
		_exit(3);
	while ((c = get_byte(pp[GO_R])) == 'g') {
		for (i = 0; i < warm; i++)
			if (put_byte(pp[AB_W], 'x') || get_byte(pp[BA_R]) < 0)
				_exit(3);
		t = now_ns();
		for (i = 0; i < loops; i++)
			if (put_byte(pp[AB_W], 'x') || get_byte(pp[BA_R]) < 0)
				_exit(3);
		t = now_ns() - t;
		if (write(pp[RES_W], &t, sizeof(t)) != sizeof(t))
			_exit(3);
	}
	if (c != 'q' || put_byte(pp[AB_W], 'q'))
		_exit(3);
	_exit(0);
}

/* B: echoes until 'q'. */
static void __noreturn pong_b(const struct spec *s, int n)
{
	int c;

	keep_only(BIT(AB_R) | BIT(BA_W));
	open_self(s, n, 0);
	if (put_byte(pp[BA_W], 'R'))
		_exit(3);
	while ((c = get_byte(pp[AB_R])) >= 0 && c != 'q')
		if (put_byte(pp[BA_W], c))
			_exit(3);
	_exit(c == 'q' ? 0 : 3);
}

/*
 * Fork the ping-pong pair (kids[0] = A, kids[1] = B) with @n events each
 * on itself, or with inherit, from a middle process that opened them with
 * inherit=1.  Returns when both are ready, waiting for "go".
 */
static void start_pingpong(const struct spec *s, int n, int inherit)
{
	int i;

	for (i = 0; i < NPP; i += 2) {
		if (pipe(&pp[i]))
			fail("pipe");
	}
	if (inherit) {
		if (spawn() == 0) {
			open_self(s, n, 1);
			if (spawn() == 0)
				pong_a(NULL, 0);
			if (spawn() == 0)
				pong_b(NULL, 0);
			keep_only(0);
			finish(reap_kids() ? 1 : 0);
		}
	} else {
		if (spawn() == 0)
			pong_a(s, n);
		if (spawn() == 0)
			pong_b(s, n);
	}
	keep_only(BIT(GO_W) | BIT(RES_R));
	if (get_byte(pp[RES_R]) != 'r')
		kids_failed();
}

/* The repeats of a started ping-pong; then stop and reap it. */
static long hw_filters(void);

/*
 * filters=F: the test PMUs' filter() calls per round trip (the warm-up's
 * too), when the events are on test PMUs.
 */
static void run_pingpong(void)
{
	char extra[64] = "";
	unsigned long rep;
	long f0, f1;
	uint64_t t;
	int len;

	for (rep = 1; rep <= repeat; rep++) {
		settle();
		dev_start();
		f0 = pmus && strstr(pmus, "test_hw") ? hw_filters() : -1;
		if (put_byte(pp[GO_W], 'g') ||
		    read(pp[RES_R], &t, sizeof(t)) != sizeof(t))
			kids_failed();
		f1 = f0 >= 0 ? hw_filters() : -1;
		len = 0;
		if (show_active)
			len = snprintf(extra, sizeof(extra), "active=%lu ",
				       dev_active());
		if (f1 >= 0)
			snprintf(extra + len, sizeof(extra) - len,
				 "filters=%.2f ", (double)(f1 - f0) /
				 (double)(loops + loops / 10));
		report(rep, extra, t, loops);
	}
	if (put_byte(pp[GO_W], 'q'))
		kids_failed();
	keep_only(0);
	if (reap_kids())
		finish(1);
}

static void do_pipe(void)
{
	struct spec s[MAX_SPECS];
	int n, mark = nfds;

	if (strcmp(mode, "self") && strcmp(mode, "inherit"))
		usage_error("pipe: --mode self|inherit");
	n = parse_list(pmus, s);
	/* Try them here first: one error line, not one per child. */
	open_self(s, n, 0);
	close_from(mark);
	start_pingpong(s, n, !strcmp(mode, "inherit"));
	run_pingpong();
}

/* Does the kernel have the perf_event cgroup controller? */
static int have_perf_cgroup(void)
{
	char line[128];
	FILE *f = fopen("/proc/cgroups", "r");
	int found = 0;

	if (!f)
		return 1;	/* cannot tell: let the open say */
	while (!found && fgets(line, sizeof(line), f))
		found = !strncmp(line, "perf_event\t", 11);
	fclose(f);
	return found;
}

static void move_to_cgroup(int i, pid_t pid)
{
	char path[128], buf[32];
	int fd, len;

	snprintf(path, sizeof(path), "%s/cgroup.procs", cg_path[i]);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		fail("open:%s", path);
	len = snprintf(buf, sizeof(buf), "%d\n", (int)pid);
	if (write(fd, buf, len) != len) {
		error_line("write:%s", path);
		close(fd);
		finish(1);
	}
	close(fd);
}

static void do_cgroup(void)
{
	struct spec sw = {
		.name = "sw", .type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CONTEXT_SWITCHES,
	};
	struct statfs sfs;
	int i, dfd;

	show_active = 1;
	if (statfs(CGROOT, &sfs) || sfs.f_type != CGROUP2_SUPER_MAGIC)
		skip("no_cgroup2_at_" CGROOT);
	if (!have_perf_cgroup())
		skip("no_perf_event_cgroup");
	dev_check();
	for (i = 0; i < 2; i++) {
		if (mkdir(cg_path[i], 0755) && errno != EEXIST)
			fail("mkdir:%s", cg_path[i]);
		cg_made[i] = 1;
	}
	start_pingpong(NULL, 0, 0);
	for (i = 0; i < 2; i++) {
		move_to_cgroup(i, kids[i]);
		dfd = open(cg_path[i], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (dfd < 0)
			fail("open:%s", cg_path[i]);
		keep(dfd);
		open_spec(&sw, 0, dfd, pin_cpu, PERF_FLAG_PID_CGROUP);
	}
	dev_open();
	run_pingpong();
}

/* Open one disabled context-switches event on itself and keep it. */
static void open_keeper(void)
{
	struct spec sw = {
		.name = "sw", .type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CONTEXT_SWITCHES,
	};
	struct perf_event_attr a;
	int fd;

	init_attr(&a, &sw);
	a.disabled = 1;
	fd = sys_perf_event_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		fail("perf_event_open:keeper");
	keep(fd);
}

/* Open (enable) and close @n events of @s on itself; the time taken. */
static uint64_t open_loop(const struct spec *s, unsigned long n, int enable)
{
	struct perf_event_attr a;
	unsigned long i;
	uint64_t t;
	int fd;

	init_attr(&a, s);
	/* opened disabled, so that ENABLE does the work of enabling */
	a.disabled = enable;
	t = now_ns();
	for (i = 0; i < n; i++) {
		fd = sys_perf_event_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
		if (fd < 0 && s->absent && errno == ENOENT)
			continue;
		if (fd < 0 || s->absent)
			fail("perf_event_open:%s", s->name);
		if (enable && ioctl(fd, PERF_EVENT_IOC_ENABLE, 0)) {
			error_line("enable:%s", s->name);
			close(fd);
			finish(1);
		}
		close(fd);
	}
	return now_ns() - t;
}

static void do_open(int enable)
{
	char extra[32] = "";
	unsigned long rep;
	struct spec s;
	uint64_t t;

	show_active = enable;
	if (strchr(pmus, ','))
		usage_error("%s: one SPEC in --pmus", scen);
	if (!parse_spec(pmus, strlen(pmus), &s))
		usage_error("%s: --pmus none has nothing to open", scen);
	dev_check();
	dev_open();
	/*
	 * A disabled software task event kept open over the loops: 6.1 turns
	 * perf_sched_events off a second after the last task event goes, and
	 * the next open turns it on again with a synchronize_rcu(); and the
	 * software hlist would be allocated and freed on every iteration.
	 */
	open_keeper();
	for (rep = 1; rep <= repeat; rep++) {
		settle();
		dev_start();
		open_loop(&s, loops / 10, enable);
		t = open_loop(&s, loops, enable);
		if (show_active)
			snprintf(extra, sizeof(extra), "active=%lu ",
				 dev_active());
		report(rep, extra, t, loops);
	}
}

static void do_open_enable(void)
{
	do_open(1);
}

static void do_openclose(void)
{
	do_open(0);
}

static volatile unsigned long spin_sink;

static void spin(unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		spin_sink += i;
}

/* The sum of "add=" over the CPUs in the test PMU's debugfs stats. */
static long pmu_stat(const char *pmu, const char *key)
{
	char path[128], line[512], word[32], *p;
	long sum = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/kernel/debug/test_perf_pmu/%s/stats",
		 pmu);
	snprintf(word, sizeof(word), " %s=", key);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		p = strstr(line, word);
		if (!strncmp(line, "cpu", 3) && p)
			sum += strtol(p + strlen(word), NULL, 10);
	}
	fclose(f);
	return sum;
}

static long pmu_adds(const char *pmu)
{
	return pmu_stat(pmu, "add");
}

/*
 * The filter() calls of the test_hwN PMUs, summed (-1: no stats): how often
 * the context switch asked whether a PMU may run on this CPU.
 */
static long hw_filters(void)
{
	char name[16];
	long sum = -1, v;
	int i;

	for (i = 0; i < 8; i++) {
		snprintf(name, sizeof(name), "test_hw%d", i);
		v = pmu_stat(name, "filter");
		if (v >= 0)
			sum = (sum < 0 ? 0 : sum) + v;
	}
	return sum;
}

/*
 * Multiplexing: the spin timed with E events of the PMU (more than its
 * counters) and the LIST events, against the LIST events alone.  The
 * rotations are counted, not estimated: each puts `counters` events on
 * the PMU (add() calls from its debugfs stats, which test PMUs have),
 * where counters is how many of the E events ran at a time.
 */
static void do_rotate(void)
{
	struct spec pmu, s[MAX_SPECS];
	unsigned long rep, i, muxed;
	uint64_t tb, tc;
	double rot, on;
	struct times t;
	long a0, a1;
	char name[64];
	int n, mark;

	if (strchr(pmus, ',') || !strcmp(pmus, "sw") || !strcmp(pmus, "tp") ||
	    !strcmp(pmus, "none"))
		usage_error("rotate: --pmu takes one PMU name");
	parse_spec(pmus, strlen(pmus), &pmu);
	n = parse_list(others, s);
	snprintf(name, sizeof(name), "%.*s", (int)strcspn(pmus, ":"), pmus);
	if (pmu_adds(name) < 0)
		skip("no_debugfs_stats_of_%s", name);
	for (rep = 1; rep <= repeat; rep++) {
		settle();
		mark = nfds;
		for (i = 0; i < nevents; i++)
			open_spec(&pmu, 0, 0, -1, 0);
		open_self(s, n, 0);
		spin(work / 10);
		a0 = pmu_adds(name);
		tb = now_ns();
		spin(work);
		tb = now_ns() - tb;
		a1 = pmu_adds(name);
		for (i = 0, muxed = 0, on = 0; i < nevents; i++) {
			read_times(fds[mark + i], &t);
			muxed += t.running < t.enabled;
			if (t.enabled)
				on += (double)t.running / t.enabled;
		}
		close_from(mark);

		mark = nfds;
		open_self(s, n, 0);
		spin(work / 10);
		tc = now_ns();
		spin(work);
		tc = now_ns() - tc;
		close_from(mark);

		rot = on >= 0.5 ? (double)(a1 - a0) / (double)(long)(on + 0.5) : 0;
		if (rot < 1 || !muxed) {
			error_line("no_rotation adds=%ld on=%.2f muxed=%lu",
				   a1 - a0, on, muxed);
			finish(1);
		}
		printf("bench %s %s rep=%lu ns_per_op=%.1f ops=%lu\n", scen,
		       params, rep, ((double)tb - (double)tc) / rot,
		       (unsigned long)(rot + 0.5));
		printf("info %s %s rep=%lu with_ns=%llu others_ns=%llu adds=%ld counters=%.2f muxed=%lu\n",
		       scen, params, rep, (unsigned long long)tb,
		       (unsigned long long)tc, a1 - a0, on, muxed);
	}
}

/*
 * The spin of --work iterations, the clock read every TICK_STEP: a step
 * that took longer than the shortest by more than TICK_CUT ns was cut by
 * an interrupt, nearly always the tick.  Under -icount a step that was not
 * cut always takes the same time, so what a cut step takes more is the
 * interrupt's own time.  Returns the median of those extras (0 if none),
 * and their number in @cuts.  The old method, the spin's whole time with
 * events less without, spread 15-170%: the difference was a few hundred
 * ns a tick in 2 s, and the phase of the tick against the spin moved it.
 */
#define TICK_STEP	64
#define TICK_CUT	300
#define TICK_MAX	65536

static uint64_t tick_extra[TICK_MAX];

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static uint64_t tick_spin(unsigned long *cuts)
{
	uint64_t t, prev, d, lo = UINT64_MAX;
	unsigned long i, n = 0, k = 0;

	spin(work / 10);
	prev = now_ns();
	for (i = 0; i < work; i += TICK_STEP) {
		spin(TICK_STEP);
		t = now_ns();
		d = t - prev;
		prev = t;
		if (d < lo)
			lo = d;
		else if (d > lo + TICK_CUT && n < TICK_MAX)
			tick_extra[n++] = d;	/* the raw step, for now */
	}
	/* Against the final shortest step: an early one may not be cut. */
	for (i = 0; i < n; i++)
		if (tick_extra[i] > lo + TICK_CUT)
			tick_extra[k++] = tick_extra[i] - lo;
	*cuts = k;
	if (!k)
		return 0;
	qsort(tick_extra, k, sizeof(tick_extra[0]), cmp_u64);
	return tick_extra[k / 2];
}

/*
 * The tick: the spin with the LIST events (mode count), or with them and
 * one software event in frequency mode (mode freq: page-faults, which
 * keeps attr.freq, unlike cpu-clock, and never overflows in the spin);
 * ns_per_op: the median time of a tick with them (tick_spin()), none: the
 * same with no event.  cuts: the ticks seen, which --hz should predict.
 */
static void do_tick(void)
{
	struct spec pf = {
		.name = "page-faults", .type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_PAGE_FAULTS,
	};
	struct spec s[MAX_SPECS];
	struct perf_event_attr a;
	unsigned long rep, c0, c1;
	uint64_t t0, t1;
	int fd, n, mark;

	if (strcmp(mode, "count") && strcmp(mode, "freq"))
		usage_error("tick: --mode count|freq");
	n = parse_list(pmus, s);
	for (rep = 1; rep <= repeat; rep++) {
		settle();
		t0 = tick_spin(&c0);

		mark = nfds;
		open_self(s, n, 0);
		if (!strcmp(mode, "freq")) {
			init_attr(&a, &pf);
			a.freq = 1;
			a.sample_freq = 1000;
			a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID;
			fd = sys_perf_event_open(&a, 0, -1, -1,
						 PERF_FLAG_FD_CLOEXEC);
			if (fd < 0)
				fail("perf_event_open:page-faults-freq");
			keep(fd);
		}
		t1 = tick_spin(&c1);
		close_from(mark);

		if (!c0 || !c1) {
			error_line("no_ticks_seen none=%lu with=%lu", c0, c1);
			finish(1);
		}
		printf("bench %s %s rep=%lu none=%llu ns_per_op=%llu ops=%lu\n",
		       scen, params, rep, (unsigned long long)t0,
		       (unsigned long long)t1, c1);
		printf("info %s %s rep=%lu cuts_none=%lu cuts_with=%lu hz=%lu\n",
		       scen, params, rep, c0, c1, hz);
	}
}

enum {
	O_LOOPS = BIT(0), O_REPEAT = BIT(1), O_CPU = BIT(2), O_PMUS = BIT(3),
	O_MODE = BIT(4), O_DEV = BIT(5), O_EVENTS = BIT(6), O_OTHERS = BIT(7),
	O_WORK = BIT(8), O_HZ = BIT(9),
};
#define O_COMMON	(O_LOOPS | O_REPEAT | O_CPU)

static const struct scenario {
	const char *name;
	void (*run)(void);
	unsigned int opts;
	unsigned long loops;		/* default --loops */
	const char *pmus, *mode;	/* default --pmus, --mode */
} scenarios[] = {
	{ "pipe", do_pipe, O_COMMON | O_PMUS | O_MODE, 5000, "none", "self" },
	{ "cgroup", do_cgroup, O_COMMON | O_DEV, 5000, NULL, NULL },
	{ "open", do_open_enable, O_COMMON | O_DEV | O_PMUS, 2000, "sw", NULL },
	{ "openclose", do_openclose, O_COMMON | O_PMUS, 5000, "sw", NULL },
	{ "lookup", do_openclose, O_COMMON | O_PMUS, 5000, "hw", NULL },
	{ "rotate", do_rotate,
	  O_REPEAT | O_CPU | O_PMUS | O_EVENTS | O_OTHERS | O_WORK, 0,
	  "test_hw0", NULL },
	{ "tick", do_tick, O_REPEAT | O_CPU | O_MODE | O_PMUS | O_WORK | O_HZ, 0,
	  "sw,test_hw0,test_hw1", "count" },
};

/* How many PMUs have a name that starts with @prefix. */
static int count_pmus(const char *prefix)
{
	struct dirent *d;
	int n = 0;
	DIR *dir;

	dir = opendir(DEVICES);
	if (!dir)
		return -1;
	while ((d = readdir(dir)))
		n += !strncmp(d->d_name, prefix, strlen(prefix));
	closedir(dir);
	return n;
}

/* The PARAMS of every output line, in a fixed order per scenario. */
static void set_params(void)
{
	int n = sizeof(params);

	if (!strcmp(scen, "pipe") && count_pmus("test_x"))
		snprintf(params, n, "pmus=%s mode=%s extra=%d", pmus, mode,
			 count_pmus("test_x"));
	else if (!strcmp(scen, "pipe"))
		snprintf(params, n, "pmus=%s mode=%s", pmus, mode);
	else if (!strcmp(scen, "cgroup"))
		snprintf(params, n, "dev=%lu", ndev);
	else if (!strcmp(scen, "open"))
		snprintf(params, n, "dev=%lu pmu=%s", ndev, pmus);
	else if (!strcmp(scen, "openclose"))
		snprintf(params, n, "pmu=%s", pmus);
	else if (!strcmp(scen, "lookup"))
		snprintf(params, n, "pmu=%s extra=%d", pmus, count_pmus("test_x"));
	else if (!strcmp(scen, "rotate"))
		snprintf(params, n, "pmu=%s events=%lu others=%s", pmus,
			 nevents, others);
	else
		snprintf(params, n, "mode=%s pmus=%s", mode, pmus);
}

static const struct option {
	const char *name;
	unsigned int bit;
	const char **str;		/* a string, or ... */
	unsigned long *num, min, max;	/* ... a number */
} options[] = {
	{ "loops",	O_LOOPS,	NULL, &loops,	1, 1000000000 },
	{ "repeat",	O_REPEAT,	NULL, &repeat,	1, 1000000 },
	{ "cpu",	O_CPU,		NULL, &pin_cpu,	0, CPU_SETSIZE - 1 },
	{ "dev",	O_DEV,		NULL, &ndev,	0, MAX_DEV },
	{ "events",	O_EVENTS,	NULL, &nevents,	1, MAX_EVENTS },
	{ "work",	O_WORK,		NULL, &work,	1, ~0ul / 2 },
	{ "hz",		O_HZ,		NULL, &hz,	1, 10000 },
	{ "pmus",	O_PMUS,		.str = &pmus },
	{ "pmu",	O_PMUS,		.str = &pmus },
	{ "mode",	O_MODE,		.str = &mode },
	{ "others",	O_OTHERS,	.str = &others },
};

static void set_option(const struct option *o, const char *v)
{
	char *end;

	if (!strncmp(v, "--", 2))
		usage_error("--%s needs a value", o->name);
	if (o->str) {
		if (strlen(v) > 200)
			usage_error("--%s: too long", o->name);
		*o->str = v;
		return;
	}
	errno = 0;
	*o->num = strtoul(v, &end, 0);
	if (!*v || *end || errno || *v == '-' || *o->num < o->min ||
	    *o->num > o->max)
		usage_error("--%s: a number from %lu to %lu", o->name, o->min,
			    o->max);
}

static const struct scenario *parse_args(int argc, char **argv)
{
	const struct scenario *sc = NULL;
	const struct option *o;
	unsigned int i;
	int a;

	if (argc < 2)
		usage_error("no scenario");
	for (i = 0; i < ARRAY_SIZE(scenarios); i++)
		if (!strcmp(argv[1], scenarios[i].name))
			sc = &scenarios[i];
	for (a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--help") || !strcmp(argv[a], "-h")) {
			usage(stdout);
			exit(0);
		}
	}
	if (!sc)
		usage_error("unknown scenario '%s'", argv[1]);
	loops = sc->loops;
	pmus = sc->pmus;
	mode = sc->mode;
	for (a = 2; a < argc; a++) {
		const char *arg = argv[a], *eq = strchr(arg, '=');
		size_t len = eq ? (size_t)(eq - arg) : strlen(arg);

		for (o = NULL, i = 0; i < ARRAY_SIZE(options); i++)
			if (!strncmp(arg, "--", 2) && len - 2 == strlen(options[i].name) &&
			    !strncmp(arg + 2, options[i].name, len - 2))
				o = &options[i];
		if (!o)
			usage_error("unknown option '%.*s'", (int)len, arg);
		if (!(sc->opts & o->bit))
			usage_error("--%s does not apply to %s", o->name, sc->name);
		if (!eq && a + 1 == argc)
			usage_error("--%s needs a value", o->name);
		set_option(o, eq ? eq + 1 : argv[++a]);
	}
	return sc;
}

int main(int argc, char **argv)
{
	const struct scenario *sc = parse_args(argc, argv);
	struct rlimit rl;
	cpu_set_t set;

	scen = sc->name;
	set_params();
	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGPIPE, SIG_IGN);
	/* Room for --dev 4096 and --events 1024. */
	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	CPU_ZERO(&set);
	CPU_SET(pin_cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		if (errno != EINVAL)
			fail("sched_setaffinity");
		skip("no_cpu%lu", pin_cpu);
	}
	sc->run();
	finish(0);
}
