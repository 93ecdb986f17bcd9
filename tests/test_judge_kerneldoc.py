"""workshop/judge/kerneldoc.py: a kernel-doc warning the base does not
have fails; the base's own, and warnings that only moved, do not."""
import unittest

from workshop.judge import kerneldoc

W1 = "warning: Function parameter or member 'a' not described in 'pmu'"
W2 = "warning: Function parameter or member 'b' not described in 'pmu'"


class KernelDoc(unittest.TestCase):
    def test_without_file_and_line(self):
        out = ("include/linux/perf_event.h:266: " + W1 + "\n"
               "some other line\n"
               "/tmp/tmpx.h:301: " + W2 + "\n")
        self.assertEqual(kerneldoc.warnings(out), [W1, W2])

    def test_the_base_own_pass(self):
        r = kerneldoc.judge({'p.h': [W1, W2]}, {'p.h': [W1]})
        self.assertEqual(r.verdict, 'PASS')

    def test_a_new_warning_fails(self):
        r = kerneldoc.judge({'p.h': [W1]}, {'p.h': [W1, W2]})
        self.assertEqual(r.verdict, 'FAIL')
        self.assertIn(W2, r.detail)

    def test_one_more_of_the_same_fails(self):
        r = kerneldoc.judge({'p.h': [W1]}, {'p.h': [W1, W1]})
        self.assertEqual(r.verdict, 'FAIL')

    def test_a_new_file_warning_fails(self):
        r = kerneldoc.judge({}, {'new.c': [W1]})
        self.assertEqual(r.verdict, 'FAIL')

    def test_clean(self):
        self.assertEqual(kerneldoc.judge({'p.h': []}, {'p.h': [], 'n.c': []}).verdict, 'PASS')


if __name__ == '__main__':
    unittest.main()
