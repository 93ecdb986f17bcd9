#!/usr/bin/env bash
# Self-test of the judging in scripts/results.py: on made-up logs, each thing
# that must fail a run fails it, and what must not, does not.  Runs first in
# `make check` (it takes a second).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
fails=0
ktap='[    1.000000] KTAP version 1
[    1.000001] 1..1
[    1.000002]     KTAP version 1
[    1.000003]     # Subtest: demo
[    1.000004]     1..1
[    1.000005]     ok 1 demo_case
[    1.000006] ok 1 demo'
benign='[    0.100000] KernelAddressSanitizer initialized (generic)
[    0.200000] RCU lockdep checking is enabled.'
perf_ok='=== BEGIN perftest 5 Demo test
  5: Demo test                                          :
--- start ---
---- end ----
Demo test: Ok

=== END perftest 5 rc=0'

ks_ok='=== BEGIN kselftest perf_events/ok
1..1
ok 1 ok.a
=== END kselftest perf_events/ok rc=0'
state='=== STATE tainted=0
=== STATE debug_locks=1'

# case NAME WANT(0 pass|1 fail) CONSOLE GUEST [EXPECT] [STATE]
# GUEST gets a passing kselftest section and the end-of-run state appended.
case_() {
	local name=$1 want=$2
	mkdir -p "$t/$name"
	printf '%s\n' "$3" > "$t/$name/console.log"
	printf '%s\n%s\n%s\nGUEST-EXIT: 0\n' "$4" "$ks_ok" "${6-$state}" > "$t/$name/guest.log"
	printf '%s\n' "${5:-}" > "$t/$name/expect.txt"
	python3 "$top/scripts/results.py" demo "$t/$name" "$t/$name/expect.txt" \
		--src "${SRC:-$top/build/linux}" > "$t/$name/out.txt" 2>&1
	local rc=$?
	if [ $rc != "$want" ]; then
		echo "FAIL  harness: $name (results.py exit $rc, want $want)"
		sed 's/^/      /' "$t/$name/out.txt"
		fails=$((fails + 1))
	else
		echo "PASS  harness: $name"
	fi
}

case_ clean 0 "$benign
$ktap" "$perf_ok"
case_ warning 1 "$ktap
[    2.000000] ------------[ cut here ]------------
[    2.000001] WARNING: CPU: 1 PID: 42 at kernel/events/core.c:1234 demo+0x10/0x20
[    2.000002] Call Trace:
[    2.000003]  <TASK>
[    2.000004] ---[ end trace 0000000000000000 ]---" "$perf_ok"
case_ kasan 1 "$ktap
[    2.0] ==================================================================
[    2.1] BUG: KASAN: slab-use-after-free in perf_event_ctx_lock+0x1/0x2" "$perf_ok"
case_ lockdep 1 "$ktap
[    2.0] WARNING: possible circular locking dependency detected" "$perf_ok"
case_ rcu-stall 1 "$ktap
[    9.0] rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:" "$perf_ok"
case_ hung-task 1 "$ktap
[    9.0] INFO: task perf:123 blocked for more than 240 seconds." "$perf_ok"
case_ oops 1 "$ktap
[    9.0] Unable to handle kernel NULL pointer dereference at virtual address 0" "$perf_ok"
case_ kmemleak 1 "$ktap
[    9.0] unreferenced object 0xffff888100000000 (size 64):" "$perf_ok"
case_ kunit-fail 1 "${ktap/ok 1 demo_case/not ok 1 demo_case}" "$perf_ok"
case_ kunit-missing 1 "$benign" "$perf_ok"
case_ perftest-fail 1 "$ktap" "${perf_ok/Demo test: Ok/Demo test: FAILED!}"
case_ perftest-colour-fail 1 "$ktap" "${perf_ok/Demo test: Ok/Demo test:$'\e'[31m FAILED!
$'\e'[m}"
case_ perftest-unlisted-skip 1 "$ktap" "${perf_ok/Demo test: Ok/Demo test: Skip (no PMU)}"
case_ perftest-listed-skip 0 "$ktap" "${perf_ok/Demo test: Ok/Demo test: Skip (no PMU)}" \
	'perftest:Demo test | skip | no PMU here'
