#!/usr/bin/env bash
# deps.sh [GROUP...]: install, as root, the Debian packages the workshop
# needs.  Idempotent, and silent when everything is already there.
#   build: kernel builds for x86_64 and arm64 (cross), perf, kselftests
#   run:   QEMU and the guest's static busybox/bash
#   bench: gnuplot, for `make bench`'s plots
#   lint:  sparse (make C=1), and cross compilers for the other arches whose
#          perf drivers the series touches (powerpc, s390)
# No GROUP: both.
. "$(dirname "$0")/lib.sh"
build=(make gcc libc6-dev flex bison bc libelf-dev libssl-dev cpio xz-utils
	ccache python3 python3-ply python3-git rsync kmod git perl pkg-config libdw-dev zlib1g-dev
	gcc-aarch64-linux-gnu libc6-dev-arm64-cross binutils-aarch64-linux-gnu
	libelf-dev:arm64 libdw-dev:arm64 zlib1g-dev:arm64)
run=(qemu-system-x86 qemu-system-arm busybox-static bash-static gzip)
bench=(gnuplot-nox)
lint=(sparse gcc-powerpc64le-linux-gnu gcc-s390x-linux-gnu)
[ $# -gt 0 ] || set -- build run
want=()
for g in "$@"; do
	case $g in
	build) want+=("${build[@]}") ;;
	run) want+=("${run[@]}") ;;
	bench) want+=("${bench[@]}") ;;
	lint) want+=("${lint[@]}") ;;
	*) die "unknown group $g" ;;
	esac
done
missing=()
native=$(dpkg --print-architecture)
for p in "${want[@]}"; do
	case $p in
	*:*) name=${p%%:*} arches=${p#*:} ;;
	*) name=$p arches="$native all" ;;
	esac
	ok=0
	for a in $arches; do
		dpkg-query -W -f='${db:Status-Abbrev}${Architecture}\n' "$name" 2>/dev/null |
			grep -qx "ii $a" && ok=1
	done
	[ $ok = 1 ] || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
[ "$(id -u)" = 0 ] || die "need root to install: ${missing[*]}"
say "installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
dpkg --print-foreign-architectures | grep -qx arm64 || dpkg --add-architecture arm64
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
