"""The stress judge on made-up logs: kmemleak attribution, every rule of
the stress summary, the end state and the figures."""
import os
import tempfile
import unittest

from workshop.judge import stress, stress_rules

COUNTS = {
    'duration_s': '180', 'duration_wanted_s': '180', 'seed': '42', 'syscalls_total': '1000',
    'hotplug_cycles': '2', 'perf_record_runs': '1', 'storm_openclose_opened': '500',
    'storm_inherit_opened': '40', 'storm_openclose_torn': '1', 'storm_inherit_torn': '0',
    'devev_runs': '1', 'cgroup_runs': '1', 'trinity_syscalls': '100', 'module_reloads': '2',
    'module_unloads': '2', 'module_state': 'loaded', 'module_end': 'unloaded',
    'module_rmmod_refused_with_events': '1', 'stressng_rc': '0', 'early_stop': 'none',
    'pmu_unbinds': '3', 'pmu_unbinds_with_events': '2', 'unbind_rmmod': 'ok',
    'unbind_rmmod_fds': '8',
}
STATE = {'tainted': '262144', 'debug_locks': '1'}
LEAK = '''unreferenced object 0xffff888004b5e000 (size 1024):
  comm "perf", pid 123, jiffies 4294937296 (age 30.120s)
  hex dump (first 32 bytes):
    00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00  ................
  backtrace:
    [<ffffffff8113e5a5>] __kmem_cache_alloc_node+0x1b5/0x2f0
    [<ffffffff811a2b3c>] kmalloc_trace+0x26/0x90
    [<ffffffff81234567>] %s+0x1a/0x500
    [<ffffffff81234999>] __do_sys_perf_event_open+0x1c0/0x1000'''
OTHER = '''unreferenced object 0xffff888007000000 (size 64):
  comm "swapper/0", pid 1, jiffies 4294892296 (age 80.1s)
  backtrace:
    [<ffffffff8113e5a5>] __kmem_cache_alloc_node+0x1b5/0x2f0
    [<ffffffff81400000>] acpi_os_map_memory+0x20/0x100'''


def guest_log(counts=None, drop=(), state=None, kmem=None, extra='', exit_line='GUEST-EXIT: 0',
              summary=True):
    c = dict(COUNTS, **(counts or {}))
    st = dict(STATE, **(state or {}))
    out = ['=== STATE seed=42', '=== STATE test_pmu=1']
    kmem = kmem if kmem is not None else {'boot': ('', 0), 'end': ('', 0)}
    for tag in ('boot', 'end'):
        if tag in kmem:
            body, rc = kmem[tag]
            out.append('=== BEGIN kmemleak %s' % tag)
            out += [body] if body else []
            if rc is not None:
                out.append('=== END kmemleak %s rc=%d' % (tag, rc))
    if summary:
        out.append('=== BEGIN stress-summary counts')
        out += ['%s=%s' % kv for kv in c.items() if kv[0] not in drop]
        out.append('=== END stress-summary counts rc=0')
    out += [extra] if extra else []
    out += ['=== STATE trinity_seed.1=99']
    out += ['=== STATE %s=%s' % kv for kv in st.items() if kv[1] is not None]
    out += [exit_line] if exit_line else []
    return '\n'.join(out) + '\n'


def judge(guest=None, console='[    0.0] Linux version 6.1\n', base=False, host_stop=None,
          decoder=None, **kw):
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, 'console.log'), 'w') as f:
            f.write(console)
        with open(os.path.join(d, 'guest.log'), 'w') as f:
            f.write(guest if guest is not None else guest_log(**kw))
        if host_stop is not None:
            with open(os.path.join(d, 'host-stop'), 'w') as f:
                f.write(host_stop)
        return stress.judge(d, 'x86_64', decoder=decoder, base=base)


def verdicts(res):
    return {r.key: r.verdict for r in res}


def failed(res):
    return sorted(r.key for r in res if r.verdict == 'FAIL')


class Clean(unittest.TestCase):
    def test_clean_run(self):
        res, fig = judge()
        self.assertEqual(failed(res), [])
        self.assertEqual(list(verdicts(res)), [
            'kernel:log', 'kmemleak:boot', 'kmemleak:end', 'guest:early-stop',
            'stressor:hotplug', 'stressor:perf record', 'stressor:open/close storm',
            'stressor:inherit storm', 'stressor:device-PMU events', 'stressor:cgroup events',
            'stressor:trinity', 'stressor:module load/unload', 'module:rmmod-with-events',
            'module:released', 'module:insmod', 'stressor:pmu unbind/bind',
            'unbind:refused', 'unbind:rmmod-after-unbind', 'perfstorm:openclose:reads',
            'perfstorm:inherit:reads', 'stressor:stress-ng', 'kernel:tainted', 'kernel:lockdep',
            'guest:exit'])
        self.assertEqual(fig['hotplug_cycles'], '2')
        self.assertEqual(fig['phase2_at_s'], '-')
        self.assertEqual(fig['trinity seeds'], '1=99')
        self.assertNotIn('kmemleak records outside perf', fig)
        self.assertEqual(list(fig)[:len(stress.FIGURES)], list(stress.FIGURES))


