# shellcheck shell=bash
# storm openclose|inherit: perfstorm (guest/src/perfstorm.c) in 60 s chunks;
# each chunk picks its flags by phase: --hw (test_hw task events) only in
# phase 2, with the module loaded.  openclose runs in the cgroup stressB.
# errpath: opens sent through the syscall's error path after their PMU
# context was taken (perfstorm.c), under kmemleak.
storm() {
	local k=0 hw opened=0 failed=0 loops=0 bad=0 torn=0 errpath=0 line
	local re='opened=([0-9]+) failed=([0-9]+) loops=([0-9]+) bad=([0-9]+) torn=([0-9]+)( errpath=([0-9]+))?'
	[ "$1" = openclose ] && cg_join stressB
	while ! stopping; do
		k=$((k + 1))
		hw=
		phase2 && loaded && hw=--hw
		perfstorm "$1" 60 $((SEED + k)) $hw > "$S/storm-$1.out" 2>&1
		while IFS= read -r line; do
			if [[ $line =~ $re ]]; then
				opened=$((opened + BASH_REMATCH[1]))
				failed=$((failed + BASH_REMATCH[2]))
				loops=$((loops + BASH_REMATCH[3]))
				bad=$((bad + BASH_REMATCH[4]))
				torn=$((torn + BASH_REMATCH[5]))
				errpath=$((errpath + ${BASH_REMATCH[7]:-0}))
			else
				echo "perfstorm $1: $line"
			fi
		done < "$S/storm-$1.out"
		count "storm-$1" "storm_$1_opened=$opened" "storm_$1_failed=$failed" \
			"storm_$1_loops=$loops" "storm_$1_bad=$bad" "storm_$1_torn=$torn" \
			"storm_$1_errpath=$errpath"
	done
}
