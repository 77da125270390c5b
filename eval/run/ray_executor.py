"""`--executor ray`: the shards of a split run, or the cells of a sweep, as Ray tasks, on the cluster
at `--ray-address` or on a local one started for them (and stopped after).

Ray retries a task whose worker process died (killed, out of memory, node lost) up to
RAY_RETRIES times; the retry finds the shard's (or cell's) directory started and continues it
(factprobe.eval.run.shard_worker, factprobe.eval.run.cell_worker), so no finished row is answered
twice. Bad input is not retried: the task returns status 2 and its message. Every node must see the
run directories at the same path (a shared filesystem on a multi-machine cluster) and have
factprobe installed.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from factprobe.eval.run.shard_worker import ShardOutcome, run_shard

RAY_RETRIES = 3
RAY_INSTALL = "pip install 'factprobe[ray]'"
WAIT_S = 0.2


def require_ray(what: str = "--executor ray") -> None:
    """ConfigError (exit 2, before anything is written) when Ray is not installed."""
    import importlib.util

    if importlib.util.find_spec("ray") is None:
        from factprobe.eval.run.configs import ConfigError

        raise ConfigError(f"{what} needs Ray, which is not installed here: {RAY_INSTALL}")


@contextmanager
def ray_cluster(address: str | None) -> Iterator[Any]:
    """The `ray` module, connected to the cluster at `address` (unset: a local one started here and
    stopped on leaving); an already connected session is used as it is and left running."""
    require_ray()
    import ray

    started = not ray.is_initialized()
    if started:
        ray.init(address=address, include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR)
    try:
        yield ray
    finally:
        if started:
            ray.shutdown()


def run_tasks(task: Callable[[dict[str, Any], str | None], ShardOutcome], configs: list[dict[str, Any]],
              address: str | None, watch: Callable[[], None],
              done: Callable[[int, ShardOutcome], None] | None = None) -> list[ShardOutcome]:
    """Run `task(config, cwd)` for each config as one Ray task (one CPU each), all at once; `watch`
    is called while they run, `done(number, outcome)` as each ends. The outcomes in config order."""
    with ray_cluster(address) as ray:
        remote = ray.remote(num_cpus=1, max_retries=RAY_RETRIES, retry_exceptions=False)(task)
        number_of_ref = {remote.remote(config, os.getcwd()): number for number, config in enumerate(configs)}
        outcomes: list[ShardOutcome] = [ShardOutcome(1)] * len(configs)
        pending = list(number_of_ref)
        while pending:
            finished, pending = ray.wait(pending, num_returns=1, timeout=WAIT_S)
            watch()
            for ref in finished:
                number = number_of_ref[ref]
                try:
                    outcomes[number] = ray.get(ref)
                except ray.exceptions.RayError as exc:
                    first_line = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
                    outcomes[number] = ShardOutcome(1, f"its Ray task failed ({first_line})")
                if done is not None:
                    done(number, outcomes[number])
        watch()
        return outcomes


def run_on_ray(configs: list[dict[str, Any]], address: str | None, watch: Any) -> list[ShardOutcome]:
    """Run each shard config as one Ray task; the outcomes in shard order."""
    return run_tasks(run_shard, configs, address, watch.update)
