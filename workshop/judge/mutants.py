"""The mutants judge (make mutants): one boot per mutant of the perf core
(workshop/mutants.py; 0 is the unbroken kernel).  What a boot failed: the
KUnit perf_core_* cases that say 'not ok' in console.log, the kselftests
that say 'not ok' in guest.log, the perf stat multiplexing test, a guest
that never reached GUEST-EXIT, and the first WARNING/BUG/KASAN/Oops line.
Each mutant must fail something; the unbroken kernel nothing."""
import re

from workshop.judge.guestlog import read
from workshop.judge.result import Result

KUNIT = re.compile(r'^.*    not ok [0-9]* (perf_core_[a-z_]*)')
KSELFTEST = re.compile(r'^not ok [0-9]+ ')
PERFTEST = re.compile(r'^perf stat multiplexing on the test PMU: FAILED')
SPLAT = re.compile(r'WARNING:|BUG:|KASAN:|Oops')
# A splat line without its timestamp: all up to its last '] '.
SPLAT_TEXT = re.compile(r'^.*\] ')


def failures(console, guest):
    """The sorted, distinct names of what one boot failed."""
    out = set()
    for line in console.splitlines():
        m = KUNIT.match(line)
        if m:
            out.add('kunit:' + m.group(1))
    for line in guest.splitlines():
        if KSELFTEST.match(line):
            out.add('kselftest:' + KSELFTEST.sub('', line, count=1))
        if PERFTEST.match(line):
            out.add('perftest:' + line)
    if 'GUEST-EXIT' not in guest:
        out.add('guest:died')
    splat = next((x for x in console.splitlines() if SPLAT.search(x)), None)
    if splat is not None:
        out.add('splat:' + SPLAT_TEXT.sub('', splat, count=1))
    return sorted(out)


def judge(boots, names):
    """[Result] 'mutant:N <what>' for each boot {N: logdir}; NAMES {N: what
    mutant N breaks}.  PASS: mutant N > 0 failed something, the unbroken
    kernel (N = 0) nothing."""
    out = []
    for n in sorted(boots):
        fails = failures(read(boots[n], 'console.log'), read(boots[n], 'guest.log'))
        what = 'unbroken' if n == 0 else names.get(n, '?')
        ok = bool(fails) == (n != 0)
        out.append(Result('mutant:%d %s' % (n, what), 'FAIL' if fails else 'PASS',
                          'PASS' if ok else 'FAIL',
                          'failed: ' + (' '.join(fails) or 'nothing')))
    return out
