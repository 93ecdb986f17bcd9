"""An image is made again exactly when something it is made of changed
(workshop/initramfs.py inputs_key): a file's bytes, a link's target, the
package list, a program."""
import os
import tempfile
import unittest

from workshop import conf, initramfs


class InputsKey(unittest.TestCase):
    def setUp(self):
        self.d = tempfile.TemporaryDirectory()
        self.tools = os.path.join(self.d.name, 'tools')
        os.makedirs(os.path.join(self.tools, 'usr/bin'))
        self.perf = os.path.join(self.tools, 'usr/bin/perf')
        with open(self.perf, 'w') as f:
            f.write('perf 1\n')
        os.symlink('perf', os.path.join(self.tools, 'usr/bin/trace'))
        self.a = conf.arch('x86_64')

    def tearDown(self):
        self.d.cleanup()

    def key(self, debs=(), programs=None):
        return initramfs.inputs_key(self.a, self.tools, list(debs), programs, None)

    def test_same_inputs_same_key(self):
        self.assertEqual(self.key(), self.key())

    def test_file_bytes(self):
        k = self.key()
        with open(self.perf, 'w') as f:
            f.write('perf 2\n')
        self.assertNotEqual(k, self.key())

    def test_link_target(self):
        k = self.key()
        with open(os.path.join(self.tools, 'usr/bin/perf2'), 'w') as f:
            f.write('perf 1\n')
        k2 = self.key()
        self.assertNotEqual(k, k2)
        t = os.path.join(self.tools, 'usr/bin/trace')
        os.unlink(t)
        os.symlink('perf2', t)
        self.assertNotEqual(k2, self.key())

    def test_packages_and_programs(self):
        k = self.key()
        self.assertNotEqual(k, self.key(debs=['strace']))
        self.assertNotEqual(k, self.key(programs={'x': self.perf}))


if __name__ == '__main__':
    unittest.main()
