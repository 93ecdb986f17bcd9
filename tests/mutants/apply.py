#!/usr/bin/env python3
"""Break the perf core on purpose, one behaviour at a time, to show that the
suite notices.  Edits kernel/events/core.c of the tree given as argv[1] (a
scratch worktree, never build/linux): each mutant is guarded by the boot
parameter perf_mutant=N, so one kernel serves them all; N=0 is the
unbroken kernel.  tests/mutants/run.sh builds it and boots it once per
mutant.  MUTANTS below: number, what breaks, which tests must notice."""
import sys

MUTANTS = [
    (1, 'no rotation: flexible groups beyond the counters never take turns',
     'multiplex_rotate, mux_fairness, perf stat multiplexing',
     'static bool perf_rotate_context(struct perf_cpu_context *cpuctx)\n{\n',
     '\tif (perf_mutant == 1)\n\t\treturn false;\n'),
    (2, 'time_running reported as time_enabled',
     'group_all_or_nothing, sw_in_hw_group, pinned_error, multiplex_rotate, group_oversized',
     '\t__perf_update_times(event, now, &event->total_time_enabled,\n\t\t\t\t\t&event->total_time_running);\n',
     '\tif (perf_mutant == 2)\n\t\tevent->total_time_running = event->total_time_enabled;\n'),
    (3, 'groups not all-or-nothing: members go on one by one',
     'group_all_or_nothing, group_oversized',
     '\tif (group_event->state == PERF_EVENT_STATE_OFF)\n\t\treturn 0;\n\n\tpmu->start_txn(pmu, PERF_PMU_TXN_ADD);\n',
     None),
    (4, 'a pinned group that cannot go on is not put in error state',
     'pinned_error, exclusive',
     '\t\tif (event->attr.pinned) {\n\t\t\tperf_cgroup_event_disable(event, ctx);',
     None),
    (5, 'attr.exclusive ignored', 'exclusive',
     '\t/*\n\t * If an exclusive group is already on, no other hardware\n\t * events can go on.\n\t */\n',
     '\tif (perf_mutant == 5)\n\t\treturn can_add_hw;\n'),
    (6, 'the PMU filter (CPU mask of hybrid PMUs) ignored',
     'task_cpu_mask, cpu_mask',
     'static inline int __pmu_filter_match(struct perf_event *event)\n{\n\tstruct pmu *pmu = event->pmu;\n',
     '\n\tif (perf_mutant == 6)\n\t\treturn 1;\n'),
    (7, 'inherit: children get no events (and no context)',
     'inherit, inherit.*, inherit_moved_group, exec_remove.*.inherited',
     '\tint inherited_all = 1;\n\tunsigned long flags;\n\tint ret = 0;\n\n',
     '\tif (perf_mutant == 7)\n\t\treturn 0;\n'),
    (12, 'inherit: every inherited event is an orphan (empty clone contexts)',
     'inherit (a child on another CPU); the clone-context swap hides it from tests on one CPU',
     '\tenum perf_event_state parent_state = parent_event->state;\n\tstruct perf_event *child_event;\n\tunsigned long flags;\n\n',
     '\tif (perf_mutant == 12)\n\t\treturn NULL;\n'),
    (8, 'remove_on_exec ignored', 'exec_remove.*',
     'static void perf_event_remove_on_exec(int ctxn)\n{\n\tstruct perf_event_context *ctx, *clone_ctx = NULL;\n\tstruct perf_event *event, *next;\n\tunsigned long flags;\n\tbool modified = false;\n\n',
     '\tif (perf_mutant == 8)\n\t\treturn;\n'),
    (9, 'perf_pmu_migrate_context() does nothing', 'hotplug_device',
     'void perf_pmu_migrate_context(struct pmu *pmu, int src_cpu, int dst_cpu)\n{\n\tstruct perf_event_context *src_ctx;\n\tstruct perf_event_context *dst_ctx;\n\tstruct perf_event *event, *tmp;\n\tLIST_HEAD(events);\n\n',
     '\tif (perf_mutant == 9)\n\t\treturn;\n'),
    (10, 'perf_event_disable() does nothing', 'enable_disable_read',
     'void perf_event_disable(struct perf_event *event)\n{\n',
     '\tif (perf_mutant == 10)\n\t\treturn;\n'),
    (11, 'a read of an active event does not ask the PMU',
     'enable_disable_read, times_signature',
     None, None),
]

def main():
    path = sys.argv[1] + '/kernel/events/core.c'
    s = open(path).read()
    head = '#include <asm/irq_regs.h>\n'
    assert head in s
    s = s.replace(head, head + '\n/* tests/mutants: break one behaviour on purpose */\n'
                  'static int perf_mutant;\ncore_param(perf_mutant, perf_mutant, int, 0444);\n', 1)
    for n, what, tests, anchor, ins in MUTANTS:
        if n == 3:
            new = anchor.replace('\tpmu->start_txn(pmu, PERF_PMU_TXN_ADD);\n',
                '\tif (perf_mutant == 3) {\n'
                '\t\tif (event_sched_in(group_event, cpuctx, ctx))\n\t\t\treturn -EAGAIN;\n'
                '\t\tfor_each_sibling_event(event, group_event)\n'
                '\t\t\tevent_sched_in(event, cpuctx, ctx);\n\t\treturn 0;\n\t}\n'
                '\tpmu->start_txn(pmu, PERF_PMU_TXN_ADD);\n')
        elif n == 4:
            new = anchor.replace('if (event->attr.pinned) {', 'if (event->attr.pinned && perf_mutant != 4) {')
        elif n == 11:
            anchor = '\tif (!data->group) {\n\t\tpmu->read(event);\n'
            new = '\tif (!data->group) {\n\t\tif (perf_mutant != 11)\n\t\t\tpmu->read(event);\n'
        else:
            new = anchor + ins
        assert s.count(anchor) == 1, 'mutant %d: anchor not unique' % n
        s = s.replace(anchor, new, 1)
    open(path, 'w').write(s)

if __name__ == '__main__':
    if sys.argv[1:] == ['--list']:
        for n, what, tests, *_ in MUTANTS:
            print('%d\t%s\t%s' % (n, what, tests))
    else:
        main()
