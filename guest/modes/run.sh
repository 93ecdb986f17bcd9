#!/bin/bash
# `make run`: show perf at work in the guest.  No parameters.
set -u
# shellcheck source=guest/lib.sh
. /guest/lib.sh
echo "== PMUs the kernel registered"
ls /sys/bus/event_source/devices/
for p in /sys/bus/event_source/devices/*; do
	[ -f "$p/perf_event_mux_interval_ms" ] &&
		echo "   $(basename "$p"): type $(cat "$p/type"), mux interval $(cat "$p/perf_event_mux_interval_ms") ms"
done
echo
echo "== perf stat, software events, on a small workload"
perf stat -e task-clock,context-switches,cpu-migrations,page-faults -- \
	perf bench sched pipe -l 2000 2>&1
if [ -d /sys/bus/event_source/devices/armv8_pmuv3_0 ] ||
   [ -d /sys/bus/event_source/devices/armv8_pmuv3 ]; then
	echo
	# QEMU's PMU implements few events (CPU_CYCLES, SW_INCR, INST_RETIRED
	# under -icount): ten cycle counters oversubscribe its 7.
	echo "== perf stat, 10 hardware events on a 7-counter PMU: they multiplex"
	echo "   (the last column is the share of time each one ran)"
	perf stat -e cycles,cycles:u,cycles:k,r11,r11:u,r11:k,r0011,r0011:u,r0011:k,cycles:uk \
		-- perf bench sched pipe -l 2000 2>&1
fi
d=/sys/bus/event_source/devices
# A big.LITTLE guest: one arm PMU per cluster, each with its own "cpus".
hetero=()
for p in "$d"/armv8_cortex_*; do
	[ -f "$p/cpus" ] && hetero+=("${p##*/}")
done
if [ ${#hetero[@]} -ge 2 ]; then
	echo
	echo "== two CPU PMUs, one per cluster: the same workload on a CPU of each"
	ev=
	for p in "${hetero[@]}"; do
		echo "   $p: type $(cat "$d/$p/type"), CPUs $(cat "$d/$p/cpus")"
		ev=$ev${ev:+,}$p/cpu_cycles/
	done
	echo "   (each PMU's cycles count only while the task runs on its own CPUs)"
	for p in "${hetero[@]}"; do
		c=$(cut -d- -f1 < "$d/$p/cpus")
		c=${c%%,*}
		echo "-- pinned to CPU $c ($p's)"
		# perf stat pinned too: its child must not start on another CPU
		taskset -c "$c" perf stat -e "$ev" -- perf bench sched pipe -l 2000 2>&1 |
			grep -E 'cpu_cycles|elapsed'
	done
fi
if [ -d $d/test_hw0 ] && [ -d $d/test_hw1 ] && [ -d $d/test_hw3 ]; then
	echo
	echo "== per-PMU contexts: one task, events on three test hardware PMUs"
	echo "   $(cat /sys/kernel/debug/test_perf_pmu/features 2>/dev/null)"
	echo "   (4 counters each; test_hw0: 6 events, rotated every 2 ms;"
	echo "    test_hw1: 8 events, rotated every 20 ms; test_hw3: 2 events,"
	echo "    never oversubscribed.  'starts' counts how often the PMU put"
	echo "    an event on: each PMU rotates on its own timer.  The last"
	echo "    column is the share of time each event ran.)"
	echo 2 > $d/test_hw0/perf_event_mux_interval_ms
	echo 20 > $d/test_hw1/perf_event_mux_interval_ms
	ev=test_hw0/starts/
	for _ in 1 2 3 4 5; do ev=$ev,test_hw0/cycles/; done
	ev=$ev,test_hw1/starts/
	for _ in 1 2 3 4 5 6 7; do ev=$ev,test_hw1/cycles/; done
	ev=$ev,test_hw3/starts/,test_hw3/cycles/
	# shellcheck disable=SC2016	# the loop is the workload's
	taskset -c 0 perf stat -e "$ev" -- \
		sh -c 'i=0; while [ $i -lt 300000 ]; do i=$((i + 1)); done' 2>&1
fi
echo
echo "== perf record / report, sampling"
cd /tmp && perf record -q -F 1000 -g -o /tmp/perf.data -- perf bench sched pipe -l 2000 >/dev/null 2>&1
perf report -i /tmp/perf.data --stdio --sort comm,dso 2>/dev/null | head -20
exit 0
