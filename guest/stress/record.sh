# shellcheck shell=bash
# record_loop I: perf record of `true`, over and over; loop 0 in the cgroup
# stressA (cgev's cgroup events see it).
record_loop() {
	local ok=0 bad=0
	[ "$1" = 0 ] && cg_join stressA
	while ! stopping; do
		if perf record -q -o "$S/rec.$1.data" -- true > /dev/null 2>&1; then
			ok=$((ok + 1))
		else
			bad=$((bad + 1))
		fi
		count "record$1" "perf_record_runs=$ok" "perf_record_failed=$bad"
	done
}
