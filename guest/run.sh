# `make run`: show perf at work in the guest.
set -u
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
echo
echo "== perf record / report, sampling"
cd /tmp && perf record -q -F 1000 -g -o /tmp/perf.data -- perf bench sched pipe -l 2000 >/dev/null 2>&1
perf report -i /tmp/perf.data --stdio --sort comm,dso 2>/dev/null | head -20
exit 0