case_ perftest-listed-but-passes 1 "$ktap" "$perf_ok" 'perftest:Demo test | skip | no PMU here'
case_ perftest-no-result 1 "$ktap" '=== BEGIN perftest 5 Demo test
=== END perftest 5 rc=0'
case_ perftest-unfinished 1 "$ktap" '=== BEGIN perftest 5 Demo test
  5: Demo test :'
case_ kselftest-fail 1 "$ktap" '=== BEGIN kselftest perf_events/demo
ok 1 demo.a
not ok 2 demo.b
=== END kselftest perf_events/demo rc=1'
case_ kselftest-skip-unlisted 1 "$ktap" '=== BEGIN kselftest perf_events/demo
ok 1 demo.a # SKIP no hardware
=== END kselftest perf_events/demo rc=0'
# 6.1's harness: "ok N # SKIP reason", the name only on the RUN line.
ks61skip='=== BEGIN kselftest perf_events/demo
#  RUN           global.target ...
#      SKIP      needs the rewrite
#            OK  global.target
ok 1 # SKIP needs the rewrite
=== END kselftest perf_events/demo rc=0'
case_ kselftest-61-skip-unlisted 1 "$ktap" "$perf_ok
$ks61skip"
case_ kselftest-61-skip-listed 0 "$ktap" "$perf_ok
$ks61skip" \
	'kselftest:perf_events/demo:global.target | skip | demo'
# A test listed as "timeout": its harness's timeout is allowed, nothing else.
kstmo='=== BEGIN kselftest perf_events/demo
#  RUN           demo.slow ...
# slow: Test terminated by timeout
#          FAIL  demo.slow
not ok 1 demo.slow
=== END kselftest perf_events/demo rc=1'
kstmo_list='kselftest:perf_events/demo:demo.slow | timeout | slow host'
case_ kselftest-timeout-listed 0 "$ktap" "$perf_ok
$kstmo" "$kstmo_list"
case_ kselftest-timeout-unlisted 1 "$ktap" "$perf_ok
$kstmo"
case_ kselftest-timeout-listed-passes 0 "$ktap" "$perf_ok
=== BEGIN kselftest perf_events/demo
#  RUN           demo.slow ...
#            OK  demo.slow
ok 1 demo.slow
=== END kselftest perf_events/demo rc=0" "$kstmo_list"
case_ kselftest-timeout-listed-other-failure 1 "$ktap" "$perf_ok
=== BEGIN kselftest perf_events/demo
#  RUN           demo.slow ...
# demo.c:10:slow:Expected 1 (1) == 2 (2)
#          FAIL  demo.slow
not ok 1 demo.slow
=== END kselftest perf_events/demo rc=1" "$kstmo_list"
case_ rcu-expedited-stall 1 "$ktap
[    9.0] rcu: INFO: rcu_preempt detected expedited stalls on CPUs/tasks: { 1-... }" "$perf_ok"
case_ lockdep-non-static-key 1 "$ktap
[    9.0] INFO: trying to register non-static key." "$perf_ok"
case_ tainted-warning 1 "$ktap" "$perf_ok" '' '=== STATE tainted=512
=== STATE debug_locks=1'
case_ lockdep-off 1 "$ktap" "$perf_ok" '' '=== STATE tainted=0
=== STATE debug_locks=0'
case_ no-state 1 "$ktap" "$perf_ok" '' ''
case_ kselftest-crashed-midway 1 "$ktap" "$perf_ok
=== BEGIN kselftest perf_events/demo
1..5
ok 1 demo.a
=== END kselftest perf_events/demo rc=139"
case_ perftest-exit-status 1 "$ktap" "${perf_ok/rc=0/rc=255}"
case_ perftest-core-missing 1 "$ktap" "$perf_ok
=== MISSING perftest Renamed test"
case_ perftest-core-missing-listed 0 "$ktap" "$perf_ok
=== MISSING perftest Renamed test" 'perftest:Renamed test | skip | not in this arch'\''s perf'
case_ no-perftest 1 "$ktap" ""
mkdir -p "$t/died" && printf '%s\n' "$ktap" > "$t/died/console.log" && : > "$t/died/guest.log" && : > "$t/died/e.txt"
if python3 "$top/scripts/results.py" demo "$t/died" "$t/died/e.txt" --src "${SRC:-$top/build/linux}" >/dev/null 2>&1; then
	echo "FAIL  harness: guest-died (passed)"; fails=$((fails + 1))
else
	echo "PASS  harness: guest-died"
fi
exit $((fails > 0))
