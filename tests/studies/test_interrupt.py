"""Ctrl-C in a terminal, and SIGTERM: the command stops, the workers let their batches finish, and the report of the
runs that finished is written (slow: a real process pool and a real signal)."""

from __future__ import annotations

import json
import os
import pty
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

CAVALRY = str(Path(__file__).with_name("cavalry_scripted.toml"))
"""The cavalry charge of a script alone: many runs, cheap (no goal to plan)."""


@contextmanager
def _study_past_its_first_batch(tmp_path: Path, out: Path) -> Iterator[subprocess.Popen[str]]:
    """A study of 200,000 runs on two workers, in a session of its own, once its progress bar (on a terminal, so
    the command draws one) shows a finished batch."""
    parent, child = pty.openpty()  # stderr a terminal, so the command draws its progress bar there
    command = [sys.executable, "-m", "esper_motion.demos", "study", CAVALRY, "--runs", "200000"]
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
    try:
        first_bar.wait(timeout=300)
        if b"runs/s" not in drawn:
            process.kill()
            pytest.fail(f"the command drew no progress bar: {bytes(drawn)!r}, {process.communicate()}")
        yield process
    finally:
        for pid in _session(process.pid):  # whatever the test left of the study's processes
            os.kill(pid, signal.SIGKILL)
        process.wait(timeout=60)
        reader.join(timeout=10)
        os.close(parent)


def _session(leader: int) -> list[int]:
    """The processes of the session ``leader`` started (its own, its workers and its resource tracker), by id."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rpartition(")")[2].split()
            except OSError:  # gone meanwhile
                continue
            if int(fields[3]) == leader and fields[0] != "Z":  # the session id; a zombie is no process running
                found.append(int(entry.name))
    return found


def _partial_report(out: Path, printed: str) -> None:
    report = json.loads((out / "study.json").read_text(encoding="utf-8"))
    assert report["interrupted"] is True
    assert 0 < report["figures"]["runs"] == len(report["seeds"]) < 200000
    assert f"stopped after {report['figures']['runs']} of 200000 runs" in printed


@pytest.mark.slow
def test_ctrl_c_in_a_terminal_keeps_and_reports_the_runs_that_finished(tmp_path: Path) -> None:
    out = tmp_path / "study"
    with _study_past_its_first_batch(tmp_path, out) as process:
        os.killpg(process.pid, signal.SIGINT)  # as a terminal's Ctrl-C: the command and its workers
        printed, _ = process.communicate(timeout=300)
    assert process.returncode == 130
    _partial_report(out, printed)


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the processes of a session from /proc")
def test_sigterm_stops_the_study_as_ctrl_c_does_and_leaves_no_process_behind(tmp_path: Path) -> None:
    out = tmp_path / "study"
    with _study_past_its_first_batch(tmp_path, out) as process:
        assert len(_session(process.pid)) >= 3  # the command, two workers (and the pool's resource tracker)
        os.kill(process.pid, signal.SIGTERM)  # as kill PID does: the command alone
        printed, _ = process.communicate(timeout=300)
        deadline = time.monotonic() + 30
        while _session(process.pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert _session(process.pid) == []
    assert process.returncode == 130
    _partial_report(out, printed)
