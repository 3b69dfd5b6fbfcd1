"""Where a study's batches run: ``local`` (this machine's cores, in a process pool) or ``ray`` (a Ray cluster).

Both send each worker a :class:`~esper_motion.studies.runs.Batch` (a scene's text, seeds and overrides) and get
its records back; neither sends a world. A ``KeyboardInterrupt`` (Ctrl-C; in a process pool SIGTERM too) stops a
study cleanly: batches not yet started are cancelled, those already running finish, and what finished is kept. A
worker that dies, or a run that cannot be resolved, stops the study with a
:class:`~esper_motion.studies.scene.StudyRunError` and no figures.

Ray: ``address=None`` starts a local Ray with ``workers`` CPUs; any other address joins that cluster, as
``ray.init(address=...)`` does (``"auto"`` for the cluster this machine belongs to, ``"ray://HEAD:10001"`` for a
remote head). Every node needs esper-motion installed at the same version (and the extras its scenes need).
"""

from __future__ import annotations

import logging
import math
import multiprocessing
import signal
import threading
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Final

from esper_motion.ecs.errors import needs_extra
from esper_motion.studies.runs import Batch, RunRecord, run_batch
from esper_motion.studies.scene import Override, StudyError, StudyRunError

BACKENDS: Final = ("local", "ray")
"""The backends a study may run on."""

Progress = Callable[[int], None]
"""Told the number of runs finished so far, after each batch."""


def batches(
    path: str,
    text: str,
    *,
    rules: str | None,
    overrides: tuple[Override, ...],
    turns: int,
    first_seed: int,
    runs: int,
    workers: int,
) -> list[Batch]:
    """The study's runs cut into batches: about sixteen per worker (so the work evens out and a stop comes soon),
    from 1 to 250 runs each."""
    size = max(1, min(250, math.ceil(runs / (16 * workers))))
    return [
        Batch(path, text, rules, overrides, turns, first_seed + start, min(size, runs - start))
        for start in range(0, runs, size)
    ]


def run_in_process(work: Sequence[Batch], progress: Progress) -> tuple[list[RunRecord], bool]:
    """Play ``work`` here, batch after batch; return the records and whether Ctrl-C stopped it (the batch it
    stopped in is left out whole)."""
    records: list[RunRecord] = []
    try:
        for batch in work:
            records.extend(run_batch(batch))
            progress(len(records))
    except KeyboardInterrupt:
        return records, True
    return records, False


def run_local(work: Sequence[Batch], workers: int, progress: Progress) -> tuple[list[RunRecord], bool]:
    """Play ``work`` in a pool of ``workers`` fresh processes; return the records and whether Ctrl-C stopped it.

    Ctrl-C or SIGTERM only sets a flag (:class:`_Interrupts`), which the loop looks at between waits: an interrupt
    raised in the middle of the pool's own bookkeeping could leave the pool feeding its workers with nobody to stop
    it."""
    records: list[RunRecord] = []
    interrupted = False
    context = multiprocessing.get_context("spawn")  # fresh interpreters, like cluster nodes: nothing inherited
    with (
        _Interrupts() as asked,
        ProcessPoolExecutor(workers, mp_context=context, initializer=_ignore_interrupts) as pool,
    ):
        pending: dict[Future[list[RunRecord]], Batch] = {pool.submit(run_batch, batch): batch for batch in work}
        try:
            while pending and not asked.is_set():
                done, _ = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
                for future in sorted(done, key=lambda f: pending[f].first_seed):
                    records.extend(_local_result(future, pending.pop(future)))
                if done:
                    progress(len(records))
            interrupted = asked.is_set()
        except KeyboardInterrupt:  # from the progress callback, or a Ctrl-C where no handler could be set
            interrupted = True
        except BaseException:
            for future in pending:
                future.cancel()
            raise
        if interrupted:
            for future in pending:
                future.cancel()
            for future, batch in pending.items():
                if not future.cancelled():
                    records.extend(_local_result(future, batch))
            progress(len(records))
    return records, interrupted


_STOPS: Final = (signal.SIGINT, signal.SIGTERM)
"""The signals that stop a study as Ctrl-C does: Ctrl-C and a polite request to end (``kill``)."""


