// SPDX-License-Identifier: GPL-2.0
/*
 * lib/test_perf_pmu.c as a module of its own name, for the stress runs'
 * load/unload loop on the debug kernel, where the same driver is built in
 * (the perf core KUnit suite needs it built in) and booted with
 * test_perf_pmu.nr_hw=0 test_perf_pmu.device=0 so that it registers
 * nothing.  This copy is what CONFIG_TEST_PERF_PMU=m would build: without
 * perf_sched_cb_inc() (not exported), so "cb" events get EOPNOTSUPP.  Its
 * exports would clash with the built-in copy's, and nothing uses them.
 * Its debugfs directory has the module's name (the built-in copy's is
 * test_perf_pmu/): the stress runs' unbind loop writes to its files.
 */
/* The driver's own, before the headers that give the default. */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt
#include <linux/export.h>
#include <linux/module.h>

#undef CONFIG_TEST_PERF_PMU
#define CONFIG_TEST_PERF_PMU_MODULE 1
#undef EXPORT_SYMBOL_GPL
#define EXPORT_SYMBOL_GPL(sym)

#include "test_perf_pmu.c"
