"""The issue's goals for the bench A/B report: each a row (goal, what was
measured, value, verdict), the verdict "yes", "within noise (+-N)", "NO"
or "not measured".  The noise of a value is half the repeats' spreads,
carried through the value's formula: a value over its bound by less is
"within noise".  Timings never fail a run: the rows only say."""
import re

# The PMUs that B has and B-few must not, for the "PMUs that exist" rows.
EXIST_EXTRA = {'test_hw1', 'test_hw2', 'test_dev'}
# A value this close over its bound is on it (the table shows 3 decimals).
ROUNDING = 0.0005


def param(key, name):
    """The value of NAME=... in a scenario key, or None."""
    m = re.search(r'(?:^| )%s=(\S+)' % re.escape(name), key)
    return m.group(1) if m else None


def verdict(x, thr, noise):
    """yes / within noise / NO for "x <= thr"; x None: not measured"""
    if x is None:
        return 'not measured'
    if x <= thr + ROUNDING:
        return 'yes'
    if noise is not None and x <= thr + noise:
        return 'within noise (+-%.3f)' % noise
    return 'NO'


def find(rows, scen, **want):
    for r in rows:
        if r['key'].split()[0] == scen and \
           all(param(r['key'], k) == v for k, v in want.items()):
            return r
    return None


def rnoise(r):
    if not r or r['spread_a'] is None or r['spread_b'] is None:
        return None
    return (r['spread_a'] + r['spread_b']) / 2


def ratio_goals(rows):
    """(1), (2): B/A of the pipe runs with events on one PMU."""
    out = []
    for mode, n in (('self', '(1)'), ('inherit', '(2)')):
        for pmus in ('sw', 'test_hw0'):
            r = find(rows, 'pipe', mode=mode, pmus=pmus)
            x = r['ratio'] if r else None
            out.append((n + ' <= 1.00', r['key'] if r else 'pipe mode=%s pmus=%s' % (mode, pmus),
                        x, verdict(x, 1.0, rnoise(r))))
    return out


def extra(r, none):
    """(value, noise) of B's extra cost over no events against A's."""
    if not (r and none) or None in (r['a'], r['b'], none['a'], none['b'], r['spread_a'],
                                    r['spread_b'], none['spread_a'], none['spread_b']) \
            or not (r['a'] > none['a'] and r['b'] > none['b']):
        return None, None
    x = (r['b'] - none['b']) / (r['a'] - none['a'])
    noise = ((r['a'] * r['spread_a'] + none['a'] * none['spread_a'])
             / (2 * (r['a'] - none['a'])) +
             (r['b'] * r['spread_b'] + none['b'] * none['spread_b'])
             / (2 * (r['b'] - none['b'])))
    return x, noise


def extra_goals(rows):
    """(1), (2), the design note's measure: the extra cost over no events."""
    out = []
    for mode, n in (('self', '(1)'), ('inherit', '(2)')):
        none = find(rows, 'pipe', mode=mode, pmus='none')
        for pmus in ('sw', 'test_hw0'):
            x, noise = extra(find(rows, 'pipe', mode=mode, pmus=pmus), none)
            out.append((n + ' extra over no events <= 1.00',
                        'pipe mode=%s pmus=%s minus pmus=none' % (mode, pmus),
                        x, verdict(x, 1.0, noise)))
    return out


def goals(rows):
    """the issue's goals over the A/B rows"""
    out = ratio_goals(rows) + extra_goals(rows) + lookup_goals(rows)
    for scen, n in (('cgroup', '(3)'), ('open', '(4)')):
        for r in rows:
            if r['key'].split()[0] == scen:
                out.append((n + ' <= 1.05', r['key'], r['ratio'],
                            verdict(r['ratio'], 1.05, rnoise(r))))
    # (5) on the patched side: the cost of a rotation of test_hw0 with
    # other PMUs' events against without.
    base = find(rows, 'rotate', pmu='test_hw0', others='none')
    for r in rows:
        if r['key'].startswith('rotate ') and base and r is not base and r['b'] and base['b']:
            x = r['b'] / base['b']
            noise = None
            if r['spread_b'] is not None and base['spread_b'] is not None:
                noise = (r['spread_b'] + base['spread_b']) / 2
            out.append(('(5) same cost (<= 1.05)', 'B: %s / others=none' % r['key'],
                        x, verdict(x, 1.05, noise)))
    return out


