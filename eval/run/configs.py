"""A run's config: a new run's from the options given, a resumed run's from its manifest, and the
checks that a resume continues the same run (dataset, input files, served models)."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from factprobe.agents.models.base import ChatModel
from factprobe.agents.plugins import load_plugin
from factprobe.agents.registry import default_strategies
from factprobe.eval.config.baseline import resolve_baseline
from factprobe.eval.config.options import OptionError, validation_message
from factprobe.eval.config.run_config import RunConfig
from factprobe.eval.core.modality import expand_baseline, expand_variants
from factprobe.eval.core.secrets import REDACTED, redact_values
from factprobe.eval.datasets.registry import Dataset
from factprobe.eval.run.inputs import check_inputs
from factprobe.eval.run.manifest import dataset_fingerprint, served_model
from factprobe.eval.run.regrade import new_judge_options
from factprobe.eval.store.run_dir import RunDir, RunDirError


class ConfigError(ValueError):
    """Options that contradict each other or the run being resumed."""


def _validated(options: dict[str, Any], source: str = "") -> RunConfig:
    try:
        return RunConfig(**options)
    except ValidationError as exc:
        raise OptionError(validation_message(exc, source)) from None


def new_config(explicit: dict[str, Any]) -> RunConfig:
    """The config of a new run: the options given, defaults for the rest, plugins loaded,
    strategies defaulted to those registered for a default run (`strategies_by_default`: those the
    dataset cannot run are left out once it is loaded, factprobe.eval.run.checks) and the baseline fixed."""
    config = _validated(explicit)
    for plugin in config.plugins:
        load_plugin(plugin)
    config.strategies_by_default = not config.strategies
    if not config.strategies:
        config.strategies = default_strategies()
    if config.out is None:
        config.out = Path("runs") / datetime.now().strftime("%Y%m%d-%H%M%S")
    with_settings(config)
    config.baseline = resolve_baseline(config.baseline, config.strategies)
    return config


def with_settings(config: RunConfig) -> RunConfig:
    """`--modality A,B`: every strategy (and the baseline) as its variants NAME@A, NAME@B."""
    config.strategies = expand_variants(config.strategies, config.modality)
    config.baseline = expand_baseline(config.baseline, config.modality)
    return config


JSON_KINDS: dict[type, str] = {dict: "object", list: "list", str: "string"}


def manifest_part(run_dir: RunDir, data: dict[str, Any], key: str, kind: type) -> Any:
    """`data[key]` of the run's manifest; RunDirError naming the file and field when it is missing
    or of another type (a manifest changed by hand or by another tool)."""
    value = data.get(key)
    if not isinstance(value, kind):
        found = "missing" if value is None else f"a {type(value).__name__}"
        expected = JSON_KINDS.get(kind, kind.__name__)
        raise RunDirError(f"{run_dir.manifest_path}: field `{key}` is {found}, expected a JSON {expected}. "
                          f"factprobe writes the manifest; restore it, or start a new run with another --out.")
    return value


def resumed_config(out: Path, explicit: dict[str, Any]) -> RunConfig:
    """The recorded config of the run in `out`, with the options that may change (those that
    change no result, and a judge: factprobe.eval.run.regrade) replaced; any other difference is a
    ConfigError naming the options."""
    run_dir = RunDir(out)
    config = manifest_part(run_dir, run_dir.read_manifest(), "config", dict)
    recorded = _validated(config, f"{run_dir.manifest_path}")
    wanted = with_settings(_validated({**config, **explicit, "out": out}))
    may_change = new_judge_options(recorded, wanted)
    # the manifest holds secrets redacted, so a spec given again is compared as it was written
    given = {key: json.loads(redact_values(json.dumps(value))) for key, value in wanted.identity().items()}
    changed = [key for key, value in given.items() if recorded.identity()[key] != value and key not in may_change]
    hidden = [f"--{key.replace('_', '-')}" for key, value in wanted.model_dump(mode="json").items()
              if REDACTED in json.dumps(value)]      # any option holding a URL with a secret
    if hidden and not changed:
        raise ConfigError(f"the run in {out} was started with a secret in {' and '.join(hidden)}, which its "
                          f"manifest keeps redacted: give {' and '.join(hidden)} again with --resume.")
    if changed:
        raise ConfigError(f"--resume continues the run in {out} as it was started; these options "
                          f"differ from its manifest: {', '.join(changed)}. Start a new run with "
                          f"another --out instead (--resume accepts a new --judge, which grades what the "
                          f"run left UNGRADED, and the options that change no result).")
    for plugin in wanted.plugins:
        load_plugin(plugin)
    return wanted


def start_config(explicit: dict[str, Any], resume: bool) -> RunConfig:
    """The config a run starts from, as every caller builds it (the CLI, the Python API, a sweep's
    cells, a shard resumed): with `resume` the manifest's of the run in `explicit["out"]` with the
    options that may change replaced (`resumed_config`), else a new run's (`new_config`)."""
    if not resume:
        return new_config(explicit)
    if explicit.get("out") is None:
        raise ConfigError("--resume needs --out DIR: the run directory to continue")
    return resumed_config(Path(explicit["out"]), {key: value for key, value in explicit.items() if key != "out"})


def check_unchanged(run_dir: RunDir, manifest: dict[str, Any], dataset: Dataset, config: RunConfig) -> None:
    """Before a resume: ConfigError when the dataset's questions changed since the run in `run_dir`
    started, InputChanged when one of its input files did (factprobe.eval.run.inputs)."""
    recorded = manifest_part(run_dir, manifest_part(run_dir, manifest, "dataset", dict), "fingerprint", str)
    if recorded != dataset_fingerprint(dataset):
        raise ConfigError(f"the dataset {config.dataset} changed since the run in {run_dir.path} "
                          f"started (its content hash differs from the manifest's); resuming would "
                          f"mix answers to different questions. Start a new run instead.")
    check_inputs(manifest, config, run_dir.path)


def check_served(manifest: dict[str, Any], model: ChatModel, where: Path, spec: str, judge: bool = False) -> None:
    """ConfigError when the server behind --model (`judge`: --judge) now serves another model than
    the one that answered (graded) the rows of the run in `where` (its manifest's `served_model`,
    `judge_served_model`); nothing to compare for a new run, or for a model no server reports."""
    flag, key, did, what = ("--judge", "judge_served_model", "graded", "grades") if judge else \
        ("--model", "served_model", "answered", "answers")
    recorded, now = manifest.get(key), served_model(model)
    if recorded and now and recorded != now:
        raise ConfigError(f"{flag} {spec}: the server now serves {now!r}, but the run in {where} was {did} "
                          f"by {recorded!r}; resuming would mix the {what} of two models. Serve {recorded!r} "
                          f"again, or start a new run with another --out.")


def run_folder(config: RunConfig) -> Path:
    """The config's run directory: `new_config` and `resumed_config` always set it, so only a
    config completed some other way lacks it (an OptionError naming --out)."""
    if config.out is None:
        raise OptionError("--out: the run has no run directory (build its config with new_config)")
    return config.out
