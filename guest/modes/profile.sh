#!/bin/bash
# The instruction profile inside the guest: one perfbench run, under QEMU's
# insnprof plugin (workshop/insnprof.c), which counts the guest's
# instructions by address.  Kernel command line: perfctx.prof=ARGS, the
# perfbench arguments with '+' between them (say
# pipe+--mode+self+--pmus+sw+--loops+20000).
set -u
# shellcheck source=guest/lib.sh
. /guest/lib.sh
args=${PERFCTX_PROF:-}
[ -n "$args" ] || { echo "profile: no perfctx.prof= on the command line"; exit 2; }
guest_paranoid
guest_cgroup2 /sys/fs/cgroup
# shellcheck disable=SC2086	# the arguments, split at the spaces
perfbench $args
