"""Ctrl-C in a terminal: the command stops, the workers let their batches finish, and the report of the runs that
finished is written (slow: a real process pool and a real signal)."""

from __future__ import annotations

import json
import os
import pty
import signal
import subprocess
import sys
from pathlib import Path

import pytest


@pytest.mark.slow
def test_ctrl_c_in_a_terminal_keeps_and_reports_the_runs_that_finished(tmp_path: Path) -> None:
    out = tmp_path / "study"
    parent, child = pty.openpty()  # stderr a terminal, so the command draws its progress bar there
    command = [sys.executable, "-m", "esper_motion.demos", "study", "cavalry_charge", "--runs", "200000"]
    process = subprocess.Popen(
        [*command, "--workers", "2", "--out", str(out)],
        stdout=subprocess.PIPE,
        stderr=child,
        text=True,
        start_new_session=True,
        cwd=tmp_path,
    )
    os.close(child)
    drawn = b""
    while b"runs/s" not in drawn:  # the first batch has finished: the bar shows it
        try:
            chunk = os.read(parent, 1024)
        except OSError:  # the command ended (and closed the terminal) before drawing a bar
            chunk = b""
        if not chunk:
            process.kill()
            pytest.fail(f"the command ended without a progress bar: {drawn!r}, {process.communicate()}")
        drawn += chunk
    os.killpg(process.pid, signal.SIGINT)  # as a terminal's Ctrl-C: the command and its workers
    printed, _ = process.communicate()
    os.close(parent)
    assert process.returncode == 130
    report = json.loads((out / "study.json").read_text(encoding="utf-8"))
    assert report["interrupted"] is True
    assert 0 < report["figures"]["runs"] == len(report["seeds"]) < 200000
    assert f"stopped after {report['figures']['runs']} of 200000 runs" in printed
