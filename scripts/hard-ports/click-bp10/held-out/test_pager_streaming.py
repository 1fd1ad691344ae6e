"""Held-out test, hand-written for GitBench (not upstream's): with an external
pager, ``echo_via_pager`` hands each chunk of a generator to the pager as soon
as the generator yields it, not when the pipe buffer fills or the output ends.
"""
import os
import stat
import time

import click._termui_impl


def _recording_pager(tmp_path):
    """A pager command (one executable, as every line's ``PAGER`` takes it)
    that copies what it reads to a file as it reads it."""
    received = tmp_path / "received.txt"
    script = tmp_path / "pager"
    script.write_text("#!/bin/sh\nexec cat > '%s'\n" % received)
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return str(script), received


def _read_when(path, expected, timeout=30.0):
    # Generous for ``sh`` and ``cat`` on a loaded machine: a right port returns
    # as soon as the text arrives; a wrong one (the chunk stuck in the pipe's
    # buffer) pays the deadline once, as the generator stops at the first miss.
    deadline = time.time() + timeout
    while True:
        got = path.read_text() if path.exists() else ""
        if got == expected or time.time() > deadline:
            return got
        time.sleep(0.02)


def test_external_pager_receives_each_chunk_when_yielded(monkeypatch, tmp_path):
    pager, received = _recording_pager(tmp_path)
    monkeypatch.setitem(os.environ, "PAGER", pager)
    monkeypatch.setattr(click._termui_impl, "isatty", lambda _: True)
    seen = []

    def generate():
        expected = ""
        for chunk in ("first\n", "second\n", "third\n"):
            yield chunk
            expected += chunk
            # Resumed only after its chunk was written: the pager must have it
            # by now, before the next chunk is produced.
            seen.append(_read_when(received, expected))
            if seen[-1] != expected:
                return

    click.echo_via_pager(generate())
    assert seen == ["first\n", "first\nsecond\n", "first\nsecond\nthird\n"]
    assert received.read_text() == "first\nsecond\nthird\n\n"
