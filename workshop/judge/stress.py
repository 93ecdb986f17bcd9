"""The stress judge (make stress): one run of guest/modes/stress.sh, from
LOGDIR/console.log and LOGDIR/guest.log.  Besides the kernel-log scan:

  - kmemleak ("=== BEGIN kmemleak boot|end"): any unreferenced object whose
    backtrace goes through perf code fails; others are listed, not failed.
    Objects already reported at boot are not counted again at the end.
  - the stressors' figures ("=== BEGIN stress-summary counts", key=value):
    stress_rules.py;
  - taint flags and debug_locks at the end, the guest's exit status, and
    LOGDIR/host-stop (the host stopped the guest at a splat).
"""
import os
import re

from workshop.judge import guestlog, splats, stress_rules
from workshop.judge.result import Result

# A leaked object is perf's when its allocation went through perf code.
PERF_FN = re.compile(r'^(__?)?(perf_|alloc_perf_context|find_get_context|'
                     r'find_get_pmu_context|inherit_|tpmu_|tdev_|test_perf_pmu|'
                     r'rb_alloc|hw_breakpoint|register_.*breakpoint|'
                     r'.*_perf_|.*pmu_)')
FRAME = re.compile(r'\]\s+([\w.]+)\+0x')
OBJECT = re.compile(r'unreferenced object (0x[0-9a-f]+) \(size (\d+)\)')
HOST_STOP = 'host-stop'
# The figures printed under "---- figures", in this order ('-': not reported).
FIGURES = ('duration_s', 'duration_wanted_s', 'seed', 'phase2_at_s', 'phase2_min_s',
           'syscalls_total', 'trinity_syscalls', 'trinity_runs', 'trinity_wait_s',
           'trinity_children_cpu_ticks_at_stop', 'perf_event_open_calls',
           'perf_event_open_ok', 'storm_openclose_opened', 'storm_inherit_opened',
           'storm_openclose_torn', 'storm_inherit_torn', 'storm_openclose_errpath',
           'perf_record_runs', 'hotplug_cycles', 'module_reloads',
           'module_unloads', 'module_state', 'module_end', 'pmu_unbinds',
           'pmu_unbinds_with_events')


def kmemleak_records(body):
    """[(header, lines, functions)] per 'unreferenced object' record."""
    recs, cur = [], None
    for line in body:
        if line.startswith('unreferenced object'):
            cur = (line, [line], [])
            recs.append(cur)
        elif cur is not None:
            cur[1].append(line)
            m = FRAME.search(line)
            if m:
                cur[2].append(m.group(1))
    return recs


def obj_key(header):
    m = OBJECT.match(header)
    return m.groups() if m else header


def kmemleak(secs):
    """([Result], number of records outside perf) of the boot and end
    scans."""
    leaks = {}
    for kind, name, body, rc in secs:
        if kind == 'kmemleak':
            tag = name.split()[0] if name.split() else '?'
            leaks[tag] = (kmemleak_records(body), rc, body)
    res, seen, other = [], set(), 0
    for tag in ('boot', 'end'):
        if tag not in leaks:
            res.append(_r('kmemleak:' + tag, False, 'no kmemleak scan in the guest log'))
            continue
        recs, rc, body = leaks[tag]
        if rc != 0:
            res.append(_r('kmemleak:' + tag, False, 'scan failed (rc %s): %s'
                          % (rc, ' | '.join(body[-3:]))))
            continue
        mine, listed = [], []
        for header, lines, fns in recs:
            k = obj_key(header)
            if tag == 'end' and k in seen:
                continue
            seen.add(k)
            hit = [f for f in fns if PERF_FN.match(f)]
            if hit:
                mine.append(_r('kmemleak:%s:%s' % (tag, hit[0]), False,
                               '%s, see the record in result.txt' % header.strip(),
                               '\n'.join(lines)))
            else:
                listed.append('not perf (not failed): %s %s'
                              % (header.strip(), ' < '.join(fns[:6])))
        other += len(listed)
        if not mine:
            mine.append(_r('kmemleak:' + tag, True, 'no perf objects (%d records)' % len(recs)))
        if listed:
            mine[-1].detail = '\n'.join(filter(None, [mine[-1].detail] + listed))
        res += mine
    return res, other


def _r(key, ok, reason='', detail=''):
    v = 'PASS' if ok else 'FAIL'
    return Result(key, v, v, reason, detail)


def end_state(guest):
    st = guestlog.state(guest)
    ok, flags = guestlog.taint(st)
    if ok is None:
        res = [_r('kernel:state', False, 'the guest did not report the taint flags')]
    else:
        res = [_r('kernel:tainted', ok, 'taint flags %s at the end' % flags)]
    res.append(_r('kernel:lockdep', not guestlog.lockdep_off(st),
                  'debug_locks=%s at the end' % st.get('debug_locks', '?').strip()))
    res.append(_r('guest:exit', *guestlog.exit_status(guest)))
    return res


def figures(counts, guest, other):
    """The dict of "---- figures": the run's figures, its trinity seeds,
    and how many kmemleak records were outside perf."""
    fig = {k: counts.get(k, '-') for k in FIGURES}
    st = guestlog.state(guest)
    seeds = sorted(k for k in st if k.startswith('trinity_seed'))
    if seeds:
        fig['trinity seeds'] = ', '.join('%s=%s' % (k.split('.', 1)[-1], st[k])
                                         for k in seeds)
    if other:
        fig['kmemleak records outside perf'] = '%d (listed, not failed)' % other
    return fig


def judge(logdir, arch, decoder=None, base=False):
    """([Result], figures) of one stress run; BASE: the plain base, which
    has no test PMUs."""
    console = guestlog.read(logdir, 'console.log')
    guest = guestlog.read(logdir, 'guest.log')
    decode = decoder or splats.raw
    res = [_r('kernel:' + t[:120], False, 'see the trace in result.txt', decode(tr))
           for t, tr in splats.splats(console)]
    if not res:
        res.append(_r('kernel:log', True,
                      'no WARNING, BUG, KASAN, lockdep, RCU stall, hung task'))
    stop = os.path.join(logdir, HOST_STOP)
    if os.path.exists(stop):
        res.append(_r('host:stop', False, 'the host stopped the guest at a splat: '
                      + guestlog.read(logdir, HOST_STOP).strip()))
    secs = guestlog.sections(guest)
    leaks, other = kmemleak(secs)
    res += leaks
    counts = stress_rules.summary(secs)
    if counts is None:
        res.append(_r('guest:summary', False, 'no stress-summary in the guest log'))
        counts = {}
    else:
        test_pmu = re.findall(r'^=== STATE test_pmu=(\d+)', guest, re.M)
        no_test_pmus = base and bool(test_pmu) and test_pmu[-1] == '0'
        res += [_r(*x) for x in stress_rules.judge(counts, no_test_pmus)]
    res += end_state(guest)
    return res, figures(counts, guest, other)