class Kernel(unittest.TestCase):
    def test_splat(self):
        console = ('[   50.0] ------------[ cut here ]------------\n'
                   '[   50.1] WARNING: CPU: 0 PID: 1 at kernel/events/core.c:1 x+0x1/0x2\n'
                   '[   50.2] ---[ end trace 0 ]---\n')
        res, _ = judge(console=console, decoder=lambda tr: 'decoded')
        self.assertEqual(failed(res), ['kernel:WARNING: CPU: 0 PID: 1 at kernel/events/core.c:1 '
                                       'x+0x1/0x2'])
        self.assertNotIn('kernel:log', verdicts(res))
        self.assertEqual(res[0].detail, 'decoded')

    def test_host_stop(self):
        res, _ = judge(host_stop='WARNING: at x\n')
        self.assertEqual(failed(res), ['host:stop'])
        self.assertIn('WARNING: at x', [r for r in res if r.key == 'host:stop'][0].reason)

    def test_taint(self):
        for t, bad in (('0', False), ('262144', False), ('', False), ('512', True),
                       ('32', True), ('128', True), ('16384', True), ('640', True)):
            with self.subTest(t):
                res, _ = judge(state={'tainted': t})
                self.assertEqual(failed(res), ['kernel:tainted'] if bad else [])

    def test_no_state(self):
        res, _ = judge(state={'tainted': None})
        self.assertEqual(failed(res), ['kernel:state'])

    def test_lockdep(self):
        res, _ = judge(state={'debug_locks': '0'})
        self.assertEqual(failed(res), ['kernel:lockdep'])
        res, _ = judge(state={'debug_locks': None})
        self.assertEqual(failed(res), [])

    def test_guest_exit(self):
        res, _ = judge(exit_line='GUEST-EXIT: 1')
        self.assertEqual(failed(res), ['guest:exit'])
        res, _ = judge(exit_line='')
        self.assertEqual(failed(res), ['guest:exit'])
        self.assertIn('did not finish', [r for r in res if r.key == 'guest:exit'][0].reason)


class Kmemleak(unittest.TestCase):
    def test_perf_object_fails(self):
        res, fig = judge(kmem={'boot': (LEAK % 'perf_event_alloc', 0), 'end': ('', 0)})
        self.assertEqual(failed(res), ['kmemleak:boot:perf_event_alloc'])
        r = [x for x in res if x.key == 'kmemleak:boot:perf_event_alloc'][0]
        self.assertIn('backtrace:', r.detail)
        self.assertNotIn('kmemleak:boot', verdicts(res))

    def test_perf_function_names(self):
        for fn, perf in (('perf_event_alloc', True), ('__perf_event_init', True),
                         ('alloc_perf_context', True), ('find_get_pmu_context', True),
                         ('inherit_event', True), ('tpmu_add', True), ('tdev_start', True),
                         ('rb_alloc', True), ('register_user_hw_breakpoint', True),
                         ('x86_perf_event_set_period', True), ('armv8pmu_enable', True),
                         ('arm_pmu_alloc', True), ('acpi_os_map_memory', False),
                         ('kmalloc_trace', False), ('do_sys_open', False)):
            with self.subTest(fn):
                res, _ = judge(kmem={'boot': ('', 0), 'end': (LEAK.replace(
                    '__do_sys_perf_event_open', 'do_syscall_64') % fn, 0)})
                self.assertEqual(failed(res), ['kmemleak:end:' + fn] if perf else [])

    def test_not_perf_listed_not_failed(self):
        res, fig = judge(kmem={'boot': (OTHER, 0), 'end': ('', 0)})
        self.assertEqual(failed(res), [])
        r = [x for x in res if x.key == 'kmemleak:boot'][0]
        self.assertEqual(r.reason, 'no perf objects (1 records)')
        self.assertIn('not perf (not failed): unreferenced object 0xffff888007000000', r.detail)
        self.assertIn('acpi_os_map_memory', r.detail)
        self.assertEqual(fig['kmemleak records outside perf'], '1 (listed, not failed)')

    def test_boot_object_not_counted_again(self):
        leak = LEAK % 'perf_event_alloc'
        res, fig = judge(kmem={'boot': (leak + '\n' + OTHER, 0), 'end': (leak + '\n' + OTHER, 0)})
        self.assertEqual(failed(res), ['kmemleak:boot:perf_event_alloc'])
        self.assertEqual(verdicts(res)['kmemleak:end'], 'PASS')
        self.assertEqual(fig['kmemleak records outside perf'], '1 (listed, not failed)')

    def test_new_object_at_the_end(self):
        leak = LEAK % 'perf_event_alloc'
        res, _ = judge(kmem={'boot': (leak, 0),
                             'end': (leak.replace('(size 1024)', '(size 512)'), 0)})
        self.assertEqual(failed(res), ['kmemleak:boot:perf_event_alloc',
                                       'kmemleak:end:perf_event_alloc'])

    def test_failed_scan(self):
        res, _ = judge(kmem={'boot': ('no /sys/kernel/debug/kmemleak', 2), 'end': ('', 0)})
        self.assertEqual(failed(res), ['kmemleak:boot'])
        self.assertIn('scan failed (rc 2): no /sys/kernel/debug/kmemleak',
                      [r for r in res if r.key == 'kmemleak:boot'][0].reason)

    def test_unfinished_scan(self):
        res, _ = judge(kmem={'boot': ('', 0), 'end': ('', None)}, summary=False)
        self.assertIn('kmemleak:end', failed(res))
        self.assertIn('rc None', [r for r in res if r.key == 'kmemleak:end'][0].reason)

    def test_missing_scan(self):
        res, _ = judge(kmem={'boot': ('', 0)})
        self.assertEqual(failed(res), ['kmemleak:end'])
        self.assertEqual([r for r in res if r.key == 'kmemleak:end'][0].reason,
                         'no kmemleak scan in the guest log')


