"""Sweeps on a Dask cluster: the cells of an experiment as tasks (``experiment --dask``).

Dask (``dask.distributed``) is an optional extra, ``pip install
'gtsearch[dask]'``, imported only when a sweep asks for it.  Each task is one
(b, d, trial) cell, a pure function of its parameters
(:func:`gtsearch.research.experiment.run_cell_job`), and the records come back
in cell order, so a sweep on a cluster gives the records and the summary of
``--jobs 1``, byte for byte.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Iterator
from typing import Any

from ..errors import UsageError
from .experiment import Sweep, run_cell_job


def dask_cells(
    cells: list[tuple[Sweep, int, int, int, int]], address: str, workers: int | None = None
) -> Iterator[list[dict[str, Any]]]:
    """The cells' records computed as tasks on a Dask cluster, yielded in cell order.

    ``address`` is a scheduler's (``tcp://host:8786``) or ``"local"``: a local
    cluster of ``workers`` processes (default: one per core), one thread each.
    Every task is one cell, a pure function of its parameters, so the records
    and the summary are those of ``--jobs 1``, byte for byte.
    """
    try:  # untyped, and an optional extra: taken as Any
        distributed: Any = importlib.import_module("dask.distributed")
    except ImportError:
        raise UsageError("--dask needs dask.distributed: pip install 'gtsearch[dask]'") from None
    if address == "local":
        cluster = distributed.LocalCluster(
            n_workers=workers or os.cpu_count() or 1,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
        )
        client = distributed.Client(cluster)
    else:
        cluster = None
        try:
            client = distributed.Client(address, timeout="20s")
        except OSError as e:
            raise UsageError(f"--dask {address}: cannot reach the scheduler: {e}") from None
    try:
        futures = client.map(run_cell_job, cells, pure=False)
        for future in futures:
            yield future.result()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
