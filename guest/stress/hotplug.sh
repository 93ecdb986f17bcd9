# shellcheck shell=bash
# hotplug: CPU hotplug, never CPU 0, while devev and cgev hold events.
hotplug() {
	local cycles=0 fails=0 f
	local cpus=(/sys/devices/system/cpu/cpu[1-9]*/online)
	[ -e "${cpus[0]}" ] || { count hotplug hotplug_error=no-hotpluggable-cpu; return 0; }
	while ! stopping; do
		for f in "${cpus[@]}"; do
			stopping && break
			if echo 0 > "$f"; then
				sleep 0.$((RANDOM % 10))
				if echo 1 > "$f"; then cycles=$((cycles + 1)); else fails=$((fails + 1)); fi
			else
				fails=$((fails + 1))
			fi
			count hotplug "hotplug_cycles=$cycles" "hotplug_failed=$fails"
			sleep 1
		done
	done
	hotplug_online
}

# hotplug_online: every CPU back online.
hotplug_online() {
	local f
	for f in /sys/devices/system/cpu/cpu[1-9]*/online; do echo 1 > "$f" 2>/dev/null; done
}
