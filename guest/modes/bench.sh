#!/bin/bash
# `make bench` inside the guest: the scenarios of perfbench
# (guest/src/perfbench.c), each repeated, on one CPU under -icount (guest
# nanoseconds are guest instructions).  Every measurement is one line
#   bench SCENARIO PARAMS rep=I ... ns_per_op=X ops=N
# (or "skip ..." / "error ..."), between the markers
#   === BEGIN bench ... === END bench rc=N
# that the host's bench judge reads.  The same script runs on both sides.
#
# Kernel command line: perfctx.bench=full|quick (quick: the smoke run,
# fewer loops and repeats), perfctx.benchfilter=REGEX (scenario names; a
# '+' in it reads as a space, as in every perfctx value), perfctx.hz=N (the
# kernel's CONFIG_HZ, 250), perfctx.benchset=exist: only the pipe
# scenarios whose PMUs exist when the test PMU driver registers test_hw0
# alone (the host boots B so a second time: the cost of the PMUs that
# exist but have no events); perfctx.benchset=lookup: the boots with
# test_perf_pmu.nr_extra PMUs that take no event: the lookup runs, and the
# context switch with test_hw0's events (its key says extra=N);
# perfctx.benchset=hybrid: the hybrid-style pair's runs (test_hw2 on no
# CPU of the guest);
# perfctx.benchset=mainline: every run that needs no test PMU (mainline
# 6.12, which has none).
set -u
# shellcheck source=guest/lib.sh
. /guest/lib.sh
mode=${PERFCTX_BENCH:-full}
filter=${PERFCTX_BENCHFILTER:-}
hz=${PERFCTX_HZ:-250}
benchset=${PERFCTX_BENCHSET:-all}
# loops scale: quick runs a tenth of the loops, twice
if [ "$mode" = quick ]; then
	rep=2 div=10
else
	rep=5 div=1
fi
E=/sys/bus/event_source/devices
echo "bench: $(uname -r), $(nproc) CPU(s), mode $mode, set $benchset${filter:+, filter $filter}"
echo "=== STATE kernel=$(uname -r)"
echo "=== STATE cmdline=$GUEST_CMDLINE"
# shellcheck disable=SC2012	# PMU names are plain words
echo "pmus: $(ls $E | tr '\n' ' ')"
for p in test_hw0 test_dev; do
	[ -d $E/$p ] && echo "$p: type $(cat $E/$p/type), mux $(cat $E/$p/perf_event_mux_interval_ms) ms"
done
guest_paranoid
guest_cgroup2 /sys/fs/cgroup
# The NMI watchdog and its perf event are not in these kernels; the tick
# and the test_dev snapshot timer are the only periodic work.

# The CPU PMU of arm64, for the hardware scenarios there.
cpupmu=
for p in armv8_pmuv3_0 armv8_pmuv3; do
	[ -d $E/$p ] && { cpupmu=$p:0x11; break; }	# CPU_CYCLES
done

rc=0
# run NAME ARGS...: perfbench NAME ARGS..., unless the filter leaves it out.
# 120 guest seconds at most (the longest run takes about 10).  Then 2 s of
# idle, which -icount sleep=off skips at no cost: 6.1 turns
# perf_sched_events off a second after the last task event closes, and
# that must not happen inside the next run.
tpmu_re='(^| )(--pmus? [^ ]*test_|--dev [1-9])'
run() {
	local name=$1
	shift
	if [ -n "$filter" ] && ! [[ $name =~ $filter ]]; then
		return 0
	fi
	if [ "$benchset" = mainline ] && [[ " $* " =~ $tpmu_re ]]; then
		return 0
	fi
	timeout 120 perfbench "$name" --repeat "$rep" "$@" || {
		echo "error $name $* what=perfbench_exit_$?"
		rc=1
	}
	sleep 2
}

# lookup: perf_event_open + close of the legacy types (and of a type no
# PMU owns) on arm64, where no CPU PMU owns PERF_TYPE_RAW: with the PMUs
# of test_perf_pmu.nr_extra registered before the CPU PMUs, a walk of the
# PMU list meets them first.
lookup() {
	[ -n "$cpupmu" ] || return 0
	for p in raw hw nopmu; do
		run lookup --pmus $p --loops $((20000 / div))
	done
}

echo "=== BEGIN bench"
pl=$((4000 / div))
case $benchset in
all|mainline) ;;
lookup)
	for m in self inherit; do
		run pipe --mode $m --pmus test_hw0 --loops $pl
	done
	lookup
	echo "=== END bench rc=$rc"
	exit $rc ;;
