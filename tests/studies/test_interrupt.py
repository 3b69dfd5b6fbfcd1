"""Ctrl-C in a terminal: the command stops, the workers let their batches finish, and the report of the runs that
finished is written (slow: a real process pool and a real signal)."""

from __future__ import annotations

import json
import os
import pty
import signal
import subprocess
import sys
import threading
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
    drawn = bytearray()
    first_bar = threading.Event()

    def drain() -> None:  # read the terminal to its end, as a terminal does: a full one would block the command
        while True:
            try:
                chunk = os.read(parent, 1024)
            except OSError:  # the command ended and closed the terminal
                chunk = b""
            if not chunk:
                first_bar.set()
                return
            drawn.extend(chunk)
            if b"runs/s" in drawn:  # the first batch has finished: the bar shows it
                first_bar.set()

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    first_bar.wait(timeout=300)
    if b"runs/s" not in drawn:
        process.kill()
        pytest.fail(f"the command drew no progress bar: {bytes(drawn)!r}, {process.communicate()}")
    os.killpg(process.pid, signal.SIGINT)  # as a terminal's Ctrl-C: the command and its workers
    printed, _ = process.communicate(timeout=300)
    reader.join(timeout=10)
    os.close(parent)
    assert process.returncode == 130
    report = json.loads((out / "study.json").read_text(encoding="utf-8"))
    assert report["interrupted"] is True
    assert 0 < report["figures"]["runs"] == len(report["seeds"]) < 200000
    assert f"stopped after {report['figures']['runs']} of 200000 runs" in printed
