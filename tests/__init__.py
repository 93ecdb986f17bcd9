"""The harness's own tests (make selftest): no kernel tree, no guest."""
import os

os.environ['WS_QUIET'] = '1'