hybrid)
	# A hybrid-style pair on a 1-CPU guest: test_hw2 covers no CPU of it
	# (test_pmu bench-hybrid), so each switch finds its events unable to
	# run; one group on each PMU, then four (filters=: the filter() calls
	# a round trip made).
	h4=test_hw1,test_hw1,test_hw1,test_hw1,test_hw2,test_hw2,test_hw2,test_hw2
	for m in self inherit; do
		for pmus in test_hw1,test_hw2 $h4; do
			run pipe --mode $m --pmus "$pmus" --loops $pl
		done
	done
	echo "=== END bench rc=$rc"
	exit $rc ;;
exist)
	# The same runs as below, on the PMUs that exist in both boots.
	for m in self inherit; do
		for pmus in none sw test_hw0; do
			run pipe --mode $m --pmus "$pmus" --loops $pl
		done
		[ -n "$cpupmu" ] && run pipe --mode $m --pmus "$cpupmu" --loops $pl
	done
	echo "=== END bench rc=$rc"
	exit $rc ;;
*)
	echo "error benchset what=unknown_set_$benchset"
	echo "=== END bench rc=1"
	exit 1 ;;
esac
# (1) context switch cost, events of 0 to N PMUs on each task; (2) the
# same with inherited events (clone contexts: the swap fast path).  Two
# chains, one PMU more each step (the report plots them): the software
# PMUs (sw, tp, task-clock, cpu-clock: each a PMU of its own, which
# mainline has too) and the test PMUs the boot registered (test_hw0,
# then test_hw0,test_hw1, ...).  stat: perf stat's default set
# (perfbench's STAT_SW: the task clock and three software events), and
# stat-hw with its hardware events where a CPU PMU exists.
swchain="sw sw,tp sw,tp,task-clock sw,tp,task-clock,cpu-clock"
# the test chain: as many test PMUs as the boot registered (test_pmu bench)
hwchain=
h=
i=0
while [ -d $E/test_hw$i ]; do
	h=${h:+$h,}test_hw$i
	hwchain="$hwchain $h"
	i=$((i + 1))
done
for m in self inherit; do
	for pmus in none $swchain stat sw,test_hw0 sw,test_hw0,tp,test_hw1 $hwchain; do
		run pipe --mode $m --pmus "$pmus" --loops $pl
	done
	[ -n "$cpupmu" ] && run pipe --mode $m --pmus stat-hw --loops $pl
	[ -n "$cpupmu" ] && run pipe --mode $m --pmus "$cpupmu" --loops $pl
	[ -n "$cpupmu" ] && run pipe --mode $m --pmus "$cpupmu,test_hw0" --loops $pl
done
# (3) cgroup switch with N device events active on the CPU
for n in 0 10 100; do
	run cgroup --dev $n --loops $pl
done
# (4) open + enable + close of one task event with N device events active:
# a software one, which shares its PMU context with the software event
# perfbench keeps open, and a test_hw0 one, the first and only of its PMU
# on the task (on B a PMU context is made and freed each time).
for p in sw test_hw0; do
	for n in 0 10 100; do
		run open --dev $n --pmus $p --loops $((20000 / div))
	done
done
# (5) multiplexing: test_hw0 oversubscribed 4x, with and without events of
# other PMUs; the tick with and without frequency-mode events
for o in none test_hw1 test_hw1,test_hw2; do
	run rotate --pmu test_hw0 --events 16 --others $o --work $((264000000 / div))
done
# The tick's own time (perfbench's tick_spin()): with 12 counting events
# on three PMUs (no multiplexing: 4 counters each), with them and one
# frequency-mode event of the software PMU, and with that event alone (what
# the PMUs without frequency events add to a tick is the difference).
tl=sw,sw,sw,sw,test_hw0,test_hw0,test_hw0,test_hw0,test_hw1,test_hw1,test_hw1,test_hw1
for t in count freq; do
	run tick --mode $t --pmus $tl --hz "$hz" --work $((330000000 / div))
done
run tick --mode freq --pmus none --hz "$hz" --work $((330000000 / div))
# (6) perf_event_open + close of one event
for p in sw test_hw0 ${cpupmu:+"$cpupmu"}; do
	run openclose --pmus "$p" --loops $((20000 / div))
done
# (7) the PMU lookup, with no extra PMUs (the A-x50... boots: with them)
lookup
echo "=== END bench rc=$rc"
exit $rc
