"""The `fanoutqa` loader: FanOutQA JSON (a list of questions with human decompositions).

Answers are structured (a dict of entity -> value, a list, a number); the answer string renders
them in the dataset's order: `Pat Burrell: Right; Mark Mulder: Left`, `Harvard; Yale`, `4`.

Hops, by this rule:
1. The decomposition is flattened to its leaf sub-questions: siblings are put in `depends_on`
   order (stable: the written order where dependencies allow), and a sub-question with its own
   decomposition is replaced by that decomposition's leaves.
2. Every leaf becomes a hop (its rendered sub-answer is the hop's answer). Human writers name the
   earlier answers in the text ("What is the batting hand of Pat Burrell?"), so hops carry no `#k`.
3. When the last leaf already answers the question (a chain), that is the last hop. Most questions
   fan out instead (one list, then one fact per item), and no single leaf answers them: their hops
   end with a composition hop that asks the question itself with the full answer, so the last
   hop's answer is always the question's answer. The dataset's notes count these.
The category is the record's first category. FanOutQA's evidence is live Wikipedia pages, not a
shipped corpus, so questions carry no per-question corpus.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, Field, JsonValue

from factprobe.eval.core.normalize import normalize_answer
from factprobe.eval.core.schema import Hop, Question
from factprobe.eval.datasets.raw import Text, check_hop_references, json_records, parse_records, record_error
from factprobe.eval.datasets.registry import Dataset, loader

NAME = "fanoutqa"


class RecordProblem(ValueError):
    """A field of one record that cannot be mapped; load() adds the file and record."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


class RawStep(BaseModel):
    id: Text
    question: Text
    answer: JsonValue
    decomposition: list[RawStep] = Field(default_factory=list)
    depends_on: list[str] = Field(default_factory=list)


class RawRecord(BaseModel):
    id: Text
    question: Text
    answer: JsonValue
    decomposition: list[RawStep] = Field(default_factory=list)
    categories: list[str] = Field(default_factory=list)


def render_answer(value: JsonValue, field: str = "answer") -> str:
    """A structured answer as one line of text."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, list):
        return "; ".join(render_answer(item, field) for item in value)
    if isinstance(value, dict):
        return "; ".join(f"{key}: {render_answer(item, field)}" for key, item in value.items())
    raise RecordProblem(field, "an answer cannot be null")


def answer_parts(value: JsonValue) -> list[str]:
    """The parts of a list or per-entity answer, each rendered; none for an answer that is one thing."""
    if isinstance(value, list) and len(value) >= 2:
        return [render_answer(item) for item in value]
    if isinstance(value, dict) and len(value) >= 2:
        return [f"{key}: {render_answer(item)}" for key, item in value.items()]
    return []


def dependency_order(steps: list[RawStep], field: str) -> list[RawStep]:
    """Siblings sorted so each comes after the siblings it depends on (stable); raises on a cycle."""
    by_id = {step.id: step for step in steps}
    done: set[str] = set()
    ordered: list[RawStep] = []
    while len(ordered) < len(steps):
        ready = [step for step in steps if step.id not in done
                 and all(dep in done or dep not in by_id for dep in step.depends_on)]
        if not ready:
            raise RecordProblem(field, "the `depends_on` links form a cycle")
        ordered.append(ready[0])
        done.add(ready[0].id)
    return ordered


def leaves(steps: list[RawStep], field: str, known: set[str]) -> list[tuple[str, RawStep]]:
    """The leaf sub-questions in dependency order, nested decompositions expanded in place."""
    for index, step in enumerate(steps):
        unknown = [dep for dep in step.depends_on if dep not in known]
        if unknown:
            raise RecordProblem(f"{field}.{index}.depends_on", f"names no sub-question: {unknown[0]!r}")
    result: list[tuple[str, RawStep]] = []
    for step in dependency_order(steps, field):
        here = f"{field}.{steps.index(step)}"
        result.extend(leaves(step.decomposition, f"{here}.decomposition", known) if step.decomposition
                      else [(here, step)])
    return result


def all_ids(steps: list[RawStep]) -> set[str]:
    return {step.id for step in steps} | {i for step in steps for i in all_ids(step.decomposition)}


def build_hops(record: RawRecord, answer: str) -> tuple[list[Hop], bool]:
    """The hops and whether a composition hop had to be added."""
    steps = leaves(record.decomposition, "decomposition", all_ids(record.decomposition))
    hops = [Hop(question=" ".join(step.question.split()), answer=render_answer(step.answer, f"{here}.answer"))
            for here, step in steps]
    if not hops:
        return [], False
    composed = normalize_answer(hops[-1].answer) != normalize_answer(answer)
    if composed:
        hops.append(Hop(question=record.question, answer=answer))
    hops[-1].answer = answer
    return hops, composed


@loader("fanoutqa", "FanOutQA JSON: human decompositions with depends_on", order=80)
def load(path: Path) -> Dataset:
    questions: list[Question] = []
    composed_count = 0
    for where, record in parse_records(path, json_records(path), RawRecord, "FanOutQA"):
        try:
            answer = render_answer(record.answer)
            hops, composed = build_hops(record, answer)
        except RecordProblem as exc:
            raise record_error(path, where, exc.field, str(exc)) from None
        if not answer:
            raise record_error(path, where, "answer", "the answer is empty")
        check_hop_references(path, where, hops, "decomposition (leaf sub-question {number})")
        composed_count += composed
        questions.append(Question(id=record.id, question=record.question, answer=answer,
                                  answer_parts=answer_parts(record.answer),
                                  category=record.categories[0] if record.categories else "general",
                                  hops=hops, source=NAME))
    notes = []
    if composed_count:
        notes.append(f"{composed_count} of {len(questions)} questions fan out: their hops end with a "
                     f"composition hop asking the whole question")
    return Dataset(path.stem, questions, notes=notes)

