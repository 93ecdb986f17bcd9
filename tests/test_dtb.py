"""workshop/dtb.py: the big-little edit of QEMU's virt tree (a real dump,
tests/fixtures/qemu-virt-gicv3-smp4.dts: QEMU 7.2, -M virt,gic-version=3
-cpu max -smp 4 -m 2G)."""
import os
import re
import shutil
import subprocess
import tempfile
import unittest

from workshop import dtb

FIX = os.path.join(os.path.dirname(__file__), 'fixtures', 'qemu-virt-gicv3-smp4.dts')
SPEC = {'edit': 'big-little',
        'pmus': [{'compatible': 'arm,cortex-a53-pmu', 'cpus': [0, 1]},
                 {'compatible': 'arm,cortex-a72-pmu', 'cpus': [2, 3]}]}


def dts():
    with open(FIX) as f:
        return f.read()


class BigLittle(unittest.TestCase):
    def setUp(self):
        self.out = dtb.big_little(dts(), SPEC)
        self.lines = self.out.splitlines()

    def test_four_cells_everywhere(self):
        n = 0
        for l in self.lines:
            m = re.match(r'\s*interrupts = (<[^>]*>);', l)
            if m:
                n += 1
                self.assertEqual(len(dtb.cells(m.group(1))) % 4, 0, l)
        self.assertGreater(n, 30)
        ic = [l for l in self.lines if '#interrupt-cells = <0x04>' in l]
        self.assertEqual(len(ic), 1)

    def test_interrupt_map_entries_of_eleven(self):
        m = [l for l in self.lines if 'interrupt-map = ' in l][0]
        c = dtb.cells(m)
        self.assertEqual(len(c), 16 * 11)
        for k in range(0, len(c), 11):
            self.assertEqual(c[k + 4], 0x8005)     # the GIC
            self.assertEqual(c[k + 10], 0)         # no partition

    def test_pmus_on_partitions(self):
        self.assertFalse(any(re.match(r'\s*pmu \{', l) for l in self.lines))
        a53 = dtb.node_span(self.lines, 'cortex-a53-pmu')
        a72 = dtb.node_span(self.lines, 'cortex-a72-pmu')
        i53 = dtb.cells(self.lines[dtb.prop(self.lines, a53, 'interrupts')])
        i72 = dtb.cells(self.lines[dtb.prop(self.lines, a72, 'interrupts')])
        self.assertEqual(i53[:3], [1, 7, 4])
        self.assertEqual(i72[:3], [1, 7, 4])
        parts = dtb.node_span(self.lines, 'ppi-partitions')
        g = dtb.gic(self.lines)
        self.assertTrue(g[0] < parts[0] < parts[1] < g[1], 'partitions under the GIC')
        for n, (ph, cpus) in enumerate([(i53[3], [0x8004, 0x8003]), (i72[3], [0x8002, 0x8001])]):
            p = dtb.node_span(self.lines, 'interrupt-partition-%d' % n)
            self.assertEqual(dtb.cells(self.lines[dtb.prop(self.lines, p, 'phandle')]), [ph])
            self.assertEqual(dtb.cells(self.lines[dtb.prop(self.lines, p, 'affinity')]), cpus)
        # new phandles collide with none of QEMU's
        old = dtb.cells(' '.join(l for l in dts().splitlines() if 'phandle = ' in l))
        self.assertFalse({i53[3], i72[3]} & set(old))

    @unittest.skipUnless(shutil.which('dtc'), 'no dtc')
    def test_compiles(self):
        with tempfile.TemporaryDirectory() as d:
            src = os.path.join(d, 't.dts')
            with open(src, 'w') as f:
                f.write(self.out)
            p = subprocess.run(['dtc', '-q', '-I', 'dts', '-O', 'dtb', '-o', os.path.join(d, 't.dtb'),
                                src], capture_output=True, text=True)
            self.assertEqual(p.returncode, 0, p.stderr)


class Refusals(unittest.TestCase):
    def test_gic_v2(self):
        with self.assertRaisesRegex(ValueError, 'GICv3'):
            dtb.big_little(dts().replace('"arm,gic-v3"', '"arm,cortex-a15-gic"'), SPEC)

    def test_cpu_missing(self):
        spec = dict(SPEC, pmus=[{'compatible': 'arm,cortex-a53-pmu', 'cpus': [0, 4]}])
        with self.assertRaisesRegex(ValueError, 'cpu@'):
            dtb.big_little(dts(), spec)

    def test_pmu_not_a_ppi(self):
        with self.assertRaisesRegex(ValueError, 'not a PPI'):
            dtb.big_little(dts().replace('interrupts = <0x01 0x07 0x04>;',
                                         'interrupts = <0x00 0x07 0x04>;'), SPEC)
