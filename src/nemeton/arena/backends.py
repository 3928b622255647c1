"""Where a tournament's games are played: local processes or a Ray cluster.

Both backends run one plain function on picklable jobs and yield the results as games
finish, keeping only a few games in flight beyond the workers (so a tournament that stops
early, decided, wastes little). Results are the same whatever the backend: every game is
fully seeded by its job; only the order in which they finish differs, and callers order
them by game index.
"""

from __future__ import annotations

import os
import socket
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from typing import Any, Callable, Generator, Iterable

BACKENDS = ("local", "ray")


class BackendError(RuntimeError):
    """A backend that cannot run (Ray not installed, a cluster that cannot be reached)."""


def default_workers() -> int:
    return os.cpu_count() or 1


def run_jobs(fn: Callable[[Any], Any], jobs: Iterable[Any], workers: int | None = None,
             backend: str = "local", address: str | None = None) -> Generator[Any, None, None]:
    """``fn(job)`` for every job, yielded as each finishes. Closing the iterator early
    cancels the jobs not started yet (and waits for the running ones on local processes)."""
    if backend == "local":
        return _local(fn, jobs, workers or default_workers())
    if backend == "ray":
        return _ray(fn, jobs, workers, address)
    raise BackendError(f"unknown backend {backend!r}; choose one of {', '.join(BACKENDS)}")


def check_backend(backend: str, address: str | None = None) -> None:
    """Everything that can be checked before a game is played or a file written: the backend's
    name, Ray being installed, a cluster address being reachable."""
    if backend not in BACKENDS:
        raise BackendError(f"unknown backend {backend!r}; choose one of {', '.join(BACKENDS)}")
    if address and backend != "ray":
        raise BackendError("an address is for the Ray backend")
    if backend == "ray":
        try:
            import ray
        except ModuleNotFoundError:
            raise BackendError("the Ray backend needs Ray: pip install -e '.[ray]'") from None
        if address and not ray.is_initialized():
            check_reachable(address)


def _local(fn: Callable[[Any], Any], jobs: Iterable[Any], workers: int) -> Generator[Any, None, None]:
    if workers <= 1:  # in this process: no pickling, no start-up
        for job in jobs:
            yield fn(job)
        return
    todo = iter(jobs)
    pool = ProcessPoolExecutor(max_workers=workers)
    try:
        pending = set()
        for job in todo:
            pending.add(pool.submit(fn, job))
            if len(pending) >= 2 * workers:
                break
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                for job in todo:  # refill one for one
                    pending.add(pool.submit(fn, job))
                    break
            for future in sorted(finished, key=id):
                yield future.result()
    finally:  # interrupted, stopped early or failed: drop the games not started yet
        pool.shutdown(wait=True, cancel_futures=True)


def _ray(fn: Callable[[Any], Any], jobs: Iterable[Any], workers: int | None, address: str | None) -> Generator[Any, None, None]:
    try:
        import ray
    except ModuleNotFoundError:
        raise BackendError("the Ray backend needs Ray: pip install -e '.[ray]'") from None
    started_here = not ray.is_initialized()
    if started_here:
        try:
            if address:
                ray.init(address=address, include_dashboard=False, log_to_driver=False)
            else:
                ray.init(num_cpus=workers or default_workers(), include_dashboard=False, log_to_driver=False)
        except (ConnectionError, RuntimeError, ValueError) as exc:
            raise BackendError(f"cannot start or join Ray{f' at {address}' if address else ''}: {exc}") from None
    try:
        slots = workers or int(ray.cluster_resources().get("CPU", 1))
        remote = ray.remote(num_cpus=1, max_retries=0)(fn)
        todo = iter(jobs)
        pending = [remote.remote(job) for _, job in zip(range(2 * slots), todo)]  # range first: zip would drop a job
        try:
            while pending:
                finished, pending = ray.wait(pending, num_returns=1)
                for job in todo:
                    pending.append(remote.remote(job))
                    break
                yield ray.get(finished[0])
        finally:
            for ref in pending:
                ray.cancel(ref, force=True)
    finally:
        if started_here:
            ray.shutdown()


def check_reachable(address: str, timeout: float = 5.0) -> None:
    """Fail at once when a cluster address cannot be reached (Ray itself retries for ever).
    ``auto`` (a cluster started on this machine) is left to Ray."""
    if address == "auto":
        return
    host, sep, port = address.split("://", 1)[-1].rpartition(":")
    if not sep or not host or not port.isdigit():
        raise BackendError(f"--address takes host:port (or ray://host:port, or auto); got {address!r}")
    try:
        socket.create_connection((host, int(port)), timeout=timeout).close()
    except OSError as exc:
        raise BackendError(f"cannot reach the Ray cluster at {address}: {exc.strerror or exc}") from None
