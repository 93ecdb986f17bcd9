"""The kernel trees: the pinned base, the series applied with git am, its
export back into patches/, and a worktree per other commit.

build/src/linux is a git work tree holding the base as one commit tagged
`base` and patches/series on top.  An existing tree is reused (reset to
`base`, the series applied again) so that unchanged files keep their mtimes
and builds stay incremental; work that is not exported yet is never thrown
away unless asked (force).  tree -> export -> tree round-trips with no
diff: commits are made with the committer date equal to the author date,
and the cover letter keeps its subject and text.
"""
import hashlib
import os
import re
import shutil
import subprocess
import tempfile

from workshop import conf, pins
from workshop.proc import die, out, run, say

GIT_DATE = '2026-01-01T00:00:00Z'


def git(src, *args, **kw):
    return out(['git', '-C', src] + list(args), **kw)


def ensure_base():
    """The pinned base tarball (config/base.pin), installed and checked:
    (tarball, version)."""
    return pins.ensure('base')


def stamp(version):
    return 'Debian %s %s' % (conf.base_pin()['package'], version)


def unpack(tarball, dest, title, body):
    """DEST: a git tree of TARBALL's contents, one commit tagged base."""
    say('unpacking %s into %s' % (tarball, dest))
    new = dest + '.new'
    shutil.rmtree(new, ignore_errors=True)
    os.makedirs(new)
    run(['tar', '-C', new, '--strip-components=1', '-xf', tarball])
    git(new, 'init', '-q', '-b', 'master')
    git(new, 'add', '-f', '-A', '.')
    e = conf.env(GIT_AUTHOR_DATE=GIT_DATE, GIT_COMMITTER_DATE=GIT_DATE)
    git(new, 'commit', '-q', '-m', title, '-m', body, env=e)
    git(new, 'tag', 'base')
    # The exported patches' abbreviated hashes follow the object count,
    # which git estimates from packs only: a fixed length and a packed base
    # (not git gc --auto, detached, some time later) keep them the same.
    git(new, 'config', 'core.abbrev', '9')
    git(new, 'repack', '-a', '-d', '-q')
    os.rename(new, dest)


def fix_gitignore(src):
    """Debian's top-level .gitignore ends in "/*" (ignore everything at the
    top level).  The base commit keeps it as shipped; the work tree gets a
    copy without that block, marked skip-worktree, so that new files show
    in `git status` as in an upstream tree."""
    git(src, 'update-index', '--no-skip-worktree', '.gitignore')
    git(src, 'checkout', '-q', '--', '.gitignore')
    path = os.path.join(src, '.gitignore')
    with open(path) as f:
        s = f.read()
    s = re.sub(r'(?:#?\n)*# Debian packaging: ignore everything.*\Z', '\n', s, flags=re.S)
    with open(path, 'w') as f:
        f.write(s)
    git(src, 'update-index', '--skip-worktree', '.gitignore')


def series(patches):
    path = os.path.join(patches, 'series')
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [ln.strip() for ln in f if ln.strip() and not ln.lstrip().startswith('#')]


def norm(text):
    """A patch without its [PATCH n/m] prefix, hashed."""
    head, sep, rest = text.partition('\n\n')
    head = re.sub(r'^Subject: \[PATCH[^]]*\] ', 'Subject: ', head, flags=re.M)
    return hashlib.sha256((head + sep + rest).encode()).hexdigest()


def format_patches(src, numbered=True):
    """{file name: text} of base..HEAD as git format-patch writes them."""
    with tempfile.TemporaryDirectory() as d:
        git(src, 'format-patch', '-q', '--zero-commit', '--no-signature',
            *([] if numbered else ['--no-numbered']), '-o', d, 'base..HEAD')
        res = {}
        for n in sorted(os.listdir(d)):
            with open(os.path.join(d, n)) as f:
                res[n] = f.read()
        return res


def read(path):
    with open(path) as f:
        return f.read()


def in_sync(src, patches):
    """Does base..HEAD export to exactly patches/series, in order?"""
    got = format_patches(src)
    if list(got) != series(patches):
        return False
    return all(norm(t) == norm(read(os.path.join(patches, n))) for n, t in got.items())


def unexported(src, patches):
    """Subjects of the commits of base..HEAD that no file of PATCHES holds."""
    have = {norm(read(os.path.join(patches, n))) for n in os.listdir(patches)
            if re.match(r'\d{4}-.*\.patch$', n) and not n.startswith('0000-')}
    missing = []
    for t in format_patches(src, numbered=False).values():
        if norm(t) not in have:
            m = re.search(r'^Subject: \[PATCH\] (.*)$', t, re.M)
            missing.append(m.group(1) if m else '?')
    return missing


def apply_series(src, patches):
    """git am every patch of PATCHES/series; returns the ones that failed."""
    marker = os.path.join(src, '.git')
    for f in ('perfctx-partial', 'perfctx-applied'):
        if os.path.exists(os.path.join(marker, f)):
            os.unlink(os.path.join(marker, f))
    failed = []
    for p in series(patches):
        rc = run(['git', '-C', src, 'am', '-q', '--keep-non-patch',
                  '--committer-date-is-author-date', os.path.join(patches, p)],
                 check=False, log=os.devnull)
        if rc:
            failed.append(p)
            run(['git', '-C', src, 'am', '--abort'], check=False, log=os.devnull)
    if failed:
        with open(os.path.join(marker, 'perfctx-partial'), 'w') as f:
            f.write('\n'.join(failed) + '\n')
    else:
        with open(os.path.join(marker, 'perfctx-applied'), 'w') as f:
            f.write(git(src, 'rev-parse', 'HEAD') + '\n')
    return failed


