"""The build judges: make build-each (every patch of the series built in
turn, and with KUNIT=1 booted for the perf core's KUnit suites) and make
build-arches (the builds beyond the test configs, and the
w1 step: kernel/events/ with W=1 and sparse against the base)."""
import re

from workshop.judge import ktap, splats
from workshop.judge.result import Result

MESSAGE = re.compile(r'(warning|error):')
# What warnings() rewrites in a message, in this order, each at most once:
# a path up to the tree's own directories (the builds' trees differ), then
# ':line:column:', then ':line:' (numbers move with any patch).
NORMALISE = [
    (re.compile(r'^[^ ]*/(kernel|include|arch)/'), r'\1/'),
    (re.compile(r':[0-9]+:[0-9]+:'), ':'),
    (re.compile(r':[0-9]+:'), ':'),
]
ERROR = re.compile(r'error|Error')
COMMENT = re.compile(r'^\s*(#|$)')


def warnings(text):
    """The compiler's and sparse's messages of a build log, without line
    and column numbers (they move with any patch), sorted."""
    out = []
    for line in text.splitlines():
        if not MESSAGE.search(line):
            continue
        for pattern, repl in NORMALISE:
            line = pattern.sub(repl, line, count=1)
        out.append(line)
    return sorted(out)


def known(text):
    """The lines of config/sparse-known.txt that are messages."""
    return [x for x in text.splitlines() if not COMMENT.match(x)]


def new_messages(base_text, series_text, known_lines):
    """The series' messages beyond the base's, as a multiset (a message
    the base has once and the series twice is new once), less the known
    ones (whole lines)."""
    left = {}
    for m in warnings(base_text):
        left[m] = left.get(m, 0) + 1
    new = []
    for m in warnings(series_text):
        if left.get(m):
            left[m] -= 1
        else:
            new.append(m)
    skip = set(known_lines)
    return [m for m in new if m not in skip]


def w1(base_text, series_text, known_lines):
    """The w1 step's Result: FAIL on a message the base does not have."""
    b, s = warnings(base_text), warnings(series_text)
    new = new_messages(base_text, series_text, known_lines)
    counts = 'base: %d messages, series: %d' % (len(b), len(s))
    if new:
        return Result('build-arches:w1', 'FAIL', 'FAIL',
                      '%s; %d new' % (counts, len(new)), 'new messages:\n' + '\n'.join(new))
    return Result('build-arches:w1', 'PASS', 'PASS',
                  '%s; no new W=1 or sparse message in kernel/events/' % counts)


def step(name, ok, seconds, log_text, log_name=''):
    """One build-arches step: PASS, or FAIL with the tail of its log."""
    v = 'PASS' if ok else 'FAIL'
    reason = '%d s' % seconds
    detail = ''
    if not ok:
        reason += ', ' + (log_name or 'see its log')
        detail = '\n'.join(log_text.splitlines()[-25:])
    return Result('build-arches:' + name, v, v, reason, detail)


def each(n, total, subject, ok, seconds, log_text, log_name=''):
    """Patch N of TOTAL in build-each: PASS, or FAIL ('it does not build')
    with the log's error lines and its tail."""
    key = 'build-each:%02d/%02d %s' % (n, total, subject)
    if ok:
        return Result(key, 'PASS', 'PASS', '%d s' % seconds)
    lines = log_text.splitlines()
    detail = [x for x in lines if ERROR.search(x)][:20] + lines[-5:]
    return Result(key, 'FAIL', 'FAIL', 'it does not build (%s)' % (log_name or 'see its log'),
                  '\n'.join(detail))


def kunit_each(n, total, subject, console, status):
    """The boot of patch N's kernel in build-each KUNIT=1: PASS when every
    KUnit case that ran passed or skipped, the kernel log has no splat and
    the guest reported its end (status 0); else FAIL, saying which."""
    key = 'kunit-each:%02d/%02d %s' % (n, total, subject)
    got = ktap.results(console)
    bad = ['%s (%s)' % (k, why) if why else k for k, r, why in got if r == 'FAIL']
    bad += ['splat: ' + t for t in splats.titles(console)]
    if status != 0:
        bad.append('the guest ended with status %d' % status)
    if bad:
        return Result(key, 'FAIL', 'FAIL', '; '.join(bad))
    return Result(key, 'PASS', 'PASS', '%d cases passed, %d skipped' % (
        sum(1 for _, r, _ in got if r == 'PASS'), sum(1 for _, r, _ in got if r == 'SKIP')))
