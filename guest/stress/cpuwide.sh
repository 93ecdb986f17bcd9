# shellcheck shell=bash
# devev and cgev: CPU-wide events, open across hotplug.  They keep off the
# test PMUs while the module loop wants the module free (quiesce) and while
# it is unloaded.

# devev: CPU-wide events on the device PMU and the test hardware PMUs.  A
# kernel without the test PMUs (the plain base) gets software ones.
devev() {
	local ok=0 bad=0 raced=0 ev
	while ! stopping; do
		if [ "$TESTPMU" = 0 ]; then
			ev=cpu-clock,context-switches,cpu-migrations
		elif quiet || ! loaded; then
			snooze 1; continue
		else
			ev=test_dev/ticks/,test_hw0/cycles/,test_hw1/cycles/,test_hw2/cycles/
		fi
		# 5 s: a short smoke gives it few windows between module
		# cycles.  A CPU that goes offline while perf stat opens its
		# events fails the open with ENODEV: that try does not count,
		# and the next follows at once.  Other failures keep perf
		# stat's words.
		if ! perf stat -a -x, -o "$S/devev.csv" -e "$ev" \
			-- sleep 5 > /dev/null 2> "$S/devev.err"; then
			if grep -q 'returned with 19 ' "$S/devev.err"; then
				raced=$((raced + 1))
				count devev "devev_runs=$ok" "devev_failed=$bad" \
					"devev_hotplug_raced=$raced"
				continue
			fi
			cp "$S/devev.err" "$S/devev.csv.failed"
			bad=$((bad + 1))
		elif stat_opened "$S/devev.csv"; then
			ok=$((ok + 1))
		else
			bad=$((bad + 1))
		fi
		count devev "devev_runs=$ok" "devev_failed=$bad" "devev_hotplug_raced=$raced"
		flag devev-ran || flag_set devev-ran
	done
}

# cgev: cgroup events (the cgroups stressA and stressB): software always,
# test_hw0 and test_hw1 while the module is there, and a cgroup event on
# test_dev (a device PMU: may be refused, counted apart).
cgev() {
	local ok=0 bad=0 dev_ok=0 dev_refused=0
	while ! stopping; do
		if ! quiet && loaded; then
			if perf stat -a -x, -o "$S/cgev.csv" \
				-e task-clock,test_hw0/cycles/,context-switches,test_hw1/cycles/ \
				-G stressA,stressB,stressA,stressB -- sleep 10 > /dev/null 2>&1 &&
			   stat_opened "$S/cgev.csv"; then
				ok=$((ok + 1)); else bad=$((bad + 1)); fi
			if perf stat -a -x, -o "$S/cgdev.csv" -e test_dev/ticks/ -G stressA \
				-- sleep 2 > /dev/null 2>&1 && stat_opened "$S/cgdev.csv"; then
				dev_ok=$((dev_ok + 1)); else dev_refused=$((dev_refused + 1)); fi
		else
			if perf stat -a -x, -o "$S/cgev.csv" \
				-e task-clock,context-switches,cpu-clock \
				-G stressA,stressB,stressA -- sleep 5 > /dev/null 2>&1 &&
			   stat_opened "$S/cgev.csv"; then
				ok=$((ok + 1)); else bad=$((bad + 1)); fi
		fi
		count cgev "cgroup_runs=$ok" "cgroup_failed=$bad" \
			"cgroup_dev_ok=$dev_ok" "cgroup_dev_refused=$dev_refused"
	done
}
