#!/usr/bin/env python3
"""stress-judge.py ARCH LOGDIR [--vmlinux V --src S --cross C] [--json OUT]
stress-judge.py --splats-only CONSOLE_LOG

Judge one `make stress` run (guest/stress.sh): LOGDIR/console.log and
LOGDIR/guest.log.  The kernel-log scan is scripts/results.py's (same splat
patterns, same decoding by scripts/decode_stacktrace.sh); this adds what is
particular to the stress run:

  - kmemleak ("=== BEGIN kmemleak boot|end"): any unreferenced object whose
    backtrace goes through perf code fails; others are listed, not failed.
    Objects already reported at boot are not counted again at the end.
  - the stressors' figures ("=== BEGIN stress-summary counts", key=value):
    a stressor that did nothing fails (the harness is broken, not the
    kernel), and so do rmmod succeeding with events open, the module staying
    busy with its users gone, an impossible group read in perfstorm, an
    early stop (taint or lockdep off in the guest).
  - taint flags and debug_locks at the end, the guest's exit status, and
    LOGDIR/host-stop (the host killed the guest at a splat).

Prints 'PASS|FAIL <key>  # reason' lines, the figures, and last
'ARCH stress: N passed, N failed'; exit status 1 on any failure.

--splats-only CONSOLE_LOG: print the title of each splat in the log, exit 1
if there is one (scripts/stress.sh polls the log with it while QEMU runs).
"""
import argparse, ast, json, os, re, sys

HERE = os.path.dirname(os.path.abspath(__file__))


def load_results():
    """scripts/results.py's functions, without running its main(): it is a
    script that ends in sys.exit(main()), so drop that statement."""
    path = os.path.join(HERE, 'results.py')
    tree = ast.parse(open(path).read(), path)
    tree.body = [n for n in tree.body
                 if not (isinstance(n, ast.Expr) and isinstance(n.value, ast.Call)
                         and any(isinstance(x, ast.Name) and x.id == 'main'
                                 for x in ast.walk(n.value)))]
    ns = {'__name__': 'results', '__file__': path}
    exec(compile(tree, path, 'exec'), ns)
    return ns


R = load_results()

# A leaked object is perf's when its allocation went through perf code.
PERF_FN = re.compile(r'^(__?)?(perf_|alloc_perf_context|find_get_context|'
                     r'find_get_pmu_context|inherit_|tpmu_|tdev_|test_perf_pmu|'
                     r'rb_alloc|hw_breakpoint|register_.*breakpoint|'
                     r'.*_perf_|.*pmu_)')
FRAME = re.compile(r'\]\s+([\w.]+)\+0x')


def kmemleak_records(body):
    """(header, lines, functions) per 'unreferenced object' record."""
    recs, cur = [], None
    for line in body:
        if line.startswith('unreferenced object'):
            cur = [line, [line], []]
            recs.append(cur)
        elif cur is not None:
            cur[1].append(line)
            m = FRAME.search(line)
            if m:
                cur[2].append(m.group(1))
    return recs


def obj_key(header):
    m = re.match(r'unreferenced object (0x[0-9a-f]+) \(size (\d+)\)', header)
    return m.groups() if m else header


def splats_only(path):
    console = open(path, errors='replace').read()
    n = 0
    for title, _ in R['splats'](console):
        print(title)
        n += 1
    return 1 if n else 0


def intval(counts, key):
    try:
        return int(counts.get(key, '') or 0)
    except ValueError:
        return 0


