"""The guest's side of the protocol, on the host: guest/lib.sh reads the
kernel command line that workshop/qemu.py writes, and gets back every
value the host meant (the bad-taint mask among them)."""
import os
import subprocess
import tempfile
import unittest

from workshop import conf, qemu


def guest_vars(cmdline, names):
    with tempfile.NamedTemporaryFile('w', suffix='.cmdline', delete=False) as f:
        f.write(cmdline + '\n')
    try:
        script = '. guest/lib.sh; ' + '; '.join('printf "%%s\\n" "$%s"' % n for n in names)
        out = subprocess.run(['bash', '-c', script], cwd=conf.TOP, capture_output=True,
                             text=True, env=dict(os.environ, PERFCTX_CMDLINE_FILE=f.name),
                             check=True).stdout
    finally:
        os.unlink(f.name)
    return dict(zip(names, out.split('\n')))


class Protocol(unittest.TestCase):
    def test_host_to_guest(self):
        b = {'mode': 'stress', 'test_pmu': 'stress', 'cmdline': 'kmemleak=on',
             'args': {'duration': 180, 'modphase': '', 'seed': 42}}
        line = qemu.cmdline(b, conf.arch('x86_64'),
                            {'module': 'test_perf_pmu_ko',
                             'modparams': 'nr_hw=3 cpus=0,0x3,0xc'})
        v = guest_vars(line, ['PERFCTX_MODE', 'PERFCTX_DURATION', 'PERFCTX_SEED',
                              'PERFCTX_MODPHASE', 'PERFCTX_MODULE', 'PERFCTX_MODPARAMS',
                              'PERFCTX_BADTAINT'])
        self.assertEqual(v, {'PERFCTX_MODE': 'stress', 'PERFCTX_DURATION': '180',
                             'PERFCTX_SEED': '42', 'PERFCTX_MODPHASE': '',
                             'PERFCTX_MODULE': 'test_perf_pmu_ko',
                             'PERFCTX_MODPARAMS': 'nr_hw=3 cpus=0,0x3,0xc',
                             'PERFCTX_BADTAINT': str(conf.BAD_TAINT)})
        self.assertIn('kmemleak=on', line)
        self.assertIn(conf.profiles()['test_pmu']['stress'], line)
        self.assertNotIn('perfctx.modphase', line)      # empty: the guest's default

    def test_bench_test_pmus_have_the_a_sides_callbacks(self):
        # make bench's boots give the test PMUs the context callbacks
        # that 6.1's driver gives them on the arch (config/arches/)
        b = {'mode': 'bench', 'test_pmu': 'bench'}
        for name, cbs in (('arm64', '0'), ('x86_64', '0x1')):
            a = conf.arch(name)
            self.assertEqual(a.a_side_ctx_cbs, cbs)
            line = qemu.cmdline(b, a=a)
            self.assertIn(' test_perf_pmu.ctx_cbs=%s ' % cbs, line)
            self.assertNotIn('@', line)

    def test_other_words_and_bad_keys_left_alone(self):
        v = guest_vars('console=ttyS0 perfctx.mode=check perfctx.bad-key=1 perfctx.x=*',
                       ['PERFCTX_MODE', 'PERFCTX_X', 'GUEST_CMDLINE'])
        self.assertEqual(v['PERFCTX_MODE'], 'check')
        self.assertEqual(v['PERFCTX_X'], '*')
        self.assertTrue(v['GUEST_CMDLINE'].startswith('console=ttyS0'))

    def test_the_environment_does_not_leak_in(self):
        os.environ['PERFCTX_FILTER'] = 'full'
        try:
            self.assertEqual(guest_vars('perfctx.mode=check', ['PERFCTX_FILTER'])['PERFCTX_FILTER'], '')
        finally:
            del os.environ['PERFCTX_FILTER']


class Topology(unittest.TestCase):
    """-smp: the check guests' two packages, and one where they do not fit."""
    def test_sockets(self):
        boot = conf.profiles()['boot']
        self.assertEqual(qemu.smp(boot), '4,sockets=2,cores=2,threads=1')
        self.assertEqual(qemu.smp(dict(boot, smp=1)), '1')     # the bench
        self.assertEqual(qemu.smp(dict(boot, smp=3)), '3')
        self.assertEqual(qemu.smp({'smp': 4}), '4')


def check_mode(filt, env=None, want=('=== BEGIN perftest', '=== MISSING')):
    """guest/modes/check.sh on the host, its paths moved into a temporary
    directory and perf faked: the list is tests/fixtures/guest/'s; two
    kselftests, perf_events/ok and kvm/vm, that say their names."""
    fix = os.path.join(conf.TOP, 'tests', 'fixtures', 'guest')
    with tempfile.TemporaryDirectory() as d:
        os.makedirs(os.path.join(d, 'guest'))
        for t in ('perf_events/ok', 'kvm/vm'):
            os.makedirs(os.path.dirname(os.path.join(d, 'kselftest', t)), exist_ok=True)
            with open(os.path.join(d, 'kselftest', t), 'w') as f:
                f.write('#!/bin/sh\necho %s\n' % t)
            os.chmod(os.path.join(d, 'kselftest', t), 0o755)
        with open(os.path.join(d, 'guest', 'lib.sh'), 'w') as f:
            f.write('state_end() { :; }\n'
                    'perf() { if [ "$2" = list ]; then cat %s/perf-test-list.txt; '
                    'else echo "ran perf $*"; fi; }\n'
                    'timeout() { shift; "$@"; }\n'
                    'uname() { echo x86_64; }\n' % fix)
        for n in ('perf-tests-core.txt',):
            with open(os.path.join(fix, n)) as a, open(os.path.join(d, 'guest', n), 'w') as b:
                b.write(a.read())
        open(os.path.join(d, 'guest', 'kselftests-full-only.txt'), 'w').close()
        with open(os.path.join(conf.TOP, 'guest', 'modes', 'check.sh')) as f:
            script = f.read().replace('/guest/', d + '/guest/').replace('/kselftest/', d + '/kselftest/')
        out = subprocess.run(['bash', '-c', script], capture_output=True, text=True,
                             env=dict(os.environ, PERFCTX_FILTER=filt, **(env or {}))).stdout
    return [x for x in out.splitlines() if x.startswith(want)]


class CheckMode(unittest.TestCase):
    def test_core_list(self):
        # uname -m is faked as x86_64, which leaves out "x86 bp modify"
        out = check_mode('core')
        self.assertEqual(out, ['=== MISSING perftest no such test',
                               '=== BEGIN perftest 2 Detect openat syscall event',
                               '=== BEGIN perftest 23 Watchpoint',
                               '=== BEGIN perftest 24 Number of exit events of a simple workload'])

    def test_kselftests_chosen(self):
        ks = ('=== BEGIN kselftest', '=== STATE perftests')
        self.assertEqual(check_mode('core', want=ks), ['=== BEGIN kselftest perf_events/ok'])
        self.assertEqual(check_mode('core', {'PERFCTX_KSELFTESTS': 'kvm/vm ok',
                                             'PERFCTX_PERFTESTS': 'none'}, ks),
                         ['=== BEGIN kselftest kvm/vm', '=== BEGIN kselftest perf_events/ok',
                          '=== STATE perftests=none'])
        self.assertEqual(check_mode('core', {'PERFCTX_KSELFTESTS': 'vm'}, ks), [])

    def test_full_runs_every_test(self):
        out = check_mode('full')
        self.assertEqual([x.split()[3] for x in out], ['1', '2', '23', '24', '70', '99'])
