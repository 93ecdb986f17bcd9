"""The check judge's routing table: the pmu_routing kselftest's "route"
lines (workshop/judge/check.py routes())."""
import os
import tempfile
import unittest

from workshop.judge import check


class Routes(unittest.TestCase):
    """The pmu_routing kselftest's "route" lines: the routing table."""

    def test_routes(self):
        g = ('# pmu_routing.c:246:legacy_cpu_bound:route HARDWARE cycles cpu=0: opened (CPU PMU here: a53)\n'
             '# pmu_routing.c:314:legacy_task:route RAW 0x11 task: runs on a53\'s CPUs\n'
             '# test_pmu.c:10:other:not a route line\n'
             'route HARDWARE cycles cpu=1: a line of no test\n')
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, 'guest.log'), 'w') as f:
                f.write(g)
            self.assertEqual(check.routes(d), [
                ('HARDWARE cycles cpu=0', 'opened (CPU PMU here: a53)'),
                ('RAW 0x11 task', "runs on a53's CPUs")])
