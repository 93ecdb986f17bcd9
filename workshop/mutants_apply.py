"""Write the mutants of workshop/mutants.py into a worktree of the series:
kernel/events/core.c gets perf_mutant (a core_param) and every mutant of
MUTANTS, each guarded by perf_mutant == N; the test PMU driver gets those
of DRIVER_MUTANTS, reading the same perf_mutant."""
import os

from workshop.mutants import DRIVER, DRIVER_MUTANTS, MUTANTS

# Mutant 24's second site: a released task event's put at its removal,
# which the mutant leaves to the (mutated) put at the free.
M24_REMOVAL_PUT = '\tif ((flags & DETACH_DEAD) && ctx->task)\n'


def apply_driver(tree):
    path = os.path.join(tree, DRIVER)
    with open(path) as f:
        s = f.read()
    head = '#include <linux/perf/test_pmu.h>\n'
    assert s.count(head) == 1
    s = s.replace(head, head + '\n/* workshop/mutants.py: kernel/events/core.c\'s */\nextern int perf_mutant;\n', 1)
    for n, what, tests, anchor, (old, new) in DRIVER_MUTANTS:
        assert s.count(anchor) == 1 and anchor.count(old) == 1, 'mutant %d: anchor' % n
        s = s.replace(anchor, anchor.replace(old, new), 1)
    open(path, 'w').write(s)


def apply(tree):
    """Write every mutant into TREE's kernel/events/core.c (and the test
    PMU driver's into it)."""
    path = tree + '/kernel/events/core.c'
    with open(path) as f:
        s = f.read()
    head = '#include <asm/irq_regs.h>\n'
    assert head in s
    s = s.replace(head, head + '#include <linux/delay.h>\n'
                  '\n/* workshop/mutants.py: break one behaviour on purpose */\n'
                  'int perf_mutant;\ncore_param(perf_mutant, perf_mutant, int, 0444);\n', 1)
    apply_driver(tree)
    for n, what, tests, anchor, ins in MUTANTS:
        if n == 3:
            new = anchor.replace('\tpmu->start_txn(pmu, PERF_PMU_TXN_ADD);\n',
                '\tif (perf_mutant == 3) {\n'
                '\t\tif (event_sched_in(group_event, ctx))\n\t\t\treturn -EAGAIN;\n'
                '\t\tfor_each_sibling_event(event, group_event)\n'
                '\t\t\tevent_sched_in(event, ctx);\n\t\treturn 0;\n\t}\n'
                '\tpmu->start_txn(pmu, PERF_PMU_TXN_ADD);\n')
        elif n == 14:
            # a NULL pmu: the whole context, every PMU's flexible groups
            new = (anchor
                   .replace('ctx_sched_out(task_epc->ctx, pmu,', 'ctx_sched_out(task_epc->ctx,\n\t\t\t      perf_mutant == 14 ? NULL : pmu,')
                   .replace('ctx_sched_out(&cpuctx->ctx, pmu,', 'ctx_sched_out(&cpuctx->ctx,\n\t\t\t      perf_mutant == 14 ? NULL : pmu,')
                   .replace('ctx_sched_in(&cpuctx->ctx, pmu,', 'ctx_sched_in(&cpuctx->ctx,\n\t\t\t     perf_mutant == 14 ? NULL : pmu,')
                   .replace('ctx_sched_in(task_epc->ctx, pmu,', 'ctx_sched_in(task_epc->ctx,\n\t\t\t     perf_mutant == 14 ? NULL : pmu,'))
            assert new.count('perf_mutant == 14') == 4
        elif n == 15:
            new = ins + anchor
        elif n == 17:
            new = anchor.replace('\t\tcpc->task_epc = NULL;\n',
                                 '\t\tif (perf_mutant != 17)\n\t\t\tcpc->task_epc = NULL;\n')
        elif n == 18:
            new = anchor.replace('\traw_spin_lock_irq(&ctx->lock);\n',
                                 '\tif (perf_mutant == 18)\n'
                                 '\t\tbarrier_data(this_cpu_ptr(&perf_cpu_context));\n'
                                 '\traw_spin_lock_irq(&ctx->lock);\n')
        elif n == 19:
            new = ('\tif (perf_mutant == 19) {\n\t\tfree_epc_rcu(&epc->rcu_head);\n'
                   '\t\treturn;\n\t}\n' + anchor)
        elif n == 20:
            new = ('\tif (perf_mutant == 20) {\n'
                   '\t\tlist_add(&epc->pmu_ctx_entry, &ctx->pmu_ctx_list);\n'
                   '\t\treturn;\n\t}\n' + anchor)
        elif n == 21:
            # the reference dropped on the floor: _free_event() would put it
            new = anchor.replace('\tperf_event_put_pmu_ctx(event);\n',
                                 '\tif (perf_mutant != 21)\n\t\tperf_event_put_pmu_ctx(event);\n'
                                 '\telse\n\t\tevent->pmu_ctx = NULL;\n')
        elif n == 22:
            new = '\tif (perf_mutant != 22)\n\t' + anchor
        elif n == 23:
            new = ('\tif (perf_mutant != 23)\n\t\trcu_read_lock();\n'
                   '\tperf_iterate_ctx(ctx, perf_event_addr_filters_exec, NULL, true);\n'
                   '\tif (perf_mutant != 23)\n\t\trcu_read_unlock();\n')
        elif n == 24:
            # the last reference dropped before the lock is taken again;
            # a released event puts it here too, not at its removal
            new = anchor.replace('\tpmu = __perf_event_put_pmu_ctx(event);\n',
                                 '\tif (perf_mutant == 24) {\n'
                                 '\t\tlist_del_init(&event->pmu_ctx_entry);\n'
                                 '\t\tevent->pmu_ctx = NULL;\n'
                                 '\t\traw_spin_unlock_irqrestore(&ctx->lock, flags);\n'
                                 '\t\tif (!atomic_dec_and_test(&epc->refcount))\n\t\t\treturn;\n'
                                 '\t\tmdelay(2);\n'
                                 '\t\traw_spin_lock_irqsave(&ctx->lock, flags);\n'
                                 '\t\tatomic_set(&epc->refcount, 1);\n'
                                 '\t\tpmu = __put_pmu_ctx(epc);\n'
                                 '\t} else {\n'
                                 '\t\tpmu = __perf_event_put_pmu_ctx(event);\n'
                                 '\t}\n', 1)
            assert s.count(M24_REMOVAL_PUT) == 1, 'mutant 24: the removal\'s put'
            s = s.replace(M24_REMOVAL_PUT, '\tif ((flags & DETACH_DEAD) && ctx->task &&\n'
                          '\t    perf_mutant != 24)\n', 1)
        elif n == 4:
            new = anchor.replace('if (event->attr.pinned) {', 'if (event->attr.pinned && perf_mutant != 4) {')
        elif n == 11:
            anchor = '\tif (!data->group) {\n\t\tpmu->read(event);\n'
            new = '\tif (!data->group) {\n\t\tif (perf_mutant != 11)\n\t\t\tpmu->read(event);\n'
        elif isinstance(ins, (tuple, list)):
            new = anchor
            for old, rep in [ins] if isinstance(ins, tuple) else ins:
                assert new.count(old) == 1, 'mutant %d: insertion anchor' % n
                new = new.replace(old, rep)
        else:
            new = anchor + ins
        assert s.count(anchor) == 1, 'mutant %d: anchor found %d times' % (n, s.count(anchor))
        s = s.replace(anchor, new, 1)
    open(path, 'w').write(s)

