#!/bin/bash
# Run in the guest of tests/mutants/run.sh: the suites that the mutants must
# trip, besides the KUnit suite that ran at boot.
export PERF_PAGER=cat PAGER=cat
echo "=== mutant $(sed -n 's/.*perf_mutant=\([0-9]*\).*/\1/p' /proc/cmdline)"
cd /kselftest/perf_events && timeout 300 ./test_pmu 2>&1
n=$(perf test list 2>&1 | grep -F 'perf stat multiplexing on the test PMU' | sed -E 's/^ *([0-9]+):.*/\1/')
[ -n "$n" ] && timeout 300 perf test -v "$n" 2>&1 < /dev/null | cat
echo "=== STATE tainted=$(cat /proc/sys/kernel/tainted)"
