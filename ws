#!/usr/bin/env python3
"""The workshop's command: ./ws --help (docs/harness.md)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from workshop.cli import main  # noqa: E402

main()
