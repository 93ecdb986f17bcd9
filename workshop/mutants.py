"""Break the perf core on purpose, one behaviour at a time, to show that the
suite notices: the table of the breakages (workshop/mutants_apply.py
writes them into a scratch worktree, build/src/wt-mutants, never
build/src/linux).  Each mutant is guarded by the boot parameter
perf_mutant=N, so one kernel serves them all; N=0 is the unbroken kernel.
`make mutants` builds it and boots it once per mutant.  MUTANTS below:
number, what breaks, which tests must notice, the anchor in the series'
kernel/events/core.c (after the context rewrite) and what goes with it;
each anchor must match exactly once."""

MUTANTS = [
    (1, 'no rotation: flexible groups beyond the counters never take turns',
     'multiplex_rotate, mux_fairness, perf stat multiplexing',
     'static bool perf_rotate_context(struct perf_cpu_pmu_context *cpc)\n{\n'
     '\tstruct perf_cpu_context *cpuctx = this_cpu_ptr(&perf_cpu_context);\n'
     '\tstruct perf_event_pmu_context *cpu_epc, *task_epc = NULL;\n'
     '\tstruct perf_event *cpu_event = NULL, *task_event = NULL;\n'
     '\tint cpu_rotate, task_rotate;\n\tstruct pmu *pmu;\n\n',
     '\tif (perf_mutant == 1)\n\t\treturn false;\n\n'),
    (14, 'rotating one PMU takes every PMU\'s flexible groups off and back on (whole contexts, as in 6.1)',
     'mux_interval.independent (not independent_rotation: at equal intervals both del counts double)',
     '\tif (task_event || (task_epc && cpu_event))\n\t\tctx_sched_out(task_epc->ctx, pmu, EVENT_FLEXIBLE);\n'
     '\tif (cpu_event)\n\t\tctx_sched_out(&cpuctx->ctx, pmu, EVENT_FLEXIBLE);\n\n'
     '\tif (task_event)\n\t\trotate_ctx(task_epc->ctx, task_event);\n'
     '\tif (cpu_event)\n\t\trotate_ctx(&cpuctx->ctx, cpu_event);\n\n'
     '\tif (cpu_event)\n\t\tctx_sched_in(&cpuctx->ctx, pmu, EVENT_FLEXIBLE);\n'
     '\tif (task_event || (task_epc && cpu_event))\n\t\tctx_sched_in(task_epc->ctx, pmu, EVENT_FLEXIBLE);\n',
     None),
    (2, 'time_running reported as time_enabled',
     'group_all_or_nothing, sw_in_hw_group, pinned_error, multiplex_rotate, group_oversized',
     '\t__perf_update_times(event, now, &event->total_time_enabled,\n\t\t\t\t\t&event->total_time_running);\n',
     '\tif (perf_mutant == 2)\n\t\tevent->total_time_running = event->total_time_enabled;\n'),
    (3, 'groups not all-or-nothing: members go on one by one',
     'group_all_or_nothing, group_oversized',
     '\tif (group_event->state == PERF_EVENT_STATE_OFF)\n\t\treturn 0;\n\n\tpmu->start_txn(pmu, PERF_PMU_TXN_ADD);\n',
     None),
    (13, 'a group goes on in its leader\'s own PMU\'s transaction, not group_pmu()\'s (its PMU context\'s)',
     'group_sw_leader_hw_sibling, inherit_moved_group (add_no_txn)',
     'group_sched_in(struct perf_event *group_event, struct perf_event_context *ctx)\n{\n'
     '\tstruct perf_event *event, *partial_group = NULL;\n\tstruct pmu *pmu = group_pmu(group_event);\n\n',
     '\tif (perf_mutant == 13)\n\t\tpmu = group_event->pmu;\n\n'),
    (4, 'a pinned group that cannot go on is not put in error state',
     'pinned_error, exclusive',
     '\t\tif (event->attr.pinned) {\n\t\t\tperf_cgroup_event_disable(event, ctx);',
     None),
    (5, 'attr.exclusive ignored', 'exclusive',
     '\t/*\n\t * If an exclusive group of this PMU is already on, no other\n\t * hardware events of this PMU can go on.\n\t */\n',
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
     '\tstruct pmu *pmu = parent_event->pmu_ctx->pmu;\n\tstruct perf_event_pmu_context *pmu_ctx;\n'
     '\tstruct perf_event *child_event;\n\tunsigned long flags;\n\n',
     '\tif (perf_mutant == 12)\n\t\treturn NULL;\n\n'),
    (15, 'inherit: a child event goes into the PMU context of its own PMU, not its parent\'s (moved groups split)',
     'inherit_moved_group (add_no_txn)',
     '\tpmu_ctx = find_get_pmu_context(pmu, child_ctx, child_event);\n',
     '\tif (perf_mutant == 15)\n\t\tpmu = child_event->pmu;\n'),
    (8, 'remove_on_exec ignored', 'exec_remove.*',
     'static void perf_event_remove_on_exec(struct perf_event_context *ctx)\n{\n'
     '\tstruct perf_event_context *clone_ctx = NULL;\n\tstruct perf_event *event, *next;\n'
     '\tunsigned long flags;\n\tbool modified = false;\n\n',
     '\tif (perf_mutant == 8)\n\t\treturn;\n'),
    (16, 'inherit: an orphaned parent event (closing) fails the fork, NULL taken for an error (design note 3.7)',
     'inherit_orphan',
     '\tleader = inherit_event(parent_event, parent, parent_ctx,\n\t\t\t\t child, NULL, child_ctx);\n',
     '\tif (perf_mutant == 16 && !leader)\n\t\treturn -ENOMEM;\n'),
    (17, 'the CPU keeps pointing at a task PMU context after the task context went inactive (design note 3.2)',
     'task_epc_cleared (and a use after free under KASAN)',
     '\t\t/* The task context went inactive: this CPU lets go of it. */\n'
     '\t\tWARN_ON_ONCE(cpc->task_epc && cpc->task_epc != pmu_ctx);\n\t\tcpc->task_epc = NULL;\n',
     None),
    (18, 'per-CPU access with preemption on in event_function_call() for a task that is not running (design note 3.8)',
     'a DEBUG_PREEMPT splat from any enable/disable/period of a sleeping task\'s event',
     '\tif (!task_function_call(task, event_function, &efs))\n\t\treturn;\n\n\traw_spin_lock_irq(&ctx->lock);\n',
     None),
    (19, 'a task PMU context is freed at once, not after a grace period (design note 3.2)',
     'task_epc_rcu_free (a use after free that KASAN reports)',
     '\tcall_rcu(&epc->rcu_head, free_epc_rcu);\n',
     None),
    (20, 'PMU contexts linked in the order they come, not by PMU type (invariant 3)',
     'pmu_ctx_lifetime (the order), clone_swap_task_data (a child\'s list no longer pairs with its parent\'s: no swap)',
     '\tlist_add_tail(&epc->pmu_ctx_entry, &pos->pmu_ctx_entry);\n',
     None),
    (21, 'the kernel-counter error path keeps its PMU context reference (invariant 2c)',
     'pmu_ctx_lifetime (an open on an offline CPU: the CPU\'s PMU context must end at refcount 0, unlinked)',
     '\t/* The PMU context goes before the context. */\n\tperf_event_put_pmu_ctx(event);\nerr_unlock:\n',
     None),
    (22, 'a cgroup event\'s disable leaves its PMU context\'s cgroup count up (invariant 6)',
     'cgroup_events (a splat: the WARN on nr_cgroups in put_pmu_ctx())',
     '\tevent->pmu_ctx->nr_cgroups--;\n',
     None),
    (23, 'perf_event_exec() walks the event list without the RCU read lock (invariant 4)',
     'exec_remove.* (a PROVE_RCU_LIST splat: suspicious RCU usage)',
     '\trcu_read_lock();\n\tperf_iterate_ctx(ctx, perf_event_addr_filters_exec, NULL, true);\n\trcu_read_unlock();\n',
     None),
    (24, 'the last PMU context reference is dropped, and the context decided dead, outside ctx->lock (invariant 2a; the window widened to 2 ms)',
     'openclose_storm (a splat: an open finds the dying PMU context still listed and takes it; KASAN use after free or a put_pmu_ctx() WARN)',
     '\t/* Not the last reference: no need for the lock. */\n\tif (atomic_add_unless(&epc->refcount, -1, 1))\n\t\treturn;\n',
     None),
    (25, 'the one-PMU clone swap moves the task data without the PMU\'s sched_task(false) first (invariant 3, the fast path)',
     'clone_swap_one_pmu (fewer sched_task(false) than swaps)',
     '\t\t\tif (__this_cpu_read(perf_sched_cb_usages))\n\t\t\t\tperf_pmu_ctx_sched_task_cb(epc, false);\n',
     None),
    (26, 'the one-PMU clone swap leaves the PMU disabled (one disable too many per swap)',
     'clone_swap_one_pmu (pmu_disable_count not back to 0)',
     '\t\t\tperf_pmu_ctx_swap_data(epc, next_epc);\n',
     '\t\t\tif (perf_mutant == 26)\n\t\t\t\t__perf_pmu_disable(epc->pmu);\n'),
    # Which PMU takes an event (perf_init_event(), the legacy-type table);
    # an insertion (OLD, NEW), or a list of them, replaces OLD by NEW
    # inside the anchor.
    (27, 'software events all go to the software PMU, not the clocks by config',
     'route_types',
     'static struct pmu *perf_sw_pmu_of(u64 config)\n{\n',
     '\tif (perf_mutant == 27)\n\t\treturn &perf_swevent;\n'),
    (28, 'a PMU without PERF_PMU_CAP_EXTENDED_HW_TYPE named in config[63:32] takes the event',
     'route_legacy',
     '\t\tif (event->attr.type != type && type != PERF_TYPE_RAW &&\n'
     '\t\t    !(pmu->capabilities & PERF_PMU_CAP_EXTENDED_HW_TYPE))\n',
     ('\t\tif (event->attr.type', '\t\tif (perf_mutant != 28 && event->attr.type')),
    (29, 'a type no PMU owns is offered to the legacy PMUs (as 6.1\'s walk offered it to all)',
     'route_legacy (a HARDWARE event naming a type no PMU has)',
     '\tif (extended_type || (type != PERF_TYPE_RAW &&\n'
     '\t\t\t      type != PERF_TYPE_HARDWARE && type != PERF_TYPE_HW_CACHE))\n',
     [('\tif (extended_type ||', '\tif (perf_mutant != 29 && (extended_type ||'),
      ('HW_CACHE))\n', 'HW_CACHE)))\n')]),
    (30, 'a legacy event bound to a CPU goes to CPU 0\'s legacy PMU',
     'route_legacy, route_hotplug',
     '\t\t\tpmu = READ_ONCE(per_cpu(perf_legacy_cpu_pmu, event->cpu));\n',
     ('event->cpu));', 'perf_mutant == 30 ? 0 : event->cpu));')),
    (31, 'a legacy task event skips the first legacy PMU',
     'route_legacy',
     '\tlist_for_each_entry_rcu(pmu, &perf_legacy_pmus, legacy_entry,\n'
     '\t\t\t\tlockdep_is_held(&pmus_srcu)) {\n',
     '\t\tif (perf_mutant == 31 &&\n\t\t    pmu == list_first_entry(&perf_legacy_pmus, struct pmu, legacy_entry))\n'
     '\t\t\tcontinue;\n'),
    (32, 'the legacy table is not updated when a legacy PMU registers',
     'route_legacy',
     '\t\tlist_add_tail_rcu(&pmu->legacy_entry, &perf_legacy_pmus);\n\t\tperf_legacy_update();\n',
     ('\t\tperf_legacy_update();', '\t\tif (perf_mutant != 32)\n\t\t\tperf_legacy_update();')),
    (33, 'the legacy table is not updated when a legacy PMU unregisters',
     'route_legacy',
     '\t\tlist_del_rcu(&pmu->legacy_entry);\n\t\tperf_legacy_update();\n',
     ('\t\tperf_legacy_update();', '\t\tif (perf_mutant != 33)\n\t\t\tperf_legacy_update();')),
    (34, 'the legacy table is not updated when a CPU comes online',
     'route_hotplug',
     '\tperf_legacy_cpu_update(cpu);\n\tperf_scope_init_cpu(cpu);\n',
     ('\tperf_legacy_cpu_update(cpu);', '\tif (perf_mutant != 34)\n\t\tperf_legacy_cpu_update(cpu);')),
    (35, 'the legacy table takes the last legacy PMU covering a CPU, not the first',
     'route_hotplug',
     '\t\tif (perf_pmu_covers(pmu, cpu)) {\n\t\t\tfound = pmu;\n\t\t\tbreak;\n',
     ('\t\t\tbreak;', '\t\t\tif (perf_mutant != 35)\n\t\t\t\tbreak;')),
    # PMU registration and the mux interval (issue 22's smaller findings)
    (36, 'perf_pmu_register()\'s error path deletes the device of a PMU that has none',
     'register_error (an oops in device_del() for the unnamed PMU)',
     '\t/* An unnamed PMU, or one registered before the bus, has no device. */\n\tif (pmu->dev) {\n',
     ('\tif (pmu->dev) {', '\tif (pmu->dev || perf_mutant == 36) {')),
    (37, 'perf_pmu_unregister() takes "has a device" from the bus, not from the PMU',
     'register_error (an oops in device_del() for the unnamed PMU)',
     '\thas_dev = !!pmu->dev;\n',
     ('!!pmu->dev;', 'perf_mutant == 37 ? pmu_bus_running : !!pmu->dev;')),
    (38, 'perf_event_mux_interval_ms set on the online CPUs only (6.1)',
     'mux_interval_offline',
     '\t\tcpc = per_cpu_ptr(pmu->cpu_pmu_context, cpu);\n'
     '\t\tcpc->hrtimer_interval = ns_to_ktime(NSEC_PER_MSEC * timer);\n',
     ('\t\tcpc = per_cpu_ptr', '\t\tif (perf_mutant == 38 && !cpu_online(cpu))\n\t\t\tcontinue;\n\t\tcpc = per_cpu_ptr')),
    # PMU scopes: the core's designated CPUs (issue 22)
    (39, 'an event of a PMU with a scope stays on the CPU asked for',
     'scope (ev->cpu), hotplug_device',
     '\t\tret = perf_scope_cpu(pmu->scope, event->cpu);\n\t\tif (ret < 0)\n\t\t\treturn ret;\n\t\tevent->cpu = ret;\n',
     ('\t\tevent->cpu = ret;', '\t\tif (perf_mutant != 39)\n\t\t\tevent->cpu = ret;')),
    (40, 'every CPU that comes online is a designated CPU',
     'scope (one designated CPU per package), hotplug_device (the CPU back online takes over)',
     '\t\tif (!cpumask_empty(designated) &&\n',
     ('\t\tif (!cpumask_empty(designated) &&', '\t\tif (perf_mutant != 40 && !cpumask_empty(designated) &&')),
    (41, 'a designated CPU that goes offline hands nothing over',
     'hotplug_device (the event stays on the offline CPU)',
     '\t\tif (t < nr_cpu_ids) {\n\t\t\tcpumask_set_cpu(t, &perf_scope_cpus[scope]);\n',
     ('\t\tif (t < nr_cpu_ids) {', '\t\tif (t < nr_cpu_ids && perf_mutant != 41) {')),
    (44, 'an event goes on a CPU that is no longer the designated one (the install does not check)',
     'hotplug_device (the CPU back online takes the event)',
     '\treturn event->pmu->scope == PERF_PMU_SCOPE_NONE ||\n',
     ('\treturn event->pmu->scope', '\treturn perf_mutant == 44 || event->pmu->scope')),
    # perf_pmu_unregister() with events open: the revoke (issue 22)
    (45, 'a revoked event keeps what the driver gave it: no destroy() at unregister',
     'unregister_live, unregister_offline, unregister_inherit (the driver still counts events)',
     '\tif (event->destroy) {\n\t\tevent->destroy(event);\n\t\tevent->destroy = NULL;\n',
     ('\tif (event->destroy) {', '\tif (event->destroy && perf_mutant != 45) {')),
    (46, 'ioctl() on a revoked event is not refused',
     'kselftest unbind_live (ENODEV)',
     '\tif (event->attach_state & PERF_ATTACH_REVOKED)\n\t\treturn -ENODEV;\n\n\tswitch (cmd) {\n',
     ('\tif (event->attach_state', '\tif (perf_mutant != 46 && event->attach_state')),
    (47, 'the release of a revoked event goes the way of a live one (its PMU context is gone)',
     'unregister_live and kselftest unbind_live (the close oopses)',
     '\tif (event->attach_state & PERF_ATTACH_REVOKED)\n\t\tperf_event_release_revoked(event);\n',
     ('\tif (event->attach_state', '\tif (perf_mutant != 47 && event->attach_state')),
    (48, 'a new sibling of a revoked group is not refused',
     'kselftest unbind_live (ENODEV; without it the open oopses)',
     '\t\terr = -ENODEV;\n\t\tif (group_leader->attach_state & PERF_ATTACH_REVOKED)\n',
     ('\t\tif (group_leader', '\t\tif (perf_mutant != 48 && group_leader')),
    (49, 'output may go to a revoked event\'s ring',
     'kselftest unbind_live (ENODEV)',
     '\tif (output_event->attach_state & PERF_ATTACH_REVOKED) {\n',
     ('\tif (output_event', '\tif (perf_mutant != 49 && output_event')),
    # The test gaps of issue 24, item 4
    (50, 'a group read goes in the leader\'s own PMU\'s READ transaction, not group_pmu()\'s',
     'kselftest group_sw_leader_hw_sibling (read_txn)',
     '\tpmu = group_pmu(event);\n\tpmu->start_txn(pmu, PERF_PMU_TXN_READ);\n',
     ('\tpmu->start_txn(', '\tif (perf_mutant == 50)\n\t\tpmu = event->pmu;\n\tpmu->start_txn(')),
    (51, 'CPU migration picks the events of a PMU by their own PMU (6.1), not their PMU context\'s: a software member of a device group stays behind',
     'hotplug_device (the software sibling\'s context and PMU context)',
     '\t\tif (event->pmu_ctx->pmu != pmu)\n\t\t\tcontinue;\n\n\t\tperf_remove_from_context(event, 0);\n',
     ('\t\tif (event->pmu_ctx->pmu != pmu)', '\t\tif ((perf_mutant == 51 ? event->pmu : event->pmu_ctx->pmu) != pmu)')),
    (52, 'remove_on_exec removes group leaders only: a sibling stays in the exec\'d image',
     'kselftest inherit_mixed_group_exec_remove',
     '\t\tif (!event->attr.remove_on_exec)\n\t\t\tcontinue;\n',
     ('\t\tif (!event->attr.remove_on_exec)', '\t\tif (!event->attr.remove_on_exec ||\n\t\t    (perf_mutant == 52 && event->group_leader != event))')),
    (53, 'the PMU filter asked for a group\'s leader only: a hybrid PMU\'s event in a software-led group goes on any CPU',
     'kselftest hybrid_pair_filter (add() outside the mask)',
     '\tlocal_irq_save(flags);\n\tfor_each_sibling_event(sibling, event) {\n\t\tif (!__pmu_filter_match(sibling)) {\n',
     ('\t\tif (!__pmu_filter_match(sibling)) {', '\t\tif (perf_mutant != 53 && !__pmu_filter_match(sibling)) {')),
    (54, 'a disable takes a cgroup event\'s count down twice',
     'kselftest cgroup_disable_counted_once (the other event of the cgroup counts all the time or never)',
     '\tevent_sched_out(event, ctx);\n\tif (event->state > PERF_EVENT_STATE_OFF)\n\t\tperf_cgroup_event_disable(event, ctx);\n',
     ('\t\tperf_cgroup_event_disable(event, ctx);', '\t\tperf_cgroup_event_disable(event, ctx);\n'
      '\tif (perf_mutant == 54 && event->state > PERF_EVENT_STATE_OFF)\n\t\tperf_cgroup_event_disable(event, ctx);')),
    (55, 'the syscall\'s error path after the PMU context keeps a reference to it (leaked)',
     'kselftest open_error_after_pmu_ctx (the PMU held after the failed opens)',
     'err_locked:\n\t/*\n\t * The PMU context goes before the context; and now, not with the\n'
     '\t * event, whose release may be deferred by fput().\n\t */\n\tperf_event_put_pmu_ctx(event);\n',
     ('\tperf_event_put_pmu_ctx(event);', '\tif (perf_mutant == 55 && event->pmu_ctx)\n'
      '\t\tatomic_inc(&event->pmu_ctx->refcount);\n\tperf_event_put_pmu_ctx(event);')),
    (9, 'perf_pmu_migrate_context() does nothing', 'hotplug_device',
     'void perf_pmu_migrate_context(struct pmu *pmu, int src_cpu, int dst_cpu)\n{\n\tstruct perf_event_context *src_ctx;\n\tstruct perf_event_context *dst_ctx;\n\tstruct perf_event *event, *tmp;\n\tLIST_HEAD(events);\n\n',
     '\tif (perf_mutant == 9)\n\t\treturn;\n'),
    (10, 'perf_event_disable() does nothing', 'enable_disable_read',
     'void perf_event_disable(struct perf_event *event)\n{\n\tstruct perf_event_context *ctx;\n\n',
     '\tif (perf_mutant == 10)\n\t\treturn;\n\n'),
    (11, 'a read of an active event does not ask the PMU',
     'enable_disable_read, times_signature',
     None, None),
]

# The test PMU driver's own rules (lib/test_perf_pmu.c, built in): the
# device PMU example's.  An insertion (OLD, NEW) replaces OLD inside the
# anchor, as above.
DRIVER = 'lib/test_perf_pmu.c'
DRIVER_MUTANTS = [
    (42, 'a device context\'s load ignored: a context event counts the whole device',
     'dev_ctx (twice the device, none when idle)',
     '\tstruct tdev_ctx *ctx = event->pmu_private;\n\n\treturn ctx ? READ_ONCE(ctx->load) : 1;\n',
     ('return ctx ?', 'return ctx && perf_mutant != 42 ?')),
    (43, 'a context event whose config1 is no open descriptor counts the whole device',
     'dev_ctx (EBADF)',
     '\tif (!f.file)\n\t\treturn ERR_PTR(-EBADF);\n',
     ('return ERR_PTR(-EBADF);', 'return perf_mutant == 43 ? NULL : ERR_PTR(-EBADF);')),
]


def names():
    """{number: what it breaks}, 0 the unbroken kernel."""
    return dict([(0, 'unbroken')] + [(m[0], m[1]) for m in MUTANTS + DRIVER_MUTANTS])
