"""MMWorld's first evaluation mode (`--choice-grading judge`): the run's judge says whether the
model's free answer is the gold option, True or False.

The judge is shown the question, the options as they were shown, the gold option (letter and
text) and the model's reply, and answers True or False on the first line (yes / no are read the
same way, as MMWorld's own judge answers yes/no). Anything else is undecided: UNGRADED with the
reply quoted, never a guess. The prompt is our own wording of MMWorld's judge instruction.
"""

from __future__ import annotations

import re

from factprobe.agents.choices import ShownChoices
from factprobe.eval.core.schema import Grade

VERDICT_PROMPT_VERSION = "choice-verdict-1"
VERDICT_PROMPT = """A model answered a multiple-choice question. Decide whether its answer chooses the
correct option. The answer may name the option's letter, repeat its text or say the same thing in
other words; an answer that chooses another option, several options or none is not correct.

Question: {question}
{options}
Correct option: {gold_letter}. {gold_text}
Model's answer: {answer}

Reply with True if the model's answer chooses the correct option, else False, on the first line."""

_TRUE = re.compile(r"^\W*(true|yes)\W*$", re.IGNORECASE)
_FALSE = re.compile(r"^\W*(false|no)\W*$", re.IGNORECASE)


def verdict_messages(question: str, answer: str, shown: ShownChoices) -> list[dict[str, str]]:
    """The judge's one user turn for `answer` against the gold option of `shown`."""
    if shown.gold_letter is None:
        raise ValueError("a verdict needs a gold option")
    options = "\n".join(f"{letter}. {text}" for letter, text in zip(shown.letters, shown.options))
    return [{"role": "user", "content": VERDICT_PROMPT.format(
        question=question.strip(), options=options, gold_letter=shown.gold_letter,
        gold_text=shown.option_of(shown.gold_letter), answer=answer.strip())}]


def read_verdict(text: str) -> Grade:
    """CORRECT for True / yes, INCORRECT for False / no, on the first non-empty line; UNGRADED else."""
    first = next((line.strip() for line in text.splitlines() if line.strip()), "")
    if _TRUE.match(first):
        return Grade.CORRECT
    if _FALSE.match(first):
        return Grade.INCORRECT
    return Grade.UNGRADED
