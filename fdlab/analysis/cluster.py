"""The Dask cluster a playtest or a suggest run plays on (``--scheduler``).

``dask_client("local", 2)`` starts a ``LocalCluster`` of two processes and
stops it afterwards; any other address is an existing cluster's scheduler
(``tcp://host:8786``), left running. Without Dask installed, one clear error
says how to install it.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

from fdlab.analysis.errors import PlaytestError

__all__ = ["DASK_INSTALL", "dask_classes", "dask_client", "scheduler_help"]

#: How to install what ``--scheduler`` needs (the ``dask`` extra of pyproject.toml).
DASK_INSTALL = "pip install 'fdlab[dask]'"


def scheduler_help(what: str) -> str:
    """The ``--scheduler`` option's help line, for a command that plays ``what``."""
    return (
        f"play {what} on a Dask cluster: its scheduler's address (tcp://host:8786), or "
        f"'local' for a LocalCluster on this machine, one process per worker "
        f"(needs {DASK_INSTALL})"
    )


def dask_classes() -> tuple[Any, Any]:
    """``dask.distributed``'s ``Client`` and ``LocalCluster``; a one-line error without Dask.

    Raises
    ------
    PlaytestError
        Dask's distributed scheduler is not installed (a ``ValueError``: ``fdlab``
        exits with status 2 and the message).
    """
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError as error:
        raise PlaytestError(
            f"--scheduler plays on a Dask cluster, and Dask's distributed scheduler is not "
            f"installed ({error}); install it with: {DASK_INSTALL}"
        ) from None
    return Client, LocalCluster


@contextmanager
def dask_client(address: str | None, workers: int | None) -> Iterator[Any]:
    """A ``dask.distributed.Client`` for ``--scheduler`` (``None`` without), closed after.

    ``"local"`` starts a ``LocalCluster`` of ``workers`` processes (default:
    one per core), one thread each, and shuts it down with the client; any
    other address is an existing cluster's scheduler, which is left running.
    """
    if address is None:
        yield None
        return
    client_class, cluster_class = dask_classes()
    with ExitStack() as stack:
        if address == "local":
            cluster = stack.enter_context(
                cluster_class(
                    n_workers=workers or os.cpu_count() or 1,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=None,
                )
            )
            client = stack.enter_context(client_class(cluster))
        else:
            try:
                client = stack.enter_context(client_class(address))
            except OSError as error:  # no scheduler there, or it did not answer in time
                raise PlaytestError(
                    f"--scheduler {address}: no Dask scheduler answered ({error}); start one "
                    f"with `dask scheduler` and its workers with `dask worker {address}`"
                ) from None
        yield client