class Summary(unittest.TestCase):
    def test_no_summary(self):
        res, fig = judge(summary=False)
        self.assertEqual(failed(res), ['guest:summary'])
        self.assertEqual(fig['hotplug_cycles'], '-')

    def test_each_stressor_must_do_something(self):
        for what, key in stress_rules.DID:
            for how in ('zero', 'missing'):
                with self.subTest(key, how=how):
                    kw = {'drop': (key,)} if how == 'missing' else {'counts': {key: '0'}}
                    res, _ = judge(**kw)
                    self.assertEqual(failed(res), ['stressor:' + what])

    def test_stressor_errors_in_reason(self):
        res, _ = judge(counts={'hotplug_cycles': '0', 'hotplug_error_1': 'cpu1 busy'})
        r = [x for x in res if x.key == 'stressor:hotplug'][0]
        self.assertEqual(r.reason, 'hotplug_cycles=0 (cpu1 busy)')

    def test_repeated_keys_add_up(self):
        extra = ('=== BEGIN stress-summary counts\nperf_record_runs=2\nperf_record_runs=3\n'
                 'module_state=loaded\nmodule_state=pinned\n=== END stress-summary counts rc=0')
        c = stress_rules.summary([('stress-summary', 'counts', extra.splitlines()[1:-1], 0)])
        self.assertEqual(c, {'perf_record_runs': '5', 'module_state': 'pinned'})

    def test_last_summary_counts(self):
        g = guest_log(counts={'hotplug_cycles': '0'}).replace(
            'GUEST-EXIT', '=== BEGIN stress-summary counts\n=== END stress-summary counts rc=0\n'
            'GUEST-EXIT')
        res, _ = judge(guest=g)
        self.assertIn('stressor:hotplug', failed(res))
        self.assertIn('stressor:stress-ng', failed(res))

    def test_early_stop(self):
        res, _ = judge(counts={'early_stop': 'tainted 512'})
        self.assertEqual(failed(res), ['guest:early-stop'])
        res, _ = judge(drop=('early_stop',))
        self.assertEqual(failed(res), [])

    def test_unbind(self):
        """An unbind made with events open is required; a refused unbind
        or bind fails; the plain base has none to make."""
        res, _ = judge(counts={'pmu_unbinds_with_events': '0'})
        self.assertEqual(failed(res), ['stressor:pmu unbind/bind'])
        res, _ = judge(drop=('pmu_unbinds', 'pmu_unbinds_with_events'))
        self.assertEqual(failed(res), ['stressor:pmu unbind/bind'])
        for key in ('pmu_unbind_failed', 'pmu_bind_failed'):
            with self.subTest(key):
                res, _ = judge(counts={key: '1'})
                self.assertEqual(failed(res), ['unbind:refused'])
        self.assertEqual(stress_rules.unbind({}, True)[0][1], True)
        for rm in ('refused', 'unjudged', 'skipped'):
            with self.subTest(rm):
                res, _ = judge(counts={'unbind_rmmod': rm})
                self.assertEqual(failed(res), ['unbind:rmmod-after-unbind'])
        res, _ = judge(drop=('unbind_rmmod',))
        self.assertEqual(failed(res), ['unbind:rmmod-after-unbind'])

    def test_stress_ng_rc(self):
        for rc, ok in (('0', True), ('3', True), ('4', True), ('1', False), ('2', False),
                       ('', False)):
            with self.subTest(rc):
                res, _ = judge(counts={'stressng_rc': rc})
                self.assertEqual(failed(res), [] if ok else ['stressor:stress-ng'])
        res, _ = judge(drop=('stressng_rc',))
        self.assertEqual(failed(res), ['stressor:stress-ng'])
        self.assertIn('exit status missing', [r for r in res if r.key == 'stressor:stress-ng'][0].reason)
