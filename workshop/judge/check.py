"""The check judge (make check): one guest run of KUnit at boot, the
perf_events kselftests and perf test, from LOGDIR/console.log (the kernel
log) and LOGDIR/guest.log (the guest's report).

Keys: kunit:<suite>.<case>, kselftest:perf_events/<prog>:<case>,
perftest:<description>[/<subtest>], kernel:<splat>, guest:<what>.  Results
that may not pass are excused by the arch's expect list (expect.py); any
kernel report fails, with its trace decoded in the result's detail."""
import os
import re

from workshop.judge import expect, guestlog, kselftest, ktap, perftest, splats
from workshop.judge.result import Result

MISSING = re.compile(r'^=== MISSING perftest (.*)$', re.M)


def kernel_reports(console, decoder=None):
    """[(key, FAIL, reason, detail)] of the kernel reports in the log."""
    decode = decoder or splats.raw
    return [('kernel:' + title[:120], 'FAIL', 'see the trace in result.txt',
             decode(trace)) for title, trace in splats.splats(console)]


def guest_results(guest):
    """The kselftest and perf test blocks of guest.log, and the blocks that
    must be there."""
    res = []
    secs = guestlog.sections(guest)
    for kind, name, body, rc in secs:
        if kind == 'kselftest':
            res += kselftest.results(name, body, rc)
        elif kind == 'perftest':
            res += perftest.results(name, body, rc)
    kinds = {s[0] for s in secs}
    if 'kselftest' not in kinds:
        res.append(('guest:kselftests', 'FAIL', 'no kselftest ran'))
    # A profile may run no perf test; the guest says so (STATE perftests=none).
    if 'perftest' not in kinds and guestlog.state(guest).get('perftests') != 'none':
        res.append(('guest:perftests', 'FAIL', 'no perf test ran'))
    for pat in MISSING.findall(guest):
        res.append(('perftest:' + pat.strip(), 'SKIP',
                    'no such test in this perf (config/perf-tests-core.txt names it)'))
    return res


def end_state(guest):
    """Taint, lockdep and the guest's exit: failures only."""
    res = []
    st = guestlog.state(guest)
    ok, _ = guestlog.taint(st)
    if ok is None:
        res.append(('kernel:state', 'FAIL', 'the guest did not report the taint flags'))
    elif not ok:
        res.append(('kernel:tainted', 'FAIL',
                    'taint flags %s at the end of the run' % st['tainted']))
    if guestlog.lockdep_off(st):
        res.append(('kernel:lockdep', 'FAIL',
                    'lockdep turned itself off (debug_locks=0) during the run'))
    ok, why = guestlog.exit_status(guest)
    if not ok:
        res.append(('guest:exit', 'FAIL', why))
    return res


# The pmu_routing kselftest's facts: "# FILE:LINE:CASE:route WHAT: GOT".
ROUTE = re.compile(r'^# [^:]+:\d+:\w+:route (.+?): (.+)$', re.M)


def routes(logdir):
    """[(what, got)] of the "route" lines of the kselftests in LOGDIR's
    guest.log: where each kind of event went (the routing table)."""
    return ROUTE.findall(guestlog.read(logdir, 'guest.log'))


def judge(logdir, arch, expect_path, decoder=None, kunit=True):
    """[Result] of one check run.  Raises expect.ExpectError on a bad line
    in the expect list."""
    exp = expect.load(expect_path)
    console = guestlog.read(logdir, 'console.log')
    guest = guestlog.read(logdir, 'guest.log')
    raw = kernel_reports(console, decoder)
    if kunit:
        raw += ktap.results(console)
    raw += guest_results(guest) + end_state(guest)
    return expect.apply(raw, exp, os.path.basename(expect_path or 'no list'))


def judge_exit(logdir, decoder=None):
    """[Result] of a run judged on its kernel log and exit alone (make
    run): every kernel report fails, and a guest that did not exit 0."""
    console = guestlog.read(logdir, 'console.log')
    guest = guestlog.read(logdir, 'guest.log')
    ok, why = guestlog.exit_status(guest)
    raw = kernel_reports(console, decoder) + [('guest:exit', 'PASS' if ok else 'FAIL', why)]
    return [Result(k, st, st, r, *d) for k, st, r, *d in raw]