class Refused(Exception):
    pass


def sync(force=False, as_is=False, src=None, patches=conf.PATCHES):
    """build/src/linux as the base + patches/series.  A tree holding work
    that is not exported is refused (force: thrown away; as_is: used as it
    stands, with a warning, as make check and the build targets do)."""
    src = src or conf.src()
    tarball, version = ensure_base()
    try:
        _reuse(src, patches, version, force)
    except Refused as e:
        if not as_is:
            die('%s (force throws it away)' % e)
        say('WARNING: testing %s as it stands: %s' % (src, e))
        return src
    except _InSync:
        fix_gitignore(src)
        say('%s: base (%s) + %s patches, in step with patches/'
            % (src, stamp(version), git(src, 'rev-list', '--count', 'base..HEAD')))
        return src
    if not os.path.isdir(os.path.join(src, '.git')):
        os.makedirs(os.path.dirname(src), exist_ok=True)
        pin = conf.base_pin()
        unpack(tarball, src, 'Linux %s (%s)' % (pin['upstream'], stamp(version)),
               'Unpacked from %s.' % tarball)
    fix_gitignore(src)
    failed = apply_series(src, patches)
    if failed:
        die('%d of %d patches did not apply on %s: %s'
            % (len(failed), len(series(patches)), stamp(version), ' '.join(failed)))
    say('%s: base (%s) + %d patches' % (src, stamp(version), len(series(patches))))
    return src


class _InSync(Exception):
    pass


def _reuse(src, patches, version, force):
    """Check an existing tree; reset it to base when it may be re-made."""
    g = os.path.join(src, '.git')
    if not os.path.isdir(g) or subprocess.run(
            ['git', '-C', src, 'rev-parse', '-q', '--verify', 'refs/tags/base'],
            capture_output=True).returncode:
        return

    def refuse(msg):
        if not force:
            raise Refused(msg)
    if os.path.isdir(os.path.join(g, 'rebase-apply')) or os.path.isdir(os.path.join(g, 'rebase-merge')):
        refuse('a git am or rebase is in progress in ' + src)
    dirty = git(src, 'status', '--porcelain', '--untracked-files=no')
    if dirty:
        refuse('uncommitted edits in %s (commit them and export):\n%s' % (src, dirty))
    applied = read(os.path.join(g, 'perfctx-applied')).strip() \
        if os.path.exists(os.path.join(g, 'perfctx-applied')) else ''
    head = git(src, 'rev-parse', 'HEAD')
    if stamp(version) not in git(src, 'log', '-1', '--format=%B', 'base'):
        if git(src, 'rev-list', '--count', 'base..HEAD') != '0' and head != applied:
            refuse(src + ' holds commits on another base')
        old = '%s.old.%d' % (src, int(os.path.getmtime(g)))
        say('%s holds another base; moved to %s, making it anew' % (src, old))
        os.rename(src, old)
        return
    partial = os.path.exists(os.path.join(g, 'perfctx-partial'))
    if not force and not partial and in_sync(src, patches):
        raise _InSync()
    if head != applied:
        missing = unexported(src, patches)
        if missing:
            refuse('%s has commits that patches/ does not hold (export first):\n%s'
                   % (src, '\n'.join(missing)))
    git(src, 'reset', '-q', '--hard', 'base')


def commit_of(which, src=None):
    """The commit a profile's `commit` names, in build/src/linux."""
    src = src or conf.src()
    if which == 'series':
        return git(src, 'rev-parse', 'HEAD')
    if which == 'base':
        return git(src, 'rev-parse', 'base')
    if which == 'a-side':
        with open(os.path.join(conf.CONFIG, 'bench-a-side')) as f:
            subj = next(ln.strip() for ln in f if ln.strip() and not ln.startswith('#'))
        for line in git(src, 'log', '--format=%H %s', 'base..HEAD').splitlines():
            h, _, s = line.partition(' ')
            if s == subj:
                return h
        die("config/bench-a-side: no patch '%s' in base..HEAD" % subj)
    die('unknown commit %r' % which)


def worktree(commit, name=None, src=None):
    """A work tree at COMMIT: build/src/linux itself when it is HEAD there
    and the tree is clean, else build/src/wt-NAME (NAME: the commit's
    first 12 digits), made once and shared by whoever needs that commit."""
    src = src or conf.src()
    if name is None:
        if commit == git(src, 'rev-parse', 'HEAD') and \
                not git(src, 'status', '--porcelain', '--untracked-files=no'):
            return src
        name = commit[:12]
    wt = conf.src(name)
    if subprocess.run(['git', '-C', wt, 'rev-parse', '-q', '--verify', 'HEAD'],
                      capture_output=True).returncode:
        shutil.rmtree(wt, ignore_errors=True)
        git(src, 'worktree', 'prune')
        git(src, 'worktree', 'add', '-q', '--detach', wt, commit)
    if git(wt, 'rev-parse', 'HEAD') != commit or \
            git(wt, 'status', '--porcelain', '--untracked-files=no'):
        git(wt, 'checkout', '-q', '-f', '--detach', commit)
    return wt
