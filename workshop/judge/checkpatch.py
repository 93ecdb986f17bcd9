"""checkpatch --strict on a patch, less the complaints that
config/checkpatch-exceptions.txt accepts ('<TYPE> | <file glob> | <reason>'),
and less FILE_PATH_CHANGES when MAINTAINERS covers every file the patch
adds or removes (get_maintainer.pl)."""
import fnmatch
import os
import re
import subprocess

from workshop.judge.result import Result

COMPLAINT = re.compile(r'^(WARNING|ERROR|CHECK):')
TYPE = re.compile(r'^(?:WARNING|ERROR|CHECK):([A-Z_]+):')
FILE = re.compile(r'FILE: (\S+?):\d+:')
DIFF = re.compile(r'^diff --git a/(\S+) b/(\S+)')
ADDED_REMOVED = re.compile(r'^(new|deleted) file mode')
MAINTAINED = re.compile(r'\((maintainer|supporter|reviewer|odd fixer):')


def load_exceptions(path):
    """[(type, glob, reason)]"""
    exc = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith('#'):
                continue
            t, glob, why = [x.strip() for x in line.split('|', 2)]
            exc.append((t, glob, why))
    return exc


def blocks(output):
    """checkpatch's complaints, each its lines; a line before any complaint
    is a block of its own."""
    out, cur = [], []
    for line in output.splitlines():
        if COMPLAINT.match(line):
            if cur:
                out.append(cur)
            cur = [line]
        elif cur:
            cur.append(line)
        elif line.strip():
            out.append([line])
    if cur:
        out.append(cur)
    return out


def changed_files(patch_text):
    """The files a patch adds, removes or renames."""
    changed, last = [], None
    for line in patch_text.splitlines():
        m = DIFF.match(line)
        if m:
            last = m.group(2)
        if ADDED_REMOVED.match(line) or line.startswith('rename '):
            changed.append(last)
    return changed


def get_maintainer(src):
    """covered(path) for the tree SRC: get_maintainer.pl names a
    maintainer, supporter, reviewer or odd fixer of the file."""
    def covered(path):
        out = subprocess.run([os.path.join(src, 'scripts/get_maintainer.pl'), '--no-git',
                              '--no-git-fallback', '-f', path], cwd=src,
                             capture_output=True, text=True).stdout
        return bool(MAINTAINED.search(out))
    return covered


def accepted(block, changed, exc, covered):
    """The reason a complaint is accepted, or None."""
    m = TYPE.match(block[0])
    t = m.group(1) if m else None
    f = next((m2.group(1) for m2 in map(FILE.search, block) if m2), None)
    if t == 'FILE_PATH_CHANGES':
        if all(covered(p) for p in changed):
            return t, f, 'MAINTAINERS covers ' + ', '.join(changed)
        return None
    for et, glob, why in exc:
        if et == t and f and fnmatch.fnmatch(f, glob):
            return t, f, why
    return None


def filter_output(output, patch_text, exc, covered):
    """(text, number of complaints left): what checkpatch said that is not
    accepted, and, indented, what was accepted and why."""
    changed = changed_files(patch_text)
    out, left = [], 0
    for b in blocks(output):
        acc = accepted(b, changed, exc, covered)
        if acc:
            out.append('  accepted %s (%s): %s' % (acc[0], acc[1] or '-', acc[2]))
        else:
            left += 1
            out.extend(b)
    return '\n'.join(out), left


def run(src, patch_path, exceptions_path):
    """Result 'checkpatch:<patch>': checkpatch.pl of the tree SRC on the
    patch, filtered.  /usr/bin first in PATH: checkpatch runs
    scripts/spdxcheck.py, which needs Debian's python3-ply."""
    env = dict(os.environ, PATH='/usr/bin:' + os.environ.get('PATH', ''))
    p = subprocess.run([os.path.join(src, 'scripts/checkpatch.pl'), '--strict', '--quiet',
                        '--no-summary', '--show-types', patch_path],
                       capture_output=True, text=True, env=env)
    with open(patch_path, errors='replace') as f:
        patch = f.read()
    text, left = filter_output(p.stdout + p.stderr, patch,
                               load_exceptions(exceptions_path), get_maintainer(src))
    v = 'FAIL' if left else 'PASS'
    return Result('checkpatch:' + os.path.basename(patch_path), v, v,
                  '%d complaints left' % left if left else '', text)
