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
        line = qemu.cmdline(b, {'module': 'test_perf_pmu_ko', 'modparams': 'nr_hw=3 cpus=0,0x3,0xc'})
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
