"""The LLM judge: question, gold answer and model answer in; a justification and one label out.

The reply must hold exactly one anchored label line, `Grade: CORRECT`, `Grade: INCORRECT` or
`Grade: NOT_ATTEMPTED`, on its own line (markdown emphasis and a trailing full stop are tolerated).
Anything else is UNGRADED with the reason, never a guess:
- no `Grade:` line, or one whose label is not one of the three;
- the label alone on the line after `Grade:`;
- two or more `Grade:` lines, even identical ones: a judge that writes its verdict twice is
  deliberating or repeating instructions, and reading either copy would be a guess;
- a reply that repeats a fixed line of the prompt (an echo).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from factprobe.agents.models.base import ChatModel, GenerationParams, ModelError
from factprobe.eval.core.redact import redact
from factprobe.eval.core.schema import Grade, Question
from factprobe.eval.grading.base import GradeOutcome, HedgingPolicy
from factprobe.eval.grading.judge_prompts import DEFAULT_JUDGE_PROMPT, JudgePolicy, judge_policy

_GRADE_LINE = re.compile(r"^\W*grade\W*[:：](.*)$", re.IGNORECASE)
_LABEL = re.compile(r"^\W*(CORRECT|INCORRECT|NOT[ _]ATTEMPTED)\W*$", re.IGNORECASE)


@dataclass(frozen=True)
class JudgeReading:
    """What a judge reply says: a grade, or UNGRADED with the reason it could not be read."""

    grade: Grade
    reason: str | None = None


def _label(text: str) -> Grade | None:
    match = _LABEL.match(text)
    return Grade(match.group(1).upper().replace(" ", "_")) if match else None


def read_judge_reply(text: str, prompt_lines: frozenset[str] = frozenset()) -> JudgeReading:
    """The grade of a reply with exactly one anchored label line; UNGRADED with the reason otherwise.

    `prompt_lines` are the prompt's fixed lines: a reply that repeats one echoes the prompt.
    """
    lines = [line.strip() for line in text.splitlines()]
    echoed = [line for line in lines if line in prompt_lines]
    if echoed:
        return JudgeReading(Grade.UNGRADED,
                            f"unparseable judge reply: it echoes the prompt ({echoed[0][:60]!r})")
    grade_lines = [(index, match.group(1).strip()) for index, line in enumerate(lines)
                   if (match := _GRADE_LINE.match(line))]
    if len(grade_lines) > 1:
        return JudgeReading(Grade.UNGRADED, f"unparseable judge reply: {len(grade_lines)} `Grade:` lines, "
                                            f"exactly one is required")
    if not grade_lines:
        return JudgeReading(Grade.UNGRADED, "unparseable judge reply: no `Grade: LABEL` line")
    index, value = grade_lines[0]
    grade = _label(value)
    if grade is not None:
        return JudgeReading(grade)
    following = next((line for line in lines[index + 1:] if line), "")
    if not value.strip("*_` ") and _label(following) is not None:
        return JudgeReading(Grade.UNGRADED, "unparseable judge reply: the label is on the line after "
                                            "`Grade:`, not on the same line")
    return JudgeReading(Grade.UNGRADED, f"unparseable judge reply: `Grade:` line with no valid label "
                                        f"({value[:40]!r})")


def parse_judge_reply(text: str) -> Grade | None:
    """The grade of a well-formed reply, or None when it has none (see `read_judge_reply`)."""
    reading = read_judge_reply(text)
    return None if reading.grade is Grade.UNGRADED else reading.grade


class JudgeGrader:
    """Grades with a model (`--judge MODEL`) under one of the judge policies (`--judge-prompt`). With
    `--judge-media frames` the run hands it a model that adds the question's frames to its prompt
    (factprobe.eval.media.attach.FramesForJudge), so the grading layer stays text-only."""

    def __init__(self, model: ChatModel, hedging: HedgingPolicy = HedgingPolicy.ACCEPT,
                 max_tokens: int = 256, prompt: str = DEFAULT_JUDGE_PROMPT, prompt_file: Path | None = None) -> None:
        self.model = model
        self.hedging = hedging
        self.max_tokens = max_tokens
        self.policy: JudgePolicy = judge_policy(prompt, hedging, prompt_file)
        self.name = f"judge:{model.name}"
        self.calls = 0

    def prompt(self, question: Question, answer: str | None) -> str:
        gold = " / ".join(question.gold_answers) if question.answerable and question.answer else "none"
        return self.policy.render(question.question, gold, answer or "(no answer)", self.hedging,
                                  unanswerable=not question.answerable)

    async def grade(self, question: Question, answer: str | None, reply: str | None = None) -> GradeOutcome:
        """The judge's grade; it reads the whole `reply` when given (not only the parsed answer line)."""
        if answer is None or not answer.strip():
            return GradeOutcome(Grade.NOT_ATTEMPTED, self.name, "empty answer (judge not asked)")
        whole = reply if reply is not None and reply.strip() else answer
        messages = [{"role": "user", "content": self.prompt(question, whole)}]
        self.calls += 1
        try:
            completion = await self.model.generate(messages, GenerationParams(max_tokens=self.max_tokens))
        except ModelError as exc:
            return GradeOutcome(Grade.UNGRADED, self.name, f"judge call failed: {redact(str(exc))}")
        reading = read_judge_reply(completion.text, self.policy.fixed_lines())
        unread = reading.grade is Grade.UNGRADED
        note = f"{reading.reason}: {completion.text[:200]!r}" if unread else completion.text.strip()[:500]
        return GradeOutcome(reading.grade, self.name, note, judge_prompt_tokens=completion.prompt_tokens,
                            judge_completion_tokens=completion.completion_tokens,
                            judge_latency_s=completion.latency_s)

    def describe(self) -> dict:
        described = {"grader": self.name, "hedging": self.hedging.value, "prompt": self.policy.name,
                     "prompt_version": self.policy.version, "model": self.model.describe()}
        if self.policy.sha256 is not None:
            described["prompt_sha256"] = self.policy.sha256
        return described
