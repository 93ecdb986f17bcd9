"""scripts/kernel-doc -none on every C file and header the series touches,
at the series' HEAD and at the base: a warning the base does not have
fails (docs/harness.md).  Warnings compare without their file and line,
so that code moving does not count as new; the base's own warnings (6.1
has many in include/linux/perf_event.h) do not."""
import collections
import os
import re
import subprocess
import tempfile

from workshop.judge.result import Result

PREFIX = re.compile(r'^\S+?:\d+: ')


def warnings(text):
    """The kernel-doc warnings of TEXT (its stderr), without file:line."""
    return [PREFIX.sub('', l) for l in text.splitlines() if 'warning:' in l or 'error:' in l]


def judge(base, head):
    """BASE, HEAD: {file: [warning, ...]}.  One Result."""
    new = []
    for f in sorted(head):
        extra = collections.Counter(head[f]) - collections.Counter(base.get(f, []))
        new += ['%s: %s' % (f, w) for w in sorted(extra.elements())]
    if new:
        return Result('kernel-doc', 'FAIL', 'FAIL', '%d new warning(s): %s' % (len(new), new[0]),
                      '\n'.join(new))
    return Result('kernel-doc', 'PASS', 'PASS', '%d files, no new warning' % len(head))


def _kdoc(src, path):
    p = subprocess.run(['perl', 'scripts/kernel-doc', '-none', path],
                       cwd=src, capture_output=True, text=True)
    if p.returncode and 'warning:' not in p.stderr:
        raise RuntimeError('kernel-doc %s: %s' % (path, p.stderr.strip()[:200]))
    return warnings(p.stderr + p.stdout)


def run(src, base='base'):
    """Judge the tree SRC against its commit BASE."""
    names = subprocess.run(['git', 'diff', '--name-only', '--diff-filter=AM', base, 'HEAD',
                            '--', '*.c', '*.h'], cwd=src, capture_output=True, text=True,
                           check=True).stdout.split()
    before, after = {}, {}
    for f in names:
        after[f] = _kdoc(src, f)
        old = subprocess.run(['git', 'show', '%s:%s' % (base, f)], cwd=src,
                             capture_output=True, text=True)
        if old.returncode:
            continue
        with tempfile.NamedTemporaryFile('w', suffix=os.path.splitext(f)[1]) as t:
            t.write(old.stdout)
            t.flush()
            before[f] = _kdoc(src, t.name)
    return judge(before, after)
