"""The LLM judge: question, gold answer and model answer in; a justification and one label out.

The label is read from an anchored `Grade: LABEL` line (the last one), so "C" inside "CORRECT"
can never be mistaken for a grade; a reply without one is UNGRADED, counted apart.
"""

from __future__ import annotations

import re

from factprobe.agents.models.base import ChatModel, GenerationParams, ModelError
from factprobe.eval.grading.base import GradeOutcome, HedgingPolicy
from factprobe.eval.schema import Grade, Question

JUDGE_PROMPT_VERSION = "1"

JUDGE_PROMPT = """You are grading an answer to a fact-seeking question against its gold answer.

Labels:
- CORRECT: the answer contains the key information of the gold answer and contradicts nothing in it.
  Extra detail is fine; a more specific answer than the gold one is fine.
- INCORRECT: the answer contradicts the gold answer, names a different entity, or is less specific
  than the gold answer (for gold "Bichon Frise", "a dog" is INCORRECT).
- NOT_ATTEMPTED: the answer gives no answer (for example "I don't know") and contradicts nothing.
{hedging_rule}
{unanswerable_rule}
Question: {question}
Gold answer: {gold}
Answer to grade: {answer}

Write one short sentence of justification, then a last line of the form
Grade: CORRECT
or
Grade: INCORRECT
or
Grade: NOT_ATTEMPTED"""

HEDGING_RULES = {
    HedgingPolicy.ACCEPT: "- A hedged answer (\"I think it is X\") that contains the gold answer is CORRECT.",
    HedgingPolicy.PENALIZE: ("- A hedged or equivocal answer (\"possibly X\", \"I think X, but I am not "
                             "sure\", \"X or Y\") is INCORRECT even if it mentions the gold answer."),
}
UNANSWERABLE_RULE = ("- This question has no correct answer (gold: none). A refusal is NOT_ATTEMPTED; "
                     "any answer that asserts something is INCORRECT.")

_GRADE_LINE = re.compile(r"^\W*grade\W*[:：]\W*(CORRECT|INCORRECT|NOT[ _]ATTEMPTED)\W*$",
                         re.IGNORECASE | re.MULTILINE)


def parse_judge_reply(text: str) -> Grade | None:
    """The label of the last anchored `Grade:` line, or None when there is none."""
    matches = _GRADE_LINE.findall(text)
    if not matches:
        return None
    return Grade(matches[-1].upper().replace(" ", "_"))


class JudgeGrader:
    """Grades with a model (`--judge MODEL`) using the three-way SimpleQA-style prompt."""

    def __init__(self, model: ChatModel, hedging: HedgingPolicy = HedgingPolicy.ACCEPT,
                 max_tokens: int = 256) -> None:
        self.model = model
        self.hedging = hedging
        self.max_tokens = max_tokens
        self.name = f"judge:{model.name}"

    def prompt(self, question: Question, answer: str | None) -> str:
        gold = " / ".join(question.gold_answers) if question.answerable and question.answer else "none"
        return JUDGE_PROMPT.format(
            hedging_rule=HEDGING_RULES[self.hedging],
            unanswerable_rule=UNANSWERABLE_RULE if not question.answerable else "",
            question=question.question, gold=gold, answer=answer or "(no answer)")

    async def grade(self, question: Question, answer: str | None) -> GradeOutcome:
        if answer is None or not answer.strip():
            return GradeOutcome(Grade.NOT_ATTEMPTED, self.name, "empty answer")
        messages = [{"role": "user", "content": self.prompt(question, answer)}]
        try:
            reply = await self.model.generate(messages, GenerationParams(max_tokens=self.max_tokens))
        except ModelError as exc:
            return GradeOutcome(Grade.UNGRADED, self.name, f"judge call failed: {exc}")
        grade = parse_judge_reply(reply.text)
        if grade is None:
            return GradeOutcome(Grade.UNGRADED, self.name, f"unparseable judge reply: {reply.text[:200]!r}")
        return GradeOutcome(grade, self.name, reply.text.strip()[:500])

    def describe(self) -> dict:
        return {"grader": self.name, "hedging": self.hedging.value,
                "prompt_version": JUDGE_PROMPT_VERSION, "model": self.model.describe()}
