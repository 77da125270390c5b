"""Error taxonomy (protocols §7): a judge model sorts each INCORRECT answer by the kind of mistake.

Kinds: perception, knowledge, reasoning, refusal, format. The judge replies with one `Kind:` line
and one `Reason:` line; a reply without exactly one `Kind:` line naming a known kind is recorded as
`unclassified` with the reply kept, never mapped to the nearest kind. A failed judge call records
nothing, so the row is tried again on the next run.

Entries are appended to DIR/taxonomy.jsonl as they are classified (flushed one by one); a run skips
the rows that file already holds for the same judge, so an interrupted classification resumes.
The summary section reads the latest entry per row.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from factprobe.agents.models.base import ChatModel, GenerationParams
from factprobe.eval.core.schema import Grade, Result
from factprobe.eval.core.secrets import redact_values
from factprobe.eval.store.run_dir import RunDirError

TAXONOMY_FILE = "taxonomy.jsonl"
TAXONOMY_PROMPT_VERSION = "1"
KINDS = ("perception", "knowledge", "reasoning", "refusal", "format")
UNCLASSIFIED = "unclassified"
RAW_LIMIT = 600   # characters of the model's raw reply shown to the judge

TAXONOMY_SYSTEM = "You sort wrong answers to factual questions by the kind of mistake behind them."
TAXONOMY_USER = """An answer to the question below was graded wrong. Say which kind of mistake it is.

perception: the question depends on an image, a video or another input the model had to look at, \
and the answer misreads that input or was given without it.
knowledge: the model does not know, or misremembers, the fact that is asked for.
reasoning: the model had what it needed but combined it wrongly (a wrong step in a chain of facts, \
a calculation, a comparison, an order of dates).
refusal: the model declined or deflected instead of answering.
format: the reply does not answer in the requested form (no answer, several answers, an option \
that was not offered, a reply cut off).

Question: {question}
Correct answer: {gold}
Answer given: {answer}
Full reply: {raw}{hops}

Reply with exactly two lines:
Kind: one of perception, knowledge, reasoning, refusal, format
Reason: one sentence"""

_KIND_LINE = re.compile(r"^\s*\**kind\**\s*:\s*\**\s*([a-z]+)\s*\**\s*\.?\s*$", re.IGNORECASE)
_REASON_LINE = re.compile(r"^\s*\**reason\**\s*:\s*(.+)$", re.IGNORECASE)

Key = tuple[str, str, int]


@dataclass(frozen=True)
class Classification:
    kind: str
    reason: str | None


def hop_lines(row: Result) -> str:
    """The row's sub-QA probes (or chain hops) as extra evidence, one line each; '' without any."""
    probes = row.extra_field("hop_probes")
    hops = probes or [hop.model_dump(mode="json") for hop in (row.hops or [])]
    if not hops:
        return ""
    lines = [f"- {h['question']} -> {h.get('answer') or '(none)'} (gold {h.get('gold')}: {h.get('grade')})"
             for h in hops]
    return "\nSub-questions asked on their own:\n" + "\n".join(lines)


def taxonomy_messages(row: Result) -> list[dict[str, str]]:
    raw = (row.raw or "").strip()
    user = TAXONOMY_USER.format(question=row.question, gold=row.gold or "(none)",
                                answer=row.answer or "(no answer)",
                                raw=raw[:RAW_LIMIT] + ("…" if len(raw) > RAW_LIMIT else ""),
                                hops=hop_lines(row))
    return [{"role": "system", "content": TAXONOMY_SYSTEM}, {"role": "user", "content": user}]


def parse_taxonomy_reply(text: str) -> Classification:
    """The kind on the reply's single `Kind:` line and its `Reason:`; `unclassified` otherwise."""
    lines = text.splitlines()
    kinds = [match.group(1).lower() for line in lines if (match := _KIND_LINE.match(line))]
    reasons = [match.group(1).strip() for line in lines if (match := _REASON_LINE.match(line))]
    reason = reasons[0] if reasons else None
    if len(kinds) != 1 or kinds[0] not in KINDS:
        return Classification(UNCLASSIFIED, reason)
    return Classification(kinds[0], reason)


def incorrect_rows(rows: list[Result]) -> list[Result]:
    """The latest INCORRECT row per (question, strategy, repeat), in file order."""
    latest: dict[Key, Result] = {row.key: row for row in rows}
    return [row for row in latest.values() if row.grade is Grade.INCORRECT]


class TaxonomyFile:
    """DIR/taxonomy.jsonl: one entry per classified row, appended and flushed as it is written."""

    def __init__(self, directory: Path) -> None:
        self.path = directory / TAXONOMY_FILE

    def read(self) -> list[dict[str, Any]]:
        """Every entry in file order; a torn last line (a crash mid-write) is skipped."""
        if not self.path.is_file():
            return []
        lines = self.path.read_text(encoding="utf-8").splitlines()
        entries = []
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                entries.append(json.loads(line))
            except json.JSONDecodeError:
                if number == len(lines):
                    break
                raise RunDirError(f"{self.path}, line {number}: not valid JSON") from None
        return entries

    def done(self, judge: str) -> set[Key]:
        return {(e["question_id"], e["strategy"], e["repeat"]) for e in self.read() if e.get("judge") == judge}

    def latest(self) -> dict[Key, dict[str, Any]]:
        return {(e["question_id"], e["strategy"], e["repeat"]): e for e in self.read()}

    def append(self, entry: dict[str, Any]) -> None:
        with self.path.open("a", encoding="utf-8") as handle:
            handle.write(redact_values(json.dumps(entry, ensure_ascii=False)) + "\n")
            handle.flush()
            os.fsync(handle.fileno())


async def classify_row(model: ChatModel, row: Result, judge: str, max_tokens: int = 160) -> dict[str, Any]:
    """The taxonomy entry for one INCORRECT row; a failed call raises ModelError (nothing recorded)."""
    completion = await model.generate(taxonomy_messages(row), GenerationParams(max_tokens=max_tokens))
    found = parse_taxonomy_reply(completion.text)
    return {"question_id": row.question_id, "strategy": row.strategy, "repeat": row.repeat,
            "kind": found.kind, "reason": found.reason, "judge": judge,
            "prompt_version": TAXONOMY_PROMPT_VERSION, "reply": completion.text.strip()[:500]}
