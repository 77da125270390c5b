"""The data model every part of factprobe shares: questions, predictions and graded results."""

from __future__ import annotations

import re
from enum import Enum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, StrictBool

HOP_REFERENCE = re.compile(r"#(\d+)")
FieldValue = str | int | float | bool | list[str]
"""The value of a question's descriptive field (Question.fields)."""


class Passage(BaseModel):
    """One retrievable text: a corpus entry or a paragraph a dataset ships with a question."""

    model_config = ConfigDict(extra="forbid")

    id: str
    title: str = ""
    text: str


class Hop(BaseModel):
    """One single-fact sub-QA of a multi-hop question.

    `question` may reference earlier hops' answers as `#1`, `#2`, … (1-based); `render` substitutes
    them, so the same hop can be asked with gold or with predicted earlier answers.
    """

    model_config = ConfigDict(extra="forbid")

    question: str
    answer: str
    aliases: list[str] = Field(default_factory=list)
    passage_ids: list[str] = Field(default_factory=list)

    @property
    def refers_to(self) -> list[int]:
        """1-based indices of the earlier hops whose answers this hop's question uses."""
        return sorted({int(m) for m in HOP_REFERENCE.findall(self.question)})

    def render(self, earlier_answers: list[str]) -> str:
        """The hop's question with `#k` replaced by the k-th earlier answer."""

        def substitute(match: re.Match[str]) -> str:
            index = int(match.group(1)) - 1
            if index >= len(earlier_answers):
                raise ValueError(f"hop question {self.question!r} refers to #{index + 1}, "
                                 f"but only {len(earlier_answers)} earlier answers exist")
            return earlier_answers[index]

        return HOP_REFERENCE.sub(substitute, self.question)


class Question(BaseModel):
    """A fact-seeking question with its gold answer, in factprobe's native schema.

    Unanswerable questions have `answerable=False` and `answer=None`. Multi-hop questions carry
    their gold `hops` in order; the last hop's answer equals `answer`.
    """

    model_config = ConfigDict(extra="forbid")

    id: str
    question: str
    answer: str | None
    aliases: list[str] = Field(default_factory=list)
    answer_parts: list[str] = Field(default_factory=list)
    """The parts a complete answer states, each required ("a; b; c" asked as a list, or one value per entity, as
    "entity: value"); empty when the answer is one thing. The rule grader checks every part (`match_parts`)."""
    category: str = "general"
    answerable: bool = True
    unanswerable_reason: str | None = None
    hops: list[Hop] = Field(default_factory=list)
    choices: list[str] | None = None
    passage_ids: list[str] = Field(default_factory=list)
    corpus: list[Passage] = Field(default_factory=list)
    source: str = ""
    media_id: str | None = None
    """The id of the video or image set the question is about (Video SimpleQA: its `date` field)."""
    media: list[str] = Field(default_factory=list)
    """Images, image folders or videos the question is about: paths (relative ones are read under
    `--media DIR`, else beside the dataset file) or http(s) URLs (see factprobe.eval.media)."""
    caption: str | None = None
    """A text description of the media, asked instead of them in the `caption` input setting."""
    fields: dict[str, FieldValue] = Field(default_factory=dict)
    """The record's own descriptive fields a benchmark's analyses group by, under the released
    names (MMWorld `type`, `discipline`, `requires_audio`; WorldVQA `difficulty`, `language`; …):
    a string, number or flag, or a list of strings for multi-label fields (a question counts
    once under each label). `factprobe datasets describe` counts them."""

    @property
    def hop_count(self) -> int:
        """Number of hops; a single-hop question counts as 1."""
        return max(1, len(self.hops))

    @property
    def gold_answers(self) -> list[str]:
        """The answer followed by its aliases (empty for unanswerable questions)."""
        if self.answer is None:
            return []
        return [self.answer, *self.aliases]


class Grade(str, Enum):
    """The SimpleQA grades plus the two outcomes that are not a grade of the answer."""

    CORRECT = "CORRECT"
    INCORRECT = "INCORRECT"
    NOT_ATTEMPTED = "NOT_ATTEMPTED"
    UNGRADED = "UNGRADED"
    ERROR = "ERROR"


# The grades of an answer that was graded: the three SimpleQA outcomes.
GRADED = (Grade.CORRECT, Grade.INCORRECT, Grade.NOT_ATTEMPTED)


class TokenLogprob(BaseModel):
    """One generated token with its log-probability and the top alternatives."""

    token: str
    logprob: float
    top: dict[str, float] = Field(default_factory=dict)


class CallRecord(BaseModel):
    """What one model call cost and returned."""

    model: str
    purpose: str = ""
    prompt_tokens: int = 0
    completion_tokens: int = 0
    latency_s: float = 0.0
    cached: bool = False
    logprobs: list[TokenLogprob] | None = None


class HopResult(BaseModel):
    """One hop of a multi-hop question as answered and graded (contract `hops`)."""

    question: str
    gold: str | None
    answer: str | None
    grade: Grade | None = None
    confidence: float | None = None


class Result(BaseModel):
    """One line of results.jsonl: a (question, strategy, repeat) answered and graded."""

    model_config = ConfigDict(extra="allow")

    question_id: str
    strategy: str
    repeat: int = Field(0, ge=0)
    question: str
    gold: str | None
    category: str
    answerable: StrictBool = True
    hop_count: int = 1
    answer: str | None = None
    raw: str | None = None
    confidence: float | None = None
    confidences: dict[str, float | None] = Field(default_factory=dict)
    grade: Grade
    grader: str
    grade_note: str | None = None
    latency_s: float = 0.0
    retrieval_latency_s: float = 0.0
    llm_latency_s: float = 0.0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    llm_calls: int = 0
    error: str | None = None
    trace: list[dict[str, Any]] = Field(default_factory=list)
    hops: list[HopResult] | None = None
    samples: list[dict[str, Any]] | None = None
    retrieved_ids: list[str] | None = None
    gold_passage_ids: list[str] | None = None

    @property
    def key(self) -> tuple[str, str, int]:
        """Identity of a row: later rows with the same key supersede earlier ones."""
        return (self.question_id, self.strategy, self.repeat)

    def extra_field(self, key: str) -> Any:
        """A field that a post step or a section added beyond the contract's keys (None if absent)."""
        return (self.model_extra or {}).get(key)
