# shellcheck shell=bash
# counter: system-wide counts of syscalls and perf_event_open, for the
# summary (syscounts.csv).  Its workload waits for the stop flag: perf stat
# itself ignores SIGINT while its workload runs, and a killed perf stat
# writes nothing.
# A CPU going offline between perf reading the online mask and opening
# fails the open (ENODEV, seen on arm64): try again.  Once a CPU has gone
# offline its events stop counting (6.1 does not bring them back), so the
# counts are lower bounds.
counter() {
	while ! stopping; do
		perf stat -a -x, -o "$S/syscounts.csv" \
			-e raw_syscalls:sys_enter \
			-e syscalls:sys_enter_perf_event_open \
			-e syscalls:sys_exit_perf_event_open --filter 'ret >= 0' \
			-- bash -c "while [ ! -e $F/stop ]; do sleep 1; done" && break
		sleep 1
	done
}

# counter_tp EVENT: the count of EVENT, once the counter has ended.
counter_tp() { awk -F, -v ev="$1" '$3 == ev { print $1 }' "$S/syscounts.csv" 2>/dev/null | head -1; }
