#!/bin/bash
# `make check` inside the guest: run the kselftests and perf test, printing
# their raw output between markers; the host parses and judges it
# (workshop/judge/check.py) against config/expect/ARCH.txt.
# Kernel command line:
#   perfctx.filter=core (default): only the perf tests named in
#     /guest/perf-tests-core.txt (config/perf-tests-core.txt), and not the
#     kselftests of /guest/kselftests-full-only.txt (config/)
#   perfctx.filter=full: every perf test
#   perfctx.timeout=N: seconds each test may take (600)
#   perfctx.kselftests=A+B: only these kselftests (NAME of perf_events, or
#     DIR/NAME of /kselftest/DIR)
#   perfctx.perftests=none: no perf test
set -u
# shellcheck source=guest/lib.sh
. /guest/lib.sh
filter=${PERFCTX_FILTER:-core}
T=${PERFCTX_TIMEOUT:-600}
cd /tmp || exit 1
# No process is made per test where a builtin does (each costs a fraction
# of a second in a TCG guest under KASAN, and the perf test list is long).
march=$(uname -m)
# up: UP is the seconds since boot.
up() { read -r UP _ < /proc/uptime; }

echo "=== BEGIN dmesg-mark"
echo "=== END dmesg-mark rc=0"

# full_only NAME: a kselftest that only check-full runs on this machine
# (/guest/kselftests-full-only.txt: "NAME" or "MACHINE NAME").
full_only() {
	local a b
	[ "$filter" = full ] && return 1
	while read -r a b; do
		case $a in ''|'#'*) continue ;; esac
		[ "$a" = "$1" ] && [ -z "$b" ] && return 0
		[ "$a" = "$march" ] && [ "$b" = "$1" ] && return 0
	done < /guest/kselftests-full-only.txt
	return 1
}

# The perf_events kselftests, or those of perfctx.kselftests ("NAME" of
# perf_events, or "DIR/NAME": kvm/vpmu_default).
for t in /kselftest/*/*; do
	[[ -x $t && -f $t ]] || continue
	n=${t##*/} d=${t%/*}
	d=${d##*/}
	case $n in *.sh|settings|config) continue ;; esac
	full_only "$n" && continue
	if [ -n "${PERFCTX_KSELFTESTS:-}" ]; then
		case " $PERFCTX_KSELFTESTS " in *" $d/$n "*) ;; *" $n "*) [ "$d" = perf_events ] || continue ;; *) continue ;; esac
	elif [ "$d" != perf_events ]; then
		continue
	fi
	echo "=== BEGIN kselftest $d/$n"
	(cd "/kselftest/$d" && exec timeout "$T" "./$n") 2>&1 | cat
	rc=${PIPESTATUS[0]}
	echo
	up
	echo "=== END kselftest $d/$n t=$UP rc=$rc"
done

if [ "${PERFCTX_PERFTESTS:-}" = none ]; then
	echo "=== STATE perftests=none"
	state_end
	exit 0
fi
if ! perf test list > /tmp/perf-tests 2>&1 || ! grep -qE '^ *[0-9]+: ' /tmp/perf-tests; then
	echo "perf test list failed:"; cat /tmp/perf-tests
	exit 1
fi
# The core list for this arch: lines "!ARCH pattern" leave a test out on
# ARCH (uname -m), with the reason in a comment above them.
grep -vE '^\s*(#|$)' /guest/perf-tests-core.txt | while IFS= read -r l; do
	case $l in
	"!$march "*) ;;
	'!'*) echo "${l#* }" ;;
	*) echo "$l" ;;
	esac
done > /tmp/core-list
# A core pattern that names no test is reported, so a renamed or missing
# test cannot drop out of the run unnoticed.  (Until 2026-12-02 this ran
# before /tmp/core-list was written, and so never checked anything.)
mapfile -t core < /tmp/core-list
listed=$(< /tmp/perf-tests)
if [ "$filter" != full ]; then
	for pat in "${core[@]}"; do
		case $listed in *"$pat"*) ;; *) echo "=== MISSING perftest $pat" ;; esac
	done
fi
want() {
	[ "$filter" = full ] && return 0
	for pat in "${core[@]}"; do
		case $1 in *"$pat"*) return 0 ;; esac
	done
	return 1
}
# "N: DESC" (a subtest's "N:K: DESC" or "N.K: DESC" is not a test of its own)
re='^ *([0-9]+): +(.*)$'
while IFS= read -r line; do
	[[ $line =~ $re ]] || continue
	num=${BASH_REMATCH[1]} desc=${BASH_REMATCH[2]}
	want "$desc" || continue
	echo "=== BEGIN perftest $num $desc"
	# Through a pipe: no tty, so no colours; -v so a failure shows why.
	timeout "$T" perf test -v "$num" 2>&1 < /dev/null | cat
	rc=${PIPESTATUS[0]}
	echo
	up
	echo "=== END perftest $num t=$UP rc=$rc"
done < /tmp/perf-tests
state_end
exit 0
