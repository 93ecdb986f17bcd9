"""Mutants of the test PMU driver (lib/test_perf_pmu.c), guarded by the
same perf_mutant as workshop/mutants.py's, which lists them with its own
(names()); workshop/mutants_apply.py writes them."""

# The test PMU driver's own rules (lib/test_perf_pmu.c, built in): the
# device PMU example's.  An insertion (OLD, NEW) replaces OLD inside the
# anchor, as in workshop/mutants.py.
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
