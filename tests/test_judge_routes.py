"""The check judge's rules for the heterogeneous guests: the routing table
(the pmu_routing kselftest's "route" lines) and a guest that runs no perf
test because it says so."""
import os
import tempfile
import unittest

from workshop.judge import check

from tests.test_judge_check import KS_OK, KTAP, STATE, failed, run


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


class NoPerfTests(unittest.TestCase):
    def test_no_perftests_declared(self):
        g = KS_OK + '\n=== STATE perftests=none\n' + STATE
        self.assertNotIn('guest:perftests', failed(run(KTAP, g, raw_guest=True)))
        g = KS_OK + '\n' + STATE
        self.assertIn('guest:perftests', failed(run(KTAP, g, raw_guest=True)))