class _Interrupts:
    """While in use (in the main thread), the first Ctrl-C or SIGTERM sets :meth:`is_set`; a second one raises
    ``KeyboardInterrupt``. Elsewhere it changes nothing."""

    def __init__(self) -> None:
        self._event = threading.Event()
        self._previous: dict[int, Any] = {}

    def is_set(self) -> bool:
        return self._event.is_set()

    def _on_interrupt(self, signum: int, frame: Any) -> None:
        if self._event.is_set():
            raise KeyboardInterrupt
        self._event.set()

    def __enter__(self) -> _Interrupts:
        if threading.current_thread() is threading.main_thread():
            self._previous = {stop: signal.signal(stop, self._on_interrupt) for stop in _STOPS}
        return self

    def __exit__(self, *exc: object) -> None:
        for stop, previous in self._previous.items():
            signal.signal(stop, previous)


def _ignore_interrupts() -> None:
    """A pool worker leaves Ctrl-C to the study, which lets running batches finish."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _local_result(future: Future[list[RunRecord]], batch: Batch) -> list[RunRecord]:
    try:
        return future.result()
    except BrokenProcessPool as error:
        raise _died(batch, error) from None


def _died(batch: Batch, error: BaseException) -> StudyRunError:
    seeds = batch.seeds
    return StudyRunError(
        f"a worker died while playing {batch.path} with seeds {seeds.start} to {seeds.stop - 1} ({error}); "
        "the study stopped and reports no figures"
    )


def run_ray(
    work: Sequence[Batch], workers: int, address: str | None, progress: Progress
) -> tuple[list[RunRecord], bool, int]:
    """Play ``work`` on a Ray cluster (at ``address``, or a local Ray with ``workers`` CPUs when None); return
    the records, whether Ctrl-C stopped it, and the CPUs Ray offered. Ray is shut down again if it was started
    here."""
    try:
        import ray  # noqa: PLC0415 (an optional extra)
        import ray.exceptions  # noqa: PLC0415
    except ImportError:
        raise StudyError(needs_extra("the ray backend needs ray", "cluster")) from None
    started = not ray.is_initialized()
    if started:
        chosen: dict[str, Any] = {"num_cpus": workers} if address is None else {"address": address}
        try:
            ray.init(**chosen, include_dashboard=False, logging_level=logging.WARNING, log_to_driver=False)
        except (ConnectionError, RuntimeError, ValueError) as error:
            raise StudyError(f"the ray backend cannot reach a Ray cluster at {address!r}: {error}") from None
    try:
        cpus = int(ray.cluster_resources().get("CPU", workers))  # type: ignore[no-untyped-call]
        remote = ray.remote(max_retries=0)(run_batch)
        pending: dict[Any, Batch] = {remote.remote(batch): batch for batch in work}
        records: list[RunRecord] = []
        try:
            while pending:
                done, _ = ray.wait(list(pending), num_returns=1)
                for ref in done:
                    records.extend(_ray_result(ray, ref, pending.pop(ref)))
                progress(len(records))
        except KeyboardInterrupt:
            for ref in pending:
                ray.cancel(ref)
            records.extend(_ray_finished(ray, pending))
            progress(len(records))
            return records, True, cpus
        return records, False, cpus
    finally:
        if started:
            ray.shutdown()


def _ray_result(ray: Any, ref: Any, batch: Batch) -> list[RunRecord]:
    try:
        found: list[RunRecord] = ray.get(ref)
    except ray.exceptions.RayTaskError as error:
        cause = error.cause
        if isinstance(cause, StudyError):
            raise type(cause)(str(cause)) from None
        raise StudyRunError(
            f"a Ray worker failed playing {batch.path} with seeds {batch.seeds.start} onward: {cause}"
        ) from None
    except ray.exceptions.RayError as error:
        raise _died(batch, error) from None
    return found


def _ray_finished(ray: Any, pending: dict[Any, Batch]) -> Iterable[RunRecord]:
    """The records of the batches that finished before they could be cancelled."""
    for ref, batch in pending.items():
        try:
            yield from _ray_result(ray, ref, batch)
        except StudyError:
            continue
