# shellcheck shell=bash
# guest/lib.sh: what /init and every mode of the guest share (sourced; it
# sets variables and defines functions, nothing else happens on sourcing).
#
# The guest's parameters come from the kernel command line only
# (docs/harness.md, "The guest protocol"): perfctx.KEY=VALUE becomes the
# variable PERFCTX_KEY (KEY upper-cased), with each '+' of VALUE turned
# into a space (perfctx.prof, perfctx.modparams).  Other words of the
# command line are left alone; GUEST_CMDLINE is the whole line.  Any
# PERFCTX_* variable of the environment is dropped first.
#
# PERFCTX_CMDLINE_FILE (default /proc/cmdline) is the file read, so that
# the harness's tests can source this file on the host with a command line
# of their own:
#   PERFCTX_CMDLINE_FILE=FILE bash -c '. guest/lib.sh; echo "$PERFCTX_MODE"'
#
# The functions, each called by the modes that need it:
#   guest_paranoid      perf_event_paranoid -1 (bench, profile, stress)
#   guest_cgroup2 [CG]  cgroup2's implicit perf_event controller (bench, profile, stress)
#   state_tainted       === STATE tainted=N
#   state_debug_locks   === STATE debug_locks=N
#   state_end           both (check, stress)

# perfctx_params: (re)read the command line into PERFCTX_* and GUEST_CMDLINE.
perfctx_params() {
	local a k v file=${PERFCTX_CMDLINE_FILE:-/proc/cmdline}
	local -a words=()
	for k in "${!PERFCTX_@}"; do
		[ "$k" = PERFCTX_CMDLINE_FILE ] || unset "$k"
	done
	GUEST_CMDLINE=
	# read -a: no globbing of the words; a last line with no newline
	# still fills the array (read's status is then 1).
	IFS= read -r GUEST_CMDLINE 2>/dev/null < "$file" || :
	read -r -a words <<< "$GUEST_CMDLINE" || :
	for a in "${words[@]}"; do
		case $a in
		perfctx.?*=*) ;;
		*) continue ;;
		esac
		k=${a%%=*}
		k=${k#perfctx.}
		v=${a#*=}
		case $k in
		*[!A-Za-z0-9_]*) continue ;;	# not part of a shell name
		esac
		k=PERFCTX_${k^^}
		[ "$k" = PERFCTX_CMDLINE_FILE ] && continue
		printf -v "$k" '%s' "${v//+/ }"
	done
}
perfctx_params

# guest_paranoid: every perf event for every user (trinity and stress-ng
# run as users of their own; perfbench opens CPU-wide events).
guest_paranoid() {
	echo -1 > /proc/sys/kernel/perf_event_paranoid
}

# guest_cgroup2 [CG]: 6.1 gives a new cgroup2 child the implicit perf_event
# controller only once the root's subtree_control has been written: until
# then every cgroup event fails with ENOENT (perf stat: "<not supported>",
# exit status 0).  Write it once, enabling and disabling cpu.
guest_cgroup2() {
	local cg=${1:-/sys/fs/cgroup}
	echo +cpu > "$cg/cgroup.subtree_control" &&
		echo -cpu > "$cg/cgroup.subtree_control"
}

# Kernel state at the end of a run: taint flags, and whether lockdep is
# still on (it turns itself off after its first report).
state_tainted() {
	echo "=== STATE tainted=$(cat /proc/sys/kernel/tainted)"
}
state_debug_locks() {
	echo "=== STATE debug_locks=$(sed -n 's/^ *debug_locks: *//p' /proc/lockdep_stats 2>/dev/null)"
}
state_end() {
	state_tainted
	state_debug_locks
}
