#!/bin/bash
# The mutants' boots (workshop/mutants.py): the suites that the mutants of
# the perf core must trip, besides the KUnit suite that ran at boot.  The
# mutant is the kernel's own parameter perf_mutant=N (0: unbroken), else
# perfctx.mutant=N.  The host greps this output for "not ok" (kselftest),
# the perf stat test's "FAILED" line and "=== STATE tainted".
# shellcheck source=guest/lib.sh
. /guest/lib.sh
n=$(sed -n 's/.*perf_mutant=\([0-9]*\).*/\1/p' "${PERFCTX_CMDLINE_FILE:-/proc/cmdline}")
echo "=== mutant ${n:-${PERFCTX_MUTANT:-}}"
cd /kselftest/perf_events && timeout 300 ./test_pmu 2>&1
n=$(perf test list 2>&1 | grep -F 'perf stat multiplexing on the test PMU' | sed -E 's/^ *([0-9]+):.*/\1/')
[ -n "$n" ] && timeout 300 perf test -v "$n" 2>&1 < /dev/null | cat
state_tainted
