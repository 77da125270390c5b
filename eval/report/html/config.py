"""The run's configuration as labelled lines, from manifest.json."""

from __future__ import annotations

import json
from typing import Any

Section = tuple[str, list[tuple[str, str]]]


def text(value: Any) -> str:
    if value is None:
        return "–"
    if isinstance(value, list) and all(isinstance(item, (str, int, float)) for item in value):
        return ", ".join(str(item) for item in value)
    if isinstance(value, (dict, list)):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def config_sections(manifest: dict[str, Any]) -> list[Section]:
    """Run, model and grader, options, versions: what a reader needs to reproduce the run."""
    config = manifest.get("config") or {}
    dataset = manifest.get("dataset") or {}
    run = [("command", " ".join(["factprobe", *manifest.get("command", [])[1:]])),
           ("started (UTC)", text(manifest.get("started_utc"))),
           ("dataset", f"{dataset.get('name', config.get('dataset'))}: {dataset.get('selected', '?')} of "
                       f"{dataset.get('questions', '?')} questions"),
           ("strategies", text(config.get("strategies"))),
           ("baseline", text(config.get("baseline")))]
    model = [(f"model {key}", text(value)) for key, value in (manifest.get("model") or {}).items()]
    grader = [(f"grader {key}", text(value)) for key, value in (manifest.get("grader") or {}).items()]
    options = [(key, text(value)) for key, value in config.items() if key not in ("strategies", "baseline")]
    versions = [("factprobe", text(manifest.get("factprobe_version"))),
                ("prompts", text(manifest.get("prompts_version"))),
                ("python", text(manifest.get("python"))), ("platform", text(manifest.get("platform")))]
    versions += [(name, text(version)) for name, version in (manifest.get("packages") or {}).items()]
    return [("Run", run), ("Model and grader", model + grader), ("Options", options), ("Versions", versions)]


def config_lines(manifest: dict[str, Any]) -> dict[str, str]:
    """Every labelled line of config_sections, for comparing runs line by line."""
    return {f"{heading}: {label}": value for heading, lines in config_sections(manifest)
            for label, value in lines}
