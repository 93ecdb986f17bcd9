"""The stress run's figures ("=== BEGIN stress-summary counts", key=value
lines) and their rules: a stressor that did nothing fails (the harness is
broken, not the kernel), and so do rmmod succeeding with events open, the
module staying busy with its users gone, an unbind never made with events
open or an unbind or bind refused, an impossible group read in perfstorm,
an early stop (taint or lockdep off in the guest)."""
import re

LINE = re.compile(r'^(\w[\w.-]*)=(.*)$')
# Each stressor must have done something: (what, the count that says so).
DID = (('hotplug', 'hotplug_cycles'), ('perf record', 'perf_record_runs'),
       ('open/close storm', 'storm_openclose_opened'),
       ('inherit storm', 'storm_inherit_opened'),
       ('device-PMU events', 'devev_runs'), ('cgroup events', 'cgroup_runs'),
       ('trinity', 'trinity_syscalls'))
# stress-ng's exit statuses that are not failures: 0 ok, 3 out of
# resources, 4 not implemented.
STRESSNG_OK = ('0', '3', '4')
# A torn time pair that a re-read puts right is 6.1's own (base: 6 in
# 13644 reads); more than TORN_MAX, and more than 1 per TORN_PER events
# opened, is not (the inherit storm opens a few dozen).
TORN_MAX = 3
TORN_PER = 100


def summary(secs):
    """{key: value} of the last stress-summary block, None when there is
    none.  Two perf record loops report the same keys: numbers add up."""
    summ = [s for s in secs if s[0] == 'stress-summary']
    if not summ:
        return None
    counts = {}
    for line in summ[-1][2]:
        m = LINE.match(line.strip())
        if not m:
            continue
        k, v = m.groups()
        if k in counts and counts[k].isdigit() and v.isdigit():
            v = str(int(counts[k]) + int(v))
        counts[k] = v
    return counts


def intval(counts, key):
    try:
        return int(counts.get(key, '') or 0)
    except ValueError:
        return 0


def stressors(counts):
    out = []
    for what, key in DID:
        n = intval(counts, key)
        err = [v for k, v in counts.items() if k.startswith(key.split('_')[0] + '_error')]
        out.append(('stressor:' + what, n > 0,
                    '%s=%d%s' % (key, n, (' (' + ', '.join(err) + ')') if err else '')))
    return out


def module(counts, no_test_pmus):
    """The module load/unload loop.  no_test_pmus: the plain base (BASE=1)
    said it has no test PMUs; only then is their absence not a failure."""
    if no_test_pmus:
        return [('stressor:module load/unload', True,
                 'skipped: no test PMU driver in this kernel (the plain base)')]
    if counts.get('module_state') == 'builtin-or-absent':
        return [('stressor:module load/unload', False,
                 'no test PMU module in the guest (CONFIG_TEST_PERF_PMU=m?)')]
    reloads = intval(counts, 'module_reloads')
    out = [('stressor:module load/unload', reloads > 0, 'module_reloads=%d' % reloads)]
    # The loop skips the check when perf stat's events did not open: at
    # least one check must have been made.  An rmmod tried after perf stat
    # closed its events on its own is not judged (module_rmmod_unjudged).
    # A module count below the number of perf stat's open events
    # (module_refcnt_short) fails as an rmmod let through does: Debian's
    # rmmod refuses from that count alone.
    n = intval(counts, 'module_rmmod_ok_with_events')
    r = intval(counts, 'module_rmmod_refused_with_events')
    u = intval(counts, 'module_rmmod_unjudged')
    k = intval(counts, 'module_rmmod_check_skipped')
    sh = intval(counts, 'module_refcnt_short')
    out.append(('module:rmmod-with-events', n == 0 and sh == 0 and r > 0,
                '%d rmmod refused with events open, %d succeeded%s%s%s'
                % (r, n, ', %d with the count below the events open' % sh if sh else '',
                   ', %d not judged' % u if u else '',
                   ', %d checks not made (guest.log says why)' % k if k else '')))
    n = intval(counts, 'module_busy')
    out.append(('module:released', n == 0,
                '' if n == 0 else '%d times still in use 40 s after every user '
                'closed, in phase 1 (a leaked module reference?)' % n))
    n = intval(counts, 'module_insmod_failed')
    out.append(('module:insmod', n == 0, '' if n == 0 else '%d insmod failures' % n))
    return out


def unbind(counts, no_test_pmus):
    """The unbind/bind loop (guest/stress/unbind.sh): at least one unbind
    made with events open on the PMU, and no unbind or bind refused."""
    if no_test_pmus:
        return [('stressor:pmu unbind/bind', True,
                 'skipped: no test PMU driver in this kernel (the plain base)')]
    n = intval(counts, 'pmu_unbinds')
    live = intval(counts, 'pmu_unbinds_with_events')
    out = [('stressor:pmu unbind/bind', live > 0,
            '%d unbinds, %d with events open' % (n, live))]
    bad = intval(counts, 'pmu_unbind_failed') + intval(counts, 'pmu_bind_failed')
    out.append(('unbind:refused', bad == 0,
                '' if bad == 0 else '%d unbinds or binds refused (guest.log says why)' % bad))
    # At the end: every PMU of the module unbound under perf stat's open
    # events, rmmod must succeed (the revoked events hold no module
    # reference), with perf stat still holding them.
    rm = counts.get('unbind_rmmod', 'missing')
    out.append(('unbind:rmmod-after-unbind', rm == 'ok',
                'rmmod with %s revoked events open: %s' % (counts.get('unbind_rmmod_fds', '?'), rm)))
    return out


def torn_too_many(torn, opened):
    return torn > TORN_MAX and torn * TORN_PER > opened


def reads(counts):
    out = []
    for mode in ('openclose', 'inherit'):
        n = intval(counts, 'storm_%s_bad' % mode)
        torn = intval(counts, 'storm_%s_torn' % mode)
        opened = intval(counts, 'storm_%s_opened' % mode)
        why = []
        if n:
            why.append('%d reads with running > enabled that re-reads did not '
                       'put right, or of a bad shape, or opens that had to fail' % n)
        if torn_too_many(torn, opened):
            why.append('%d torn time pairs for %d events opened (over 1%%)' % (torn, opened))
        out.append(('perfstorm:%s:reads' % mode, not why, '; '.join(why)))
    return out


def judge(counts, no_test_pmus=False):
    """[(key, ok, reason)] of the figures."""
    early = counts.get('early_stop', 'none')
    out = [('guest:early-stop', early == 'none',
            '' if early == 'none' else 'the guest stopped early: ' + early)]
    out += stressors(counts) + module(counts, no_test_pmus) + unbind(counts, no_test_pmus)
    out += reads(counts)
    rc = counts.get('stressng_rc', '')
    out.append(('stressor:stress-ng', rc in STRESSNG_OK,
                'exit status %s (0 ok, 3 out of resources, 4 not implemented)'
                % (rc or 'missing')))
    return out
