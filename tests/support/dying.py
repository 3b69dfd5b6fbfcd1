"""A study batch that kills the worker playing it: the test of a worker that dies mid-study hands it to the pool
(a function of a module the pool's fresh processes can import)."""

from __future__ import annotations

import os

from esper_motion.studies.runs import Batch, RunRecord, run_batch

FIRST_SEED = 5
"""The study's first seed by default: its first batch is played, and the worker that receives any later one ends
at once, mid-play, with no result sent."""


def dying_batch(batch: Batch) -> list[RunRecord]:
    """Play ``batch`` as the pool does, but end the process on any batch after the first (:data:`FIRST_SEED`)."""
    if batch.first_seed > FIRST_SEED:
        os._exit(1)
    return run_batch(batch)
