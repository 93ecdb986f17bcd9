"""mutants:anchors, the verdict that every mutant of workshop/mutants.py
still applies to the series: made in the checkpatch profile, so that a
patch that moves an anchor is seen before `make mutants` is next run."""
import os
import shutil
import tempfile

from workshop.judge.result import Result
from workshop.mutants import DRIVER

KEY = 'mutants:anchors'


def check(src):
    """Apply every mutant (workshop/mutants_apply.py) to a copy of SRC's
    two files; FAIL with the mutant whose anchor is gone or not unique."""
    from workshop import mutants_apply
    with tempfile.TemporaryDirectory() as d:
        for f in ('kernel/events/core.c', DRIVER):
            os.makedirs(os.path.dirname(os.path.join(d, f)), exist_ok=True)
            shutil.copy2(os.path.join(src, f), os.path.join(d, f))
        try:
            mutants_apply.apply(d)
        except AssertionError as e:
            return Result(KEY, 'FAIL', 'FAIL', '%s (workshop/mutants.py)' % (e or 'an anchor'))
    return Result(KEY, 'PASS', 'PASS')
