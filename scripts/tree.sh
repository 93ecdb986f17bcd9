#!/usr/bin/env bash
# tree.sh: make build/linux, a git work tree holding the base (base.pin) as
# one commit tagged 'base', with patches/series applied on top by git am.
#
# An existing tree is reused (reset to 'base', series re-applied) so that
# unchanged files keep their mtimes and incremental builds stay incremental.
# It refuses to throw away work that is not exported to patches/ yet, unless
# FORCE=1.
. "$(dirname "$0")/lib.sh"
tarball=$("$TOP/scripts/base.sh")
pinned=$(grep '^version=' "$TOP/base.pin" | cut -d= -f2)
[ -f "$BUILD/BASE-UNPINNED" ] && pinned=$(cat "$BUILD/BASE-UNPINNED")
stamp="Debian $(grep '^package=' "$TOP/base.pin" | cut -d= -f2) $pinned"

# Debian's top-level .gitignore ends in "/*" (ignore everything at the top
# level).  The base commit keeps the file as shipped; the work tree gets a
# copy without that block, marked skip-worktree, so that new files show up
# in 'git status' as they would in an upstream tree.
fix_gitignore() {
	git -C "$SRC" update-index --no-skip-worktree .gitignore
	git -C "$SRC" checkout -q -- .gitignore
	python3 - "$SRC/.gitignore" <<'PY'
import re, sys
s = open(sys.argv[1]).read()
s = re.sub(r'(?:#?\n)*# Debian packaging: ignore everything.*\Z', '\n', s, flags=re.S)
open(sys.argv[1], 'w').write(s)
PY
	git -C "$SRC" update-index --skip-worktree .gitignore
}

# refuse MSG: stop, unless FORCE=1; with SYNC=1 (make check, the build
# targets) the tree is used as it stands instead, with a warning.
refuse() {
	[ "${FORCE:-0}" = 1 ] && return 0
	if [ "${SYNC:-0}" = 1 ]; then
		say "WARNING: testing build/linux as it stands: $1"
		exit 0
	fi
	die "$1 (FORCE=1 throws it away)"
}

# norm FILE: a patch file with its [PATCH n/m] subject prefix taken out.
norm() { sed '1,/^$/s/^Subject: \[PATCH[^]]*\] /Subject: /' "$1" | sha256sum | cut -c1-64; }

# in_sync: does base..HEAD export to exactly patches/series, in order?
in_sync() {
	local tmp rc=0
	tmp=$(mktemp -d)
	git -C "$SRC" format-patch -q --zero-commit --no-signature -o "$tmp" base..HEAD
	(cd "$tmp" && ls) > "$tmp/.list"
	if ! diff -q <(grep -vE '^\s*(#|$)' "$TOP/patches/series" 2>/dev/null) "$tmp/.list" >/dev/null; then
		rc=1
	else
		while read -r p; do
			[ "$(norm "$tmp/$p")" = "$(norm "$TOP/patches/$p")" ] || rc=1
		done < "$tmp/.list"
	fi
	rm -rf "$tmp"
	return $rc
}

# unexported: the commits of base..HEAD whose exact patch (message and diff)
# is in no file of patches/.
unexported() {
	local tmp f
	tmp=$(mktemp -d)
	git -C "$SRC" format-patch -q --zero-commit --no-signature --no-numbered -o "$tmp" base..HEAD
	for f in "$TOP"/patches/[0-9]*.patch; do
		[ -f "$f" ] && norm "$f"
	done | sort -u > "$tmp/.have"
	for f in "$tmp"/*.patch; do
		[ -f "$f" ] || continue
		grep -qx "$(norm "$f")" "$tmp/.have" || sed -n 's/^Subject: \[PATCH\] //p' "$f"
	done
	rm -rf "$tmp"
}

if [ -d "$SRC/.git" ] && git -C "$SRC" rev-parse -q --verify refs/tags/base >/dev/null; then
	g=$SRC/.git
	[ ! -d "$g/rebase-apply" ] && [ ! -d "$g/rebase-merge" ] ||
		refuse "a git am or rebase is in progress in build/linux"
	dirty=$(git -C "$SRC" status --porcelain --untracked-files=no)
	[ -z "$dirty" ] || refuse "build/linux has uncommitted edits (commit them and 'make export'):
$dirty"
	if ! git -C "$SRC" log -1 --format=%B base | grep -qF "$stamp"; then
		[ "$(git -C "$SRC" rev-list --count base..HEAD)" = 0 ] ||
			[ "$(git -C "$SRC" rev-parse HEAD)" = "$(cat "$g/perfctx-applied" 2>/dev/null)" ] ||
			refuse "build/linux holds commits on another base"
		old=$SRC.old.$(date +%s)
		say "build/linux holds another base; moved to ${old#"$TOP"/}, making it anew"
		mv "$SRC" "$old"
	else
		if [ "${FORCE:-0}" != 1 ] && [ ! -f "$g/perfctx-partial" ] && in_sync; then
			fix_gitignore
			say "build/linux: base ($stamp) + $(git -C "$SRC" rev-list --count base..HEAD) patches, in step with patches/"
			exit 0
		fi
		# HEAD is what this script applied last time, or every commit is in
		# patches/ word for word: nothing is lost by starting again.
		if [ "$(git -C "$SRC" rev-parse HEAD)" != "$(cat "$g/perfctx-applied" 2>/dev/null)" ]; then
			missing=$(unexported)
			[ -z "$missing" ] || refuse "build/linux has commits that patches/ does not hold ('make export' first):
$missing"
		fi
		git -C "$SRC" reset -q --hard base
	fi
fi

if [ ! -d "$SRC/.git" ]; then
	say "unpacking $tarball into $SRC"
	rm -rf "$SRC.new"
	mkdir -p "$SRC.new"
	tar -C "$SRC.new" --strip-components=1 -xf "$tarball"
	git -C "$SRC.new" init -q -b master
	git -C "$SRC.new" add -f -A .
	GIT_AUTHOR_DATE='2026-01-01T00:00:00Z' GIT_COMMITTER_DATE='2026-01-01T00:00:00Z' \
		git -C "$SRC.new" commit -q -m "Linux $(grep '^upstream=' "$TOP/base.pin" | cut -d= -f2) ($stamp)" \
		-m "Unpacked from $tarball, sha256 $(sha256sum "$tarball" | cut -d' ' -f1)."
	git -C "$SRC.new" tag base
	mv "$SRC.new" "$SRC"
fi
fix_gitignore

# Apply the series.  Committer date = author date, so the same patches give
# the same commits and tree -> export -> tree round-trips without a diff.
rm -f "$SRC/.git/perfctx-partial" "$SRC/.git/perfctx-applied"
failed=()
n=0
while read -r p; do
	case $p in ''|'#'*) continue ;; esac
	n=$((n + 1))
	if ! git -C "$SRC" am -q --keep-non-patch --committer-date-is-author-date \
			"$TOP/patches/$p" >/dev/null 2>&1; then
		failed+=("$p")
		git -C "$SRC" am --abort >/dev/null 2>&1 || true
	fi
done < <(cat "$TOP/patches/series" 2>/dev/null || true)
if [ ${#failed[@]} -gt 0 ]; then
	# 'make export' refuses a tree that lacks some of the series.
	printf '%s\n' "${failed[@]}" > "$SRC/.git/perfctx-partial"
	printf 'does not apply on %s: %s\n' "$stamp" "${failed[@]}" >&2
	die "${#failed[@]} of $n patches did not apply"
fi
git -C "$SRC" rev-parse HEAD > "$SRC/.git/perfctx-applied"
say "build/linux: base ($stamp) + $n patches"