def lookup_goals(rows):
    """(6) the PMU lookup: B with 200 PMUs that take no event (registered
    before the CPU PMUs) against B with none, per event; A's slope beside
    it, not judged.  No rows without a lookup scenario (x86_64: no CPU
    PMU), "not measured" for an event without both rows."""
    out = []
    if not any(r['key'].startswith('lookup ') for r in rows):
        return out
    for pmu in ('raw', 'hw', 'nopmu'):
        r0, r200 = find(rows, 'lookup', pmu=pmu, extra='0'), find(rows, 'lookup', pmu=pmu, extra='200')
        x = noise = xa = None
        if r0 and r200 and r0['b'] and r200['b'] is not None:
            x = r200['b'] / r0['b']
            if r0['spread_b'] is not None and r200['spread_b'] is not None:
                noise = (r0['spread_b'] + r200['spread_b']) / 2
        if r0 and r200 and r0['a'] and r200['a'] is not None:
            xa = r200['a'] / r0['a']
        out.append(('(6) lookup flat in the PMUs (<= 1.02)',
                    'B: lookup pmu=%s extra=200 / extra=0 (A: %s)'
                    % (pmu, '%.3f' % xa if xa is not None else 'not measured'),
                    x, verdict(x, 1.02, noise)))
    return out


def exist_goal(key):
    """The goal number of a pipe run the "PMUs that exist" rows judge."""
    mode = param(key, 'mode')
    if key.split()[0] != 'pipe' or mode not in ('self', 'inherit'):
        return None
    return '(1)' if mode == 'self' else '(2)'


def goals_exist(erows, extra_pmus):
    """(1), (2): the cost grows with the PMUs that have events, not with
    the PMUs that exist: B with all PMUs registered against B with fewer,
    where both have the same events.  Not measured unless B-few really
    lacked the PMUs of EXIST_EXTRA."""
    out = []
    for r in erows:
        n = exist_goal(r['key'])
        if n is None or param(r['key'], 'pmus') == 'none':
            continue
        what = 'B: %s, all PMUs / test_hw0 alone' % r['key']
        goal = n + ' not with the PMUs that exist (<= 1.00)'
        if not EXIST_EXTRA <= extra_pmus:
            out.append((goal, what, None, 'not measured (B-few has %s too)'
                        % ', '.join(sorted(EXIST_EXTRA - extra_pmus))))
            continue
        noise = None
        if r['spread_few'] is not None and r['spread_all'] is not None:
            noise = (r['spread_few'] + r['spread_all']) / 2
        out.append((goal, what, r['ratio'], verdict(r['ratio'], 1.0, noise)))
    return out


def goals_mainline(rows):
    """(M) every scenario mainline 6.12 ran: patched/M at most 1.00, over
    no events where the run has a no-event twin (bench.no_events()), else
    as it is; the pipe run with no event has no perf work to compare."""
    out = []
    for r in rows:
        if 'm' not in r or (r['key'].startswith('pipe ') and param(r['key'], 'pmus') == 'none'):
            continue
        noise = None
        if r['spread_b'] is not None and r['spread_m'] is not None:
            noise = (r['spread_b'] + r['spread_m']) / 2
        if r.get('over_bm') is not None:
            out.append(('(M) patched/6.12 over no events <= 1.00', r['key'], r['over_bm'],
                        verdict(r['over_bm'], 1.0, None)))
        else:
            out.append(('(M) patched/6.12 <= 1.00', r['key'], r['ratio_bm'],
                        verdict(r['ratio_bm'], 1.0, noise)))
    return out


def goals_23(rows):
    """Issue 23's goals over the A/B rows: every scenario at most 1.02;
    the context switch with one PMU's events, perf stat's default set and
    the tick with frequency events at most 1.00; the tick rows' spread
    under 2% on both sides."""
    out = []
    for r in rows:
        scen, pmus = r['key'].split()[0], param(r['key'], 'pmus')
        if r['a'] is None or r['b'] is None:
            continue
        out.append(('(23) <= 1.02', r['key'], r['ratio'], verdict(r['ratio'], 1.02, rnoise(r))))
        # one PMU's events, or perf stat's set (stat, stat-hw: no comma)
        if scen == 'pipe' and pmus not in (None, 'none') and ',' not in pmus:
            out.append(('(23) one PMU or perf stat, context switch <= 1.00', r['key'],
                        r['ratio'], verdict(r['ratio'], 1.0, rnoise(r))))
        if scen == 'tick':
            if param(r['key'], 'mode') == 'freq':
                out.append(('(23) tick with frequency events <= 1.00', r['key'], r['ratio'],
                            verdict(r['ratio'], 1.0, rnoise(r))))
            sp = None if None in (r['spread_a'], r['spread_b']) else \
                max(r['spread_a'], r['spread_b'])
            out.append(('(23) tick spread < 0.02', r['key'], sp, verdict(sp, 0.02, None)))
    return out
