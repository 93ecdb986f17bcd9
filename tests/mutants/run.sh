#!/usr/bin/env bash
# tests/mutants/run.sh [N...]: show that the regression suite fails when the
# behaviour it names is broken.  Builds, in a scratch worktree of build/linux
# (build/mutants, out of tree in build/out-mutants), the x86_64 debug kernel
# with the mutants of tests/mutants/apply.py, then boots it once per mutant
# (perf_mutant=N; 0 = unbroken) and lists what failed: KUnit cases, kselftest
# cases, the perf stat test.  Each mutant must fail at least one test; the
# unbroken kernel none.  Takes about 2 minutes per boot.  The worktree and
# its build stay for the next run.
set -euo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"
arch=x86_64
wt=$BUILD/mutants
mo=$BUILD/out-mutants
mapfile -t all < <(python3 "$TOP/tests/mutants/apply.py" --list | cut -f1)
want=("${@:-0 ${all[*]}}")
# shellcheck disable=SC2206
want=(${want[*]})

# Reuse the worktree while build/linux's HEAD and apply.py are unchanged, so
# that the kernel build stays incremental.
stamp="$(git -C "$SRC" rev-parse HEAD) $(sha256sum < "$TOP/tests/mutants/apply.py")"
if [ "$(cat "$mo/.mutants-stamp" 2>/dev/null)" != "$stamp" ] || [ ! -e "$wt/.git" ]; then
	git -C "$SRC" worktree remove --force "$wt" 2>/dev/null || rm -rf "$wt"
	git -C "$SRC" worktree prune
	git -C "$SRC" worktree add -q --detach "$wt" HEAD
	python3 "$TOP/tests/mutants/apply.py" "$wt"
	mkdir -p "$mo"
	echo "$stamp" > "$mo/.mutants-stamp"
fi
SRC=$wt OUT=$mo "$TOP/scripts/build-kernel.sh" "$arch" debug
# The guest userspace: perf and the kselftests `make tools` built for the
# series, with tests/mutants/guest.sh as the script to run.
[ -d "$OUT/tools-$arch/root" ] || die "no guest tools: run 'make tools ARCH=$arch' first"
ln -sfn "$OUT/tools-$arch" "$mo/tools-$arch"
GUEST_SCRIPT=$TOP/tests/mutants/guest.sh OUT=$mo "$TOP/scripts/mkinitramfs.sh" "$arch" >/dev/null

sum=$BUILD/logs/mutants.txt
: > "$sum"
bad=0
for n in "${want[@]}"; do
	logs=$BUILD/logs/mutant-$n
	LOGS=$logs TIMEOUT=900 CMDLINE="perf_mutant=$n" OUT=$mo \
		"$TOP/scripts/qemu.sh" "$arch" script "" "$mo/$arch" >/dev/null 2>&1 || true
	fails=$( { sed -n 's/^.*    not ok [0-9]* \(perf_core_[a-z_]*\).*/kunit:\1/p' "$logs/console.log"
		  grep -E '^not ok [0-9]+ ' "$logs/guest.log" | sed -E 's/^not ok [0-9]+ /kselftest:/'
		  grep -E '^perf stat multiplexing on the test PMU: FAILED' "$logs/guest.log" | sed 's/^/perftest:/'
		  grep -qE 'GUEST-EXIT' "$logs/guest.log" || echo "guest:died"
		  grep -E 'WARNING:|BUG:|KASAN:|Oops' "$logs/console.log" | head -1 | sed 's/^.*\] /splat:/'
		} 2>/dev/null | sort -u | tr '\n' ' ' || true)
	what=$(python3 "$TOP/tests/mutants/apply.py" --list | awk -F'\t' -v n="$n" '$1==n {print $2}')
	[ "$n" = 0 ] && what="unbroken"
	if { [ "$n" = 0 ] && [ -n "$fails" ]; } || { [ "$n" != 0 ] && [ -z "$fails" ]; }; then
		verdict=BAD; bad=1
	else
		verdict=ok
	fi
	printf '%-4s mutant %-2s %s\n      failed: %s\n' "$verdict" "$n" "$what" "${fails:-nothing}" | tee -a "$sum"
done
exit $bad
