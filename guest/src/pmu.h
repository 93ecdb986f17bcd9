/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the guest's perf programs (perfbench, perfstorm) share: the
 * syscall, and the numbers a PMU publishes in sysfs.
 */
#ifndef GUEST_PMU_H
#define GUEST_PMU_H

#include <linux/perf_event.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

#define DEVICES		"/sys/bus/event_source/devices"

static inline int sys_perf_event_open(struct perf_event_attr *attr, pid_t pid,
				      int cpu, int group_fd, unsigned long flags)
{
	return syscall(__NR_perf_event_open, attr, pid, cpu, group_fd, flags);
}

/* The first number in a file, -1 if there is none. */
static inline long read_num(const char *path)
{
	FILE *f = fopen(path, "r");
	long v = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%ld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

/* The number in DEVICES/PMU/FILE (type, cpumask...), -1 if none. */
static inline long pmu_file(const char *pmu, const char *file)
{
	char path[192];

	snprintf(path, sizeof(path), DEVICES "/%s/%s", pmu, file);
	return read_num(path);
}

#endif
