"""Expect lists that include another (workshop/judge/expect.py): the
included lines excuse results as the list's own do, in their place."""
import os
import tempfile
import unittest

from workshop.judge import expect


def lists(**files):
    d = tempfile.TemporaryDirectory()
    for name, text in files.items():
        with open(os.path.join(d.name, name + '.txt'), 'w') as f:
            f.write(text)
    return d


class Include(unittest.TestCase):
    def test_included_lines_in_place(self):
        with lists(arch='a | skip | mine\ninclude guest.txt\nc | fail | last\n',
                   guest='# shared\nb | skip | shared\n') as d:
            exp = expect.load(os.path.join(d, 'arch.txt'))
            self.assertEqual(exp, [('a', 'skip', 'mine'), ('b', 'skip', 'shared'),
                                   ('c', 'fail', 'last')])
            self.assertEqual(expect.verdict('b', 'SKIP', '', exp, 'arch.txt'), ('SKIP', 'shared'))

    def test_missing_or_looping_include_is_an_error(self):
        for files in ({'arch': 'include none.txt\n'},
                      {'arch': 'include guest.txt\n', 'guest': 'include arch.txt\n'}):
            with lists(**files) as d, self.subTest(files), \
                    self.assertRaisesRegex(expect.ExpectError, r'arch\.txt:1:|guest\.txt:1:'):
                expect.load(os.path.join(d, 'arch.txt'))

    def test_real_lists_share_the_guest_list(self):
        top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        if not os.path.isdir(os.path.join(top, 'config')):
            self.skipTest('no config/ (the judge mutants\' copy)')
        shared = expect.load(os.path.join(top, 'config', 'expect', 'guest.txt'))
        self.assertTrue(shared)
        for arch in ('x86_64', 'arm64'):
            exp = expect.load(os.path.join(top, 'config', 'expect', arch + '.txt'))
            with self.subTest(arch):
                self.assertTrue(set(shared) <= set(exp))
                globs = [g for g, _, _ in exp]
                self.assertEqual(len(globs), len(set(globs)), 'a glob listed twice')


if __name__ == '__main__':
    unittest.main()
