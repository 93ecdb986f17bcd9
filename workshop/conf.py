"""Paths and constants of the workshop, and the loading of config/.

Every constant that the host and the guest share is here, once; the guest
gets it on the kernel command line (docs/harness.md, "The guest protocol").
"""
import os

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CONFIG = os.path.join(TOP, 'config')
BUILD = os.environ.get('WS_BUILD') or os.path.join(TOP, 'build')

# Taint flags that fail a run: B (bad page, 5), D (oops, 7), W (warning, 9),
# L (soft lockup, 14).  N (TAINT_TEST, 18), which the KUnit suites set at
# boot, and the module flags do not.
BAD_TAINT = (1 << 5) | (1 << 7) | (1 << 9) | (1 << 14)
