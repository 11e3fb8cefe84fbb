"""Big runs on a Dask cluster: a client as a ``concurrent.futures`` executor.

``experiments.run`` (the strength runs) and ``filling.fill_table`` (the exhaustive
tables of optimal play) take a ``distributed.Client``; ``python -m minelib play
... --scheduler ADDRESS`` and ``tables ... --scheduler ADDRESS`` connect to a
running cluster. Results are written by the caller as each task comes back, so
an interruption, or a worker lost mid-run (Dask runs its tasks again
elsewhere), loses no finished work. Dask is optional: ``pip install 'minelib[cluster]'``.
"""

from __future__ import annotations

from concurrent.futures import Executor, Future


class DaskExecutor(Executor):
    """A Dask client as an executor whose futures ``concurrent.futures.as_completed`` understands.

    Each Dask future is mirrored by a standard future, settled by a done-callback;
    cancelling the mirror cancels the task on the cluster.
    """

    def __init__(self, client):
        self.client = client

    def submit(self, fn, /, *args, **kwargs) -> Future:
        mirror: Future = Future()
        task = self.client.submit(fn, *args, pure=False, **kwargs)
        mirror.add_done_callback(lambda settled: task.cancel() if settled.cancelled() else None)

        def settle(finished) -> None:
            if not mirror.set_running_or_notify_cancel():
                return
            try:
                mirror.set_result(finished.result())
            except BaseException as error:  # handed to the caller through the future
                mirror.set_exception(error)

        task.add_done_callback(settle)
        return mirror


def connect(scheduler: str, timeout: float = 20):
    """A client of the Dask cluster whose scheduler listens at ``scheduler`` (e.g. tcp://10.0.0.5:8786)."""
    try:
        from distributed import Client
    except ImportError:
        raise ValueError("running on a cluster needs Dask: pip install 'minelib[cluster]'") from None
    try:
        return Client(scheduler, timeout=timeout)
    except (OSError, TimeoutError) as error:
        raise ValueError(f"no Dask scheduler answers at {scheduler} ({error})") from None


__all__ = ["DaskExecutor", "connect"]
