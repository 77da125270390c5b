"""The LLM judge: question, gold answer and model answer in; a justification and one label out.

The reply must give one grade in anchored verdict lines in the words its prompt asks for
(factprobe.eval.grading.judge_labels); a grade given again on another verdict line is read once.
Anything else is UNGRADED with the reason, never a guess: no verdict line or an unknown label, the
label alone on the line after `Grade:`, verdict lines with different grades (the judge is still
deliberating), or a reply that repeats a fixed line of the prompt.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from factprobe.agents.models.base import ChatModel, GenerationParams, ModelError
from factprobe.eval.core.redact import redact
from factprobe.eval.core.schema import Grade, Question
from factprobe.eval.core.secrets import clip
from factprobe.eval.grading.base import GradeOutcome, HedgingPolicy
from factprobe.eval.grading.judge_labels import GRADE_LINE, LabelScheme
from factprobe.eval.grading.judge_prompts import DEFAULT_JUDGE_PROMPT, JudgePolicy, judge_policy


@dataclass(frozen=True)
class JudgeReading:
    """What a judge reply says: a grade, or UNGRADED with the reason it could not be read."""

    grade: Grade
    reason: str | None = None


def _unread(reason: str, scheme: LabelScheme) -> JudgeReading:
    return JudgeReading(Grade.UNGRADED, f"unparseable judge reply: {reason} (expected {scheme.expected()})")


def read_judge_reply(text: str, prompt_lines: frozenset[str] = frozenset(),
                     scheme: LabelScheme = GRADE_LINE) -> JudgeReading:
    """The grade of a reply whose verdict lines in `scheme`'s words give one grade; UNGRADED with the
    reason otherwise. `prompt_lines` are the prompt's fixed lines: a reply that repeats one echoes it.
    """
    lines = [line.strip() for line in text.splitlines()]
    echoed = [line for line in lines if line in prompt_lines]
    if echoed:
        return JudgeReading(Grade.UNGRADED,
                            f"unparseable judge reply: it echoes the prompt ({echoed[0][:60]!r})")
    keyed = [(index, match.group(1).capitalize(), match.group(2).strip()) for index, line in enumerate(lines)
             if (match := scheme.key_line.match(line))]
    lone = [(index, grade) for index, line in enumerate(lines)
            if scheme.lone and line and (grade := scheme.label(line)) is not None]
    verdicts: list[tuple[int, Grade]] = []
    for index, key, value in keyed:
        following = next((line for line in lines[index + 1:] if line), "")
        if not value.strip("*_` ") and scheme.label(following) is not None:
            return _unread(f"the label is on the line after `{key}:`, not on the same line", scheme)
        grade = scheme.label(value)
        if grade is None:
            return _unread(f"`{key}:` line with no valid label ({value[:40]!r})", scheme)
        verdicts.append((index, grade))
    verdicts = sorted(verdicts + [(index, grade) for index, grade in lone if index not in {i for i, _ in verdicts}])
    grades = [grade.value for _, grade in verdicts]
    if len(set(grades)) > 1:
        return _unread(f"{len(grades)} verdict lines with different grades ({', then '.join(grades)}); "
                       f"exactly one grade is required", scheme)
    if verdicts:
        return JudgeReading(verdicts[-1][1])
    what = "no `Grade: LABEL` line" if not scheme.lone else "no verdict line"
    return _unread(what, scheme)


class JudgeGrader:
    """Grades with a model (`--judge MODEL`) under one of the judge policies (`--judge-prompt`). With
    `--judge-media frames` the run hands it a model that adds the question's frames to its prompt
    (factprobe.eval.media.attach.FramesForJudge), so the grading layer stays text-only."""

    def __init__(self, model: ChatModel, hedging: HedgingPolicy = HedgingPolicy.ACCEPT,
                 max_tokens: int = 256, prompt: str = DEFAULT_JUDGE_PROMPT, prompt_file: Path | None = None,
                 labels: Sequence[str] = ()) -> None:
        self.model = model
        self.hedging = hedging
        self.max_tokens = max_tokens
        self.policy: JudgePolicy = judge_policy(prompt, hedging, prompt_file, labels)
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
        reading = read_judge_reply(completion.text, self.policy.fixed_lines(), self.policy.labels)
        unread = reading.grade is Grade.UNGRADED
        note = f"{reading.reason}: {clip(completion.text, 200)!r}" if unread else clip(completion.text.strip(), 500)
        return GradeOutcome(reading.grade, self.name, note, judge_prompt_tokens=completion.prompt_tokens,
                            judge_completion_tokens=completion.completion_tokens,
                            judge_latency_s=completion.latency_s)

    def describe(self) -> dict:
        described = {"grader": self.name, "hedging": self.hedging.value, "prompt": self.policy.name,
                     "prompt_version": self.policy.version, "model": self.model.describe()}
        if self.policy.sha256 is not None:
            described["prompt_sha256"] = self.policy.sha256
            described["reply_labels"] = self.policy.labels.describe()
        return described
