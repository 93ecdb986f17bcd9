#!/usr/bin/env bash
# mkinitramfs.sh ARCH: pack the guest's initramfs, build/out/initramfs-ARCH.cpio.gz:
# busybox-static and bash-static (Debian's, of ARCH), perf and the
# kselftests from build/out/tools-ARCH/root, the guest/ scripts, and the
# shared libraries they need.
. "$(dirname "$0")/lib.sh"
arch=${1:?usage: mkinitramfs.sh ARCH}
arch_vars "$arch"
case $arch in
x86_64) darch=amd64; libdirs=(/lib/x86_64-linux-gnu /usr/lib/x86_64-linux-gnu /lib64) ;;
arm64) darch=arm64; libdirs=(/usr/lib/aarch64-linux-gnu /lib/aarch64-linux-gnu /usr/aarch64-linux-gnu/lib) ;;
esac
tools=$OUT/tools-$arch/root
[ -x "$tools/usr/bin/perf" ] || die "no perf for $arch: run scripts/build-tools.sh $arch"

# Debian's packages for the guest, of ARCH, unpacked from their .debs (never
# installed on the host): static busybox and bash as the base, GNU
# coreutils/grep/sed/findutils/diffutils, python3 and objdump for perf's
# shell, python and object code tests (busybox's mktemp, for one, wants six X's), and their libraries.
guest_debs=(busybox-static bash-static coreutils grep sed findutils diffutils
	python3.11-minimal libpython3.11-minimal libpython3.11-stdlib
	libselinux1 libpcre2-8-0 libacl1 libattr1 libgmp10 libexpat1 zlib1g libffi8
	libbz2-1.0 liblzma5 libncursesw6 libtinfo6 libreadline8 libuuid1 libsqlite3-0
	libcrypt1
	binutils libbinutils libctf0 libctf-nobfd0 libgprofng0 libjansson4 libzstd1
	libgcc-s1 libstdc++6)
case $arch in
x86_64) guest_debs+=(binutils-x86-64-linux-gnu) ;;
arm64) guest_debs+=(binutils-aarch64-linux-gnu) ;;
esac
# unpack_debs DIR PKG...: the Debian packages of $darch, unpacked in
# DIR/root; downloaded again only when the list changes.
unpack_debs() {
	local dir=$1 stamp pkgs d
	shift
	stamp=$(printf '%s\n' "$@" | sha256sum | cut -c1-16)
	[ "$(cat "$dir/.stamp" 2>/dev/null)" != "$stamp" ] || return 0
	rm -rf "$dir"
	mkdir -p "$dir/root"
	pkgs=("${@/%/:$darch}")
	(cd "$dir" && { apt-get download -q "${pkgs[@]}" >/dev/null 2>&1 ||
		{ apt-get update -qq && apt-get download -q "${pkgs[@]}" >/dev/null; }; }) ||
		die "cannot download the guest's packages for $darch: $*"
	for d in "$dir"/*.deb; do dpkg-deb -x "$d" "$dir/root"; done
	echo "$stamp" > "$dir/.stamp"
}
debs=$BUILD/debs/$darch
unpack_debs "$debs" "${guest_debs[@]}"
case $arch in
x86_64) trip=x86_64-linux-gnu ;;
arm64) trip=aarch64-linux-gnu ;;
esac
libdirs=("$debs/root/lib/$trip" "$debs/root/usr/lib/$trip" "${libdirs[@]}")

# GUEST_EXTRA_DEBS="PKG...": more Debian packages of ARCH for the guest
# (scripts/stress.sh: trinity, stress-ng and their libraries), unpacked in
# build/debs/DARCH-extra so that the set above stays as it is.
xdebs=
if [ -n "${GUEST_EXTRA_DEBS:-}" ]; then
	xdebs=$BUILD/debs/$darch-extra
	read -r -d "" -a extra <<<"$GUEST_EXTRA_DEBS" || true	# every line
	unpack_debs "$xdebs" "${extra[@]}"
	libdirs=("${libdirs[@]:0:2}" "$xdebs/root/lib/$trip" "$xdebs/root/usr/lib/$trip" "${libdirs[@]:2}")
fi

r=$OUT/rootfs-$arch
rm -rf "$r"
mkdir -p "$r"/{bin,sbin,usr/bin,usr/sbin,lib,proc,sys,dev,tmp,run,etc,root,guest}
cp "$debs/root/bin/busybox" "$r/bin/busybox"
# Applet links: busybox --list needs to run, so take the list from the host's
# busybox (same version, same Debian config).
for a in $(/bin/busybox --list); do
	[ -e "$r/bin/$a" ] || ln -s busybox "$r/bin/$a"
done
# GNU tools over busybox's applets where both exist.
for d in bin usr/bin; do
	for f in "$debs/root/$d"/*; do
		cp -a --remove-destination "$f" "$r/$d/"
	done
done
mkdir -p "$r/usr/lib"
cp -a "$debs/root/usr/lib/python3.11" "$r/usr/lib/"
rm -rf "$r"/usr/lib/python3.11/{test,idlelib,tkinter,ensurepip,lib2to3,pydoc_data,turtledemo,config-*}
find "$r/usr/lib/python3.11" -name __pycache__ -prune -exec rm -rf {} +
ln -sf python3.11 "$r/usr/bin/python3"
ln -sf python3.11 "$r/usr/bin/python"
rm -f "$r/bin/bash-static"
cp "$debs/root/bin/bash-static" "$r/bin/bash"
ln -sf bash "$r/bin/sh"
cp -a "$tools/." "$r/"
if [ -n "$xdebs" ]; then
	for d in bin sbin usr/bin usr/sbin; do
		if [ -d "$xdebs/root/$d" ]; then
			mkdir -p "$r/$d"
			cp -a --remove-destination "$xdebs/root/$d/." "$r/$d/"
		fi
	done
fi
# GUEST_EXTRA_ROOT=DIR: a tree copied over the guest's root (scripts/stress.sh:
# the test PMU module, perfstorm).
if [ -n "${GUEST_EXTRA_ROOT:-}" ]; then
	cp -a "$GUEST_EXTRA_ROOT/." "$r/"
fi
cp "$TOP/guest/init" "$r/init"
cp "$TOP"/guest/*.sh "$TOP"/tests/perf-tests-core.txt "$r/guest/"
# GUEST_SCRIPT=FILE: a script of one's own, run by `scripts/qemu.sh ARCH script`.
[ -n "${GUEST_SCRIPT:-}" ] && cp "$GUEST_SCRIPT" "$r/guest/script.sh"
chmod +x "$r/init" "$r"/guest/*.sh
printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/false\n' > "$r/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' > "$r/etc/group"
echo "127.0.0.1 localhost" > "$r/etc/hosts"

python3 "$TOP/scripts/copy-libs.py" "$r" "${libdirs[@]}" -- "$r/usr" "$r/bin" "$r/kselftest"

(cd "$r" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) |
	gzip -1 > "$OUT/initramfs-$arch.cpio.gz"
say "initramfs-$arch.cpio.gz: $(du -h "$OUT/initramfs-$arch.cpio.gz" | cut -f1)"
