"""judge/anchors.check(): the verdict that every mutant of workshop/mutants.py
still applies to the series (the checkpatch profile's mutants:anchors)."""
import os
import tempfile
import unittest

from workshop import mutants
from workshop.judge import anchors
from workshop.mutants_apply import M24_REMOVAL_PUT


def tree(d, core, driver):
    for f, text in (('kernel/events/core.c', core), (mutants.DRIVER, driver)):
        os.makedirs(os.path.dirname(os.path.join(d, f)), exist_ok=True)
        with open(os.path.join(d, f), 'w') as fh:
            fh.write(text)


# Text that every anchor of the table finds once: the anchors themselves,
# with what apply() looks for beside them.
CORE = ('#include <asm/irq_regs.h>\n'
        + '\tif (!data->group) {\n\t\tpmu->read(event);\n'
        + '\tWARN_ON_ONCE(list_empty(&epc->pmu_ctx_entry));\n'
        '\tlist_del_init(&epc->pmu_ctx_entry);\n'
        + M24_REMOVAL_PUT
        + ''.join('/* %d */\n%s' % (m[0], m[3]) for m in mutants.MUTANTS if m[3]))
DRIVER = ('#include <linux/perf/test_pmu.h>\n'
          + ''.join(m[3] for m in mutants.DRIVER_MUTANTS))


class Anchors(unittest.TestCase):
    def test_every_anchor_once_passes(self):
        with tempfile.TemporaryDirectory() as d:
            tree(d, CORE, DRIVER)
            r = anchors.check(d)
        self.assertEqual('PASS', r.verdict, r.reason)
        self.assertEqual('mutants:anchors', r.key)

    def test_a_moved_anchor_fails_and_names_the_mutant(self):
        six = [m for m in mutants.MUTANTS if m[0] == 6][0][3]
        with tempfile.TemporaryDirectory() as d:
            tree(d, CORE.replace(six, six.replace('struct pmu *known', 'struct pmu *k')), DRIVER)
            r = anchors.check(d)
        self.assertEqual('FAIL', r.verdict)
        self.assertIn('mutant 6', r.reason)

    def test_an_anchor_twice_fails(self):
        with tempfile.TemporaryDirectory() as d:
            tree(d, CORE + [m for m in mutants.MUTANTS if m[0] == 56][0][3], DRIVER)
            self.assertEqual('FAIL', anchors.check(d).verdict)

    def test_mutant_24_needs_the_removal_put(self):
        with tempfile.TemporaryDirectory() as d:
            tree(d, CORE.replace(M24_REMOVAL_PUT, ''), DRIVER)
            r = anchors.check(d)
        self.assertEqual('FAIL', r.verdict)
        self.assertIn('mutant 24', r.reason)

    def test_the_driver_checked_too(self):
        with tempfile.TemporaryDirectory() as d:
            tree(d, CORE, '#include <linux/perf/test_pmu.h>\n')
            self.assertEqual('FAIL', anchors.check(d).verdict)

    def test_the_copy_is_checked_not_the_tree(self):
        with tempfile.TemporaryDirectory() as d:
            tree(d, CORE, DRIVER)
            anchors.check(d)
            with open(os.path.join(d, 'kernel/events/core.c')) as f:
                self.assertEqual(CORE, f.read())


if __name__ == '__main__':
    unittest.main()
