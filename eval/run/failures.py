"""Failures are never silent: the error-rate check that decides a run's exit status.

After `factprobe run` (and `--resume`) the latest row of every (question, strategy, repeat) is
counted; when the share of ERROR rows exceeds `--max-error-rate`, the run exits with
EXIT_TOO_MANY_ERRORS after its summary is written, and says how many failed and why (the most
common error messages, with every secret redacted: factprobe.eval.core.secrets).
"""

from __future__ import annotations

import shlex
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from factprobe.eval.core.redact import redact
from factprobe.eval.core.schema import Grade, Result
from factprobe.eval.core.secrets import REDACTED
from factprobe.eval.store.slim_rows import SlimRow, hop_grades

__all__ = ["REDACTED", "redact"]
EXIT_TOO_MANY_ERRORS = 3
TOP_MESSAGES = 3


@dataclass(frozen=True)
class ErrorReport:
    """How many of a run's rows are ERROR, and the most common (redacted) messages."""

    errors: int
    rows: int
    ungraded: int
    post_step_failures: int
    top_messages: list[tuple[str, int]]
    hop_errors: int = 0  # rows graded themselves but with an ERROR hop or sub-QA probe

    @property
    def rate(self) -> float:
        return self.errors / self.rows if self.rows else 0.0

    def exceeds(self, max_rate: float) -> bool:
        return self.rows > 0 and self.rate > max_rate

    @property
    def undecided_rate(self) -> float:
        return self.ungraded / self.rows if self.rows else 0.0

    def undecided_exceeds(self, max_rate: float) -> bool:
        return self.rows > 0 and self.undecided_rate > max_rate


def error_report(rows: Iterable[Result | SlimRow]) -> ErrorReport:
    """Counts over the latest row of every key (a row superseded by a resumed retry is not counted)."""
    latest: dict[tuple[str, str, int], Result | SlimRow] = {}
    for row in rows:
        latest[row.key] = row
    failed = [row for row in latest.values() if row.grade is Grade.ERROR]
    messages = Counter(redact(row.error or "no error message recorded") for row in failed)
    post = sum(1 for row in latest.values() if getattr(row, "post_step_errors", None))
    ungraded = sum(1 for row in latest.values() if row.grade is Grade.UNGRADED)
    hop_errors = sum(1 for row in latest.values() if row.grade is not Grade.ERROR and has_hop_error(row))
    return ErrorReport(len(failed), len(latest), ungraded, post, messages.most_common(TOP_MESSAGES),
                       hop_errors)


def has_hop_error(row: Result | SlimRow) -> bool:
    """An ERROR among the row's hops or sub-QA probes (per_hop leaves them out of its scores)."""
    probes = getattr(row, "hop_probes", None) or []
    return (any(grade is Grade.ERROR for grade in hop_grades(row) or ())
            or any(isinstance(probe, dict) and probe.get("grade") == Grade.ERROR.value for probe in probes))


def failure_message(report: ErrorReport, max_rate: float, run_path: str) -> str:
    """One paragraph: how many rows failed, the rate against the limit, the commonest causes."""
    causes = "; ".join(f"{count}× {message}" for message, count in report.top_messages)
    return (f"{report.errors} of {report.rows} rows are ERROR ({report.rate:.1%}), above "
            f"--max-error-rate {max_rate:.1%}. Most common errors: {causes}. The results and summary "
            f"are written; fix the cause and continue with `factprobe run --resume --out {run_path}` "
            f"(failed rows are run again).")


def regrade_hint(run_path: str, judge: str | None) -> str:
    """The command that grades a run's UNGRADED rows from their stored answers (the model is not
    asked again): `--resume` with the run's own judge, or with `--judge MODEL` when it has none."""
    command = f"factprobe run --resume --out {shlex.quote(run_path)}"
    if judge:
        return (f"`{command}` re-grades them from their stored answers with the run's judge "
                f"(add --judge MODEL for another)")
    return f"grade them later with a judge (any --model form), from their stored answers: `{command} --judge MODEL`"


def undecided_message(report: ErrorReport, max_rate: float, run_path: str, judge: str | None = None) -> str:
    """One paragraph: how many rows no grader decided, against the limit, and what to do."""
    return (f"{report.ungraded} of {report.rows} rows are UNGRADED ({report.undecided_rate:.1%}), above "
            f"--max-undecided-rate {max_rate:.1%}: the run's scores are not measured. The commonest cause is "
            f"a judge whose calls fail (see the rows' grade_note) or a rule grader that cannot decide "
            f"this dataset's answers. The results and summary are written; "
            f"{'fix the judge and then ' if judge else ''}{regrade_hint(run_path, judge)}, "
            f"or raise --max-undecided-rate.")


def warnings(report: ErrorReport, max_rate: float, max_undecided_rate: float = 1.0, run_path: str = "DIR",
             judge: str | None = None) -> list[str]:
    """Lines worth printing beside the exit status: errors within the limit, ungraded rows (with the
    command that grades them), rows whose post steps failed."""
    lines = []
    if report.errors and not report.exceeds(max_rate):
        lines.append(f"{report.errors} of {report.rows} rows are ERROR ({report.rate:.1%})")
    if report.ungraded and not report.undecided_exceeds(max_undecided_rate):
        lines.append(f"{report.ungraded} rows are UNGRADED (counted apart, never folded into a grade); "
                     f"{regrade_hint(run_path, judge)}")
    if report.post_step_failures:
        lines.append(f"{report.post_step_failures} rows have post_step_errors; `--resume` runs them again")
    if report.hop_errors:
        lines.append(f"{report.hop_errors} rows have an ERROR hop or sub-QA probe (left out of per_hop); "
                     f"`--resume` runs them again")
    return lines
