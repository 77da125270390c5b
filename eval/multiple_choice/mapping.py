"""A free answer to a multiple-choice question, mapped to an option letter and graded (docs/protocols.md §7).

Rules first (`letter_by_rules`, kept in factprobe.agents.choices so the forced re-ask of refused
questions reads a letter the same way), in this order; the first that decides wins:
1. a lone letter, optionally bracketed or followed by `.`/`)`/`:`: "B", "(b)", "B." ;
2. a letter after "answer", "option" or "choice" ("Answer: b", "The answer is (B)", "Option C");
3. a letter followed by text ("B. Paris", "(B) Paris"): the letter, if the text is that option's
   text (a different option's text is a contradiction: unmapped);
4. the text of exactly one option, compared without case, spaces at the ends, or a final period.
A letter that names no shown option is not a mapping. Only when no rule decides is a model asked
once (`letter_by_model`; in a run, the run's judge, never the model under test): a short prompt
with the options and the reply, answered with a letter or NONE. That call is measurement,
recorded apart from the strategy's cost.

Grading: the mapped letter against the gold letter of the shown order: CORRECT or INCORRECT; the
refusal option (when offered) is NOT_ATTEMPTED. An answer that maps to no option is NOT_ATTEMPTED
when it is a refusal (or empty), INCORRECT otherwise: a reply that names something outside the
options did attempt an answer. A mapping reply that is neither a shown letter nor NONE decides
nothing: the answer is UNGRADED (factprobe.eval.multiple_choice.step).
"""

from __future__ import annotations

import re

from factprobe.agents.choices import ShownChoices, letter_by_rules
from factprobe.agents.models.base import ChatModel, Completion, GenerationParams
from factprobe.eval.core.schema import Grade
from factprobe.eval.grading.phrases import is_refusal

_NONE = re.compile(r"^none\.?$", re.IGNORECASE)

MAPPER_PROMPT = """A reply to a multiple-choice question is given below with the options it was offered.
Which option does the reply choose? Answer with the option's letter alone, or NONE if the reply
chooses no option or more than one.

{options}

Reply: {reply}"""


def mapper_messages(answer: str, shown: ShownChoices) -> list[dict[str, str]]:
    options = "\n".join(f"{letter}. {text}" for letter, text in zip(shown.letters, shown.options))
    return [{"role": "user", "content": MAPPER_PROMPT.format(options=options, reply=answer.strip())}]


def parse_mapper_reply(text: str, shown: ShownChoices) -> str | None:
    """The letter the reply's first non-empty line names by the same rules as an answer ("B",
    "(b)", "B. <option B's text>", …); None for NONE, an unknown letter or anything else."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if not lines or _NONE.match(lines[0]):
        return None
    return letter_by_rules(lines[0], shown)


def says_none(text: str) -> bool:
    """Whether the mapping reply's first non-empty line is NONE (the reply chooses no option)."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return bool(lines) and _NONE.match(lines[0]) is not None


async def letter_by_model(model: ChatModel, answer: str, shown: ShownChoices,
                          params: GenerationParams) -> tuple[str | None, Completion]:
    """One short call asking which option the answer chooses; (letter or None, the completion)."""
    completion = await model.generate(mapper_messages(answer, shown), params)
    return parse_mapper_reply(completion.text, shown), completion


def choice_grade(letter: str | None, answer: str | None, shown: ShownChoices) -> Grade:
    """CORRECT / INCORRECT for a mapped letter, NOT_ATTEMPTED for the refusal option; unmapped:
    NOT_ATTEMPTED for a refusal or no answer, else INCORRECT."""
    if letter is None:
        return Grade.NOT_ATTEMPTED if not answer or not answer.strip() or is_refusal(answer) else Grade.INCORRECT
    if letter == shown.refusal_letter:
        return Grade.NOT_ATTEMPTED
    return Grade.CORRECT if letter == shown.gold_letter else Grade.INCORRECT