def main():
    if len(sys.argv) == 3 and sys.argv[1] == '--splats-only':
        return splats_only(sys.argv[2])
    ap = argparse.ArgumentParser()
    ap.add_argument('arch')
    ap.add_argument('logdir')
    ap.add_argument('--vmlinux')
    ap.add_argument('--src', default='.')
    ap.add_argument('--cross')
    ap.add_argument('--json')
    ap.add_argument('--base', action='store_true',
                    help='the plain base (scripts/stress.sh BASE=1): no test PMUs')
    a = ap.parse_args()
    console = open(os.path.join(a.logdir, 'console.log'), errors='replace').read()
    guest = open(os.path.join(a.logdir, 'guest.log'), errors='replace').read()
    res = []

    def add(key, ok, reason=''):
        res.append((key, 'PASS' if ok else 'FAIL', reason))

    # The kernel log: results.py's scanner.
    nsplat = 0
    for title, trace in R['splats'](console):
        print('---- kernel report: %s' % title)
        print(R['decode'](trace, a))
        add('kernel:' + title[:120], False, 'see the trace above')
        nsplat += 1
    if not nsplat:
        add('kernel:log', True, 'no WARNING, BUG, KASAN, lockdep, RCU stall, hung task')
    if os.path.exists(os.path.join(a.logdir, 'host-stop')):
        add('host:stop', False, 'the host stopped the guest at a splat: ' +
            open(os.path.join(a.logdir, 'host-stop')).read().strip())

    secs = list(R['sections'](guest))
    # kmemleak
    leaks = {}
    for kind, name, body, rc in secs:
        if kind != 'kmemleak':
            continue
        tag = name.split()[0] if name.split() else '?'
        leaks[tag] = (kmemleak_records(body), rc, body)
    seen = set()
    other = 0
    for tag in ('boot', 'end'):
        if tag not in leaks:
            add('kmemleak:' + tag, False, 'no kmemleak scan in the guest log')
            continue
        recs, rc, body = leaks[tag]
        if rc != 0:
            add('kmemleak:' + tag, False, 'scan failed (rc %s): %s' %
                (rc, ' | '.join(body[-3:])))
            continue
        perf = 0
        for header, lines, fns in recs:
            k = obj_key(header)
            if tag == 'end' and k in seen:
                continue
            seen.add(k)
            hit = [f for f in fns if PERF_FN.match(f)]
            if hit:
                perf += 1
                print('---- kmemleak (%s): perf object, via %s' % (tag, hit[0]))
                print('\n'.join(lines))
                add('kmemleak:%s:%s' % (tag, hit[0]), False,
                    '%s, see the record above' % header.strip())
            else:
                other += 1
                print('---- kmemleak (%s): not perf (not failed): %s %s' %
                      (tag, header.strip(), ' < '.join(fns[:6])))
        if not perf:
            add('kmemleak:' + tag, True, 'no perf objects (%d records)' % len(recs))

    # The stressors' figures.
    counts = {}
    summ = [s for s in secs if s[0] == 'stress-summary']
    if not summ:
        add('guest:summary', False, 'no stress-summary in the guest log')
    else:
        for line in summ[-1][2]:
            m = re.match(r'^(\w[\w.-]*)=(.*)$', line.strip())
            if not m:
                continue
            k, v = m.groups()
            # Two perf record loops report the same keys: add them up.
            if k in counts and counts[k].isdigit() and v.isdigit():
                v = str(int(counts[k]) + int(v))
            counts[k] = v
        early = counts.get('early_stop', 'none')
        add('guest:early-stop', early == 'none',
            '' if early == 'none' else 'the guest stopped early: ' + early)
        # Each stressor must have done something.
        did = [('hotplug', 'hotplug_cycles'), ('perf record', 'perf_record_runs'),
               ('open/close storm', 'storm_openclose_opened'),
               ('inherit storm', 'storm_inherit_opened'),
               ('device-PMU events', 'devev_runs'), ('cgroup events', 'cgroup_runs'),
               ('trinity', 'trinity_syscalls')]
        for what, key in did:
            n = intval(counts, key)
            err = [v for k, v in counts.items() if k.startswith(key.split('_')[0] + '_error')]
            add('stressor:' + what, n > 0,
                '%s=%d%s' % (key, n, (' (' + ', '.join(err) + ')') if err else ''))
        testpmu = re.findall(r'^=== STATE test_pmu=(\d+)', guest, re.M)
        if a.base and testpmu and testpmu[-1] == '0':
            # scripts/stress.sh BASE=1: the plain base has no test PMUs.
            # Only then: on the series, no test PMUs is a failure.
            add('stressor:module load/unload', True,
                'skipped: no test PMU driver in this kernel (the plain base)')
        elif counts.get('module_state') == 'builtin-or-absent':
            add('stressor:module load/unload', False,
                'no test PMU module in the guest (CONFIG_TEST_PERF_PMU=m?)')
        else:
            add('stressor:module load/unload', intval(counts, 'module_reloads') > 0,
                'module_reloads=%d' % intval(counts, 'module_reloads'))
            # The loop skips the check when perf stat's events did not
            # open: at least one check must have been made.  An rmmod
            # tried after perf stat closed its events on its own is not
            # judged (module_rmmod_unjudged).  A module count below the
            # number of perf stat's open events (module_refcnt_short)
            # fails as an rmmod let through does: Debian's rmmod refuses
            # from that count alone.
            n = intval(counts, 'module_rmmod_ok_with_events')
            r = intval(counts, 'module_rmmod_refused_with_events')
            u = intval(counts, 'module_rmmod_unjudged')
            k = intval(counts, 'module_rmmod_check_skipped')
            sh = intval(counts, 'module_refcnt_short')
            add('module:rmmod-with-events', n == 0 and sh == 0 and r > 0,
                '%d rmmod refused with events open, %d succeeded%s%s%s'
                % (r, n, ', %d with the count below the events open' % sh if sh else '',
                   ', %d not judged' % u if u else '',
                   ', %d checks not made (guest.log says why)' % k if k else ''))
            n = intval(counts, 'module_busy')
            add('module:released', n == 0,
                '' if n == 0 else '%d times still in use 40 s after every user '
                'closed, in phase 1 (a leaked module reference?)' % n)
            n = intval(counts, 'module_insmod_failed')
            add('module:insmod', n == 0, '' if n == 0 else '%d insmod failures' % n)
        for mode in ('openclose', 'inherit'):
            n = intval(counts, 'storm_%s_bad' % mode)
            # A torn pair that a re-read puts right is 6.1's own (base: 6
            # in 13644 reads); more than 3, and more than 1 per 100 events
            # opened, is not (the inherit storm opens a few dozen).
            torn = intval(counts, 'storm_%s_torn' % mode)
            opened = intval(counts, 'storm_%s_opened' % mode)
            why = []
            if n:
                why.append('%d reads with running > enabled that re-reads did not '
                           'put right, or of a bad shape' % n)
            if torn > 3 and torn * 100 > opened:
                why.append('%d torn time pairs for %d events opened (over 1%%)'
                           % (torn, opened))
            add('perfstorm:%s:reads' % mode, not why, '; '.join(why))
        rc = counts.get('stressng_rc', '')
        add('stressor:stress-ng', rc in ('0', '3', '4'),
            'exit status %s (0 ok, 3 out of resources, 4 not implemented)' % (rc or 'missing'))

    st = dict(re.findall(r'^=== STATE ([\w.]+)=(.*)$', guest, re.M))
    bad = 32 | 128 | 512 | 16384
    if 'tainted' not in st:
        add('kernel:state', False, 'the guest did not report the taint flags')
    else:
        t = int(st['tainted'] or 0)
        add('kernel:tainted', not t & bad, 'taint flags %d at the end' % t)
    add('kernel:lockdep', st.get('debug_locks', '').strip() != '0',
        'debug_locks=%s at the end' % st.get('debug_locks', '?').strip())
    m = re.findall(r'^GUEST-EXIT: (\d+)', guest, re.M)
    if not m:
        add('guest:exit', False, 'the guest did not finish: ' +
            ' | '.join(guest.splitlines()[-3:]))
    else:
        add('guest:exit', m[-1] == '0', 'guest script exit status ' + m[-1])

    failed = sum(1 for r in res if r[1] == 'FAIL')
    for key, verdict, reason in res:
        print('%-5s %s stress: %s%s' % (verdict, a.arch, key, '  # ' + reason if reason else ''))
    print('---- figures (%s)' % a.arch)
    for k in ('duration_s', 'duration_wanted_s', 'seed', 'phase2_at_s', 'phase2_min_s', 'syscalls_total',
              'trinity_syscalls', 'trinity_runs', 'trinity_wait_s',
              'trinity_children_cpu_ticks_at_stop', 'perf_event_open_calls',
              'perf_event_open_ok', 'storm_openclose_opened', 'storm_inherit_opened',
              'storm_openclose_torn', 'storm_inherit_torn',
              'perf_record_runs', 'hotplug_cycles', 'module_reloads',
              'module_unloads', 'module_state', 'module_end'):
        print('  %-34s %s' % (k, counts.get(k, '-')))
    seeds = sorted(k for k in st if k.startswith('trinity_seed'))
    if seeds:
        print('  trinity seeds: ' + ', '.join('%s=%s' % (k.split('.', 1)[-1], st[k]) for k in seeds))
    if other:
        print('  (%d kmemleak records outside perf, listed above, not failed)' % other)
    if a.json:
        json.dump({'arch': a.arch, 'counts': counts, 'failed': failed,
                   'results': [{'key': k, 'verdict': v, 'reason': r} for k, v, r in res]},
                  open(a.json, 'w'), indent=1)
    print('%s stress: %d passed, %d failed' % (a.arch, len(res) - failed, failed))
    return 1 if failed else 0


sys.exit(main())
