"""The observer's read of an agent's repository: repo_state.py's, run on its own beside a running agent.

Usage: observe.py <previous tree> <diff bytes> <timeout s> <kill grace s>, in the repository's directory, with the
read's environment. Sandbox.observe starts it (docker-observe.ts) as a uid of its own while a
third-party agent's one long request still runs; it prints what the session runner's S request
prints, and exits 124 when the read ran out of time. Its git processes run as that uid, with every
filter key of the repository and its submodules set empty, as the session runner's read.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from common import Sandbox, emit  # noqa: E402
from repo_state import read_repo_state  # noqa: E402


def main():
    previous_tree, diff_bytes = os.fsencode(sys.argv[1]), int(sys.argv[2])
    timeout_s, grace_s = float(sys.argv[3]), float(sys.argv[4])
    home = os.open('.', os.O_RDONLY)
    devnull = os.open(os.devnull, os.O_RDONLY)
    text, timed_out = read_repo_state(Sandbox(None), os.getcwdb(), dict(os.environb), previous_tree, diff_bytes,
                                      timeout_s, grace_s, home, devnull, False)
    emit(text)
    sys.exit(124 if timed_out else 0)


main()
