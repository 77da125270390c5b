"""Grading later: `factprobe run --resume --out DIR --judge SPEC`.

A judge is the one result-changing option `--resume` accepts changed (or newly given): it grades the
rows the run left UNGRADED from their stored answers, without asking the model again, and grades the
rows still to answer. Rows already graded keep their grades. A run graded by the rules alone gets
the cascade (the rules' grades stand; the judge decides only what they left undecided), so the rows
the rules left UNGRADED are the ones it re-grades. The manifest records the judge and the grader,
and keeps every earlier judge under `regraded_with`.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from factprobe.eval.config.run_config import RunConfig
from factprobe.eval.core.schema import Result
from factprobe.eval.core.secrets import redact_values
from factprobe.eval.grading.base import Grader
from factprobe.eval.grading.service import GradingService

REGRADED_WITH = "regraded_with"   # manifest key: one entry per judge given with --resume


def as_recorded(spec: str | None) -> str | None:
    """A model spec as the manifest keeps it (its secrets redacted)."""
    return None if spec is None else redact_values(spec)


def judge_changed(recorded: str | None, wanted: str | None) -> bool:
    """Whether `--judge` differs from the judge the manifest records (compared as it is recorded)."""
    return as_recorded(wanted) != recorded


def rules_only(config: RunConfig) -> bool:
    """Whether the run is graded by the rules alone (no judge, `--grader` unset or rules)."""
    return config.judge is None and config.grader in (None, "rules")


def new_judge_options(recorded: RunConfig, wanted: RunConfig) -> set[str]:
    """The options `wanted` (a resumed run's config) may change against `recorded` because a judge
    was given with --resume: none when the judge is unchanged; `judge`, and `grader` for a run the
    rules graded alone (set to the cascade here, unless `--grader` was changed by hand)."""
    if not judge_changed(recorded.judge, wanted.judge) or wanted.judge is None:
        return set()
    if rules_only(recorded) and wanted.grader == recorded.grader:
        wanted.grader = "cascade"
    return {"judge", "grader"} if rules_only(recorded) and wanted.grader == "cascade" else {"judge"}


def described_names(described: Any) -> set[str]:
    """The grader names a manifest's grader description holds (`grader` of it and of its parts,
    and a cascade's own name: what its rows' `grader` may say)."""
    if not isinstance(described, dict):
        return set()
    names = {described["grader"]} if isinstance(described.get("grader"), str) else set()
    for part in ("rules", "judge"):
        names |= described_names(described.get(part))
    judge = described.get("judge")
    if described.get("grader") == "cascade" and isinstance(judge, dict):
        names.add(f"cascade:rules>{judge.get('grader')}")   # CascadeGrader.name, when the cascade raised
    return names


def earlier_graders(manifest: dict[str, Any]) -> set[str]:
    """The names of every grader the run was graded with before (the manifest's and those it
    replaced on an earlier --resume with a judge)."""
    names = described_names(manifest.get("grader"))
    for entry in manifest.get(REGRADED_WITH) or []:
        names |= described_names(entry.get("previous_grader") if isinstance(entry, dict) else None)
    return names


def regradable(rows: list[Result], grader: Grader, manifest: dict[str, Any] | None) -> list[Result]:
    """The UNGRADED rows `grader` re-grades from their stored answers: those it (or a part of its
    cascade) left undecided and, when a judge is given with --resume (`manifest`: the run's, before
    this resume), those the run's earlier graders left undecided. A row another grader left UNGRADED
    (a multiple-choice letter) keeps its grading policy: it is not among them."""
    service = GradingService(grader)
    earlier = earlier_graders(manifest) if manifest is not None else set()
    return [row for row in rows if service.regrades(row) or row.grader in earlier]


def with_new_judge(manifest: dict[str, Any], config: RunConfig, grader: Grader,
                   judge_served: str | None = None) -> dict[str, Any]:
    """The manifest of a run resumed with another judge: the judge and grader in `config` and
    `grader` (the model its server reports: `judge_served`), and under `regraded_with` when and
    what they replaced."""
    entry = {"utc": datetime.now(timezone.utc).isoformat(timespec="seconds"), "judge": config.judge,
             "grader": grader.describe(), "previous_judge": manifest["config"].get("judge"),
             "previous_grader": manifest.get("grader"), "judge_served_model": judge_served,
             "previous_judge_served_model": manifest.get("judge_served_model")}
    return {**manifest, "config": {**manifest["config"], "judge": config.judge, "grader": config.grader},
            "grader": grader.describe(), "judge_served_model": judge_served,
            REGRADED_WITH: [*(manifest.get(REGRADED_WITH) or []), entry]}
