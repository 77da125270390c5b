"""`--executor ray`: the shards of a split run as Ray tasks, on the cluster at `--ray-address` or on
a local one started for the run (and stopped after it).

Ray retries a task whose worker process died (killed, out of memory, node lost) up to
RAY_RETRIES times; the retry finds the shard's directory started and continues it
(factprobe.eval.run.shard_worker), so no finished row is answered twice. Bad input is not retried:
the task returns status 2 and its message. Every node must see the run directory at the same path
(a shared filesystem on a multi-machine cluster) and have factprobe installed.
"""

from __future__ import annotations

import logging
import os
from typing import Any

from factprobe.eval.run.shard_worker import ShardOutcome, run_shard

RAY_RETRIES = 3
RAY_INSTALL = "pip install 'factprobe[ray]'"


def require_ray() -> None:
    """ConfigError (exit 2, before anything is written) when Ray is not installed."""
    import importlib.util

    if importlib.util.find_spec("ray") is None:
        from factprobe.eval.run.pipeline import ConfigError

        raise ConfigError(f"--executor ray needs Ray, which is not installed here: {RAY_INSTALL}")


def run_on_ray(configs: list[dict[str, Any]], address: str | None, watch: Any) -> list[ShardOutcome]:
    """Run each shard config as one Ray task (one CPU each); the outcomes in shard order."""
    require_ray()
    import ray

    started = not ray.is_initialized()
    if started:
        ray.init(address=address, include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR)
    try:
        task = ray.remote(num_cpus=1, max_retries=RAY_RETRIES, retry_exceptions=False)(run_shard)
        shard_of_ref = {task.remote(config, os.getcwd()): number for number, config in enumerate(configs)}
        outcomes: list[ShardOutcome] = [ShardOutcome(1)] * len(configs)
        pending = list(shard_of_ref)
        while pending:
            done, pending = ray.wait(pending, num_returns=1, timeout=0.2)
            watch.update()
            for ref in done:
                try:
                    outcomes[shard_of_ref[ref]] = ray.get(ref)
                except ray.exceptions.RayError as exc:
                    first_line = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
                    outcomes[shard_of_ref[ref]] = ShardOutcome(1, f"its Ray task failed ({first_line})")
        watch.update()
        return outcomes
    finally:
        if started:
            ray.shutdown()
