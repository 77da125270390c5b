"""The judge's grading policies: one versioned prompt per policy (`--judge-prompt`).

- `simpleqa` (default): SimpleQA's rules, which the rule grader implements; hedges follow `--hedging`.
- `videosimpleqa`: the same, but any hedged answer is INCORRECT (it requires `--hedging penalize`).
- `worldvqa`: core meaning and granularity (coarser than the gold is INCORRECT, finer is fine); no number
  or name-typo allowances.
- `simpleqa-verified`: a numeric gold may give an acceptable range; uncommitted candidates are NOT_ATTEMPTED.
- a file (`--judge-prompt-file FILE`): a user's template with the placeholders {question}, {gold} and
  {answer}, recorded by its sha256; its replies are read in the labels it asks for
  (factprobe.eval.grading.judge_labels) or in the words `--judge-labels` maps.

Every built-in prompt ends by asking for exactly one `Grade: LABEL` line, and none of them contains
such a line itself, so a reply that echoes the prompt can never be read as a grade.
"""

from __future__ import annotations

import hashlib
import string
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from factprobe.eval.grading.base import HedgingPolicy
from factprobe.eval.grading.judge_labels import (
    GRADE_LINE,
    JudgeLabelsError,
    LabelScheme,
    parse_label_mapping,
    template_scheme,
)


class JudgePolicyError(ValueError):
    """A judge prompt that does not exist, or one that contradicts the hedging setting."""


_LABELS = """Labels
- CORRECT: the answer states the key information of the gold answer and nothing that contradicts it.
  Wording, capitalisation, word order and extra compatible detail do not matter; an answer more
  specific than the gold answer is fine.
- INCORRECT: the answer commits to something the gold answer rules out: another person, place,
  value or date; or several candidates of which one is wrong.
- NOT_ATTEMPTED: the answer does not commit to the key information and contradicts nothing: a
  refusal, a request for more context, or a remark too vague to check."""

_SIMPLEQA_RULES = """Rules
- Judge the claim, not the words it contains. "Not Lyon; it was Marseille" claims Marseille. An
  answer listing candidates ("either Lyon or Marseille", "Lyon, Marseille or Nice") is INCORRECT
  when any candidate is wrong, even if the gold answer is among them.
- Numbers must agree with the gold answer to its last significant figure, in any notation or
  unit. Gold "4,900 km": "4,900 km", "4936 kilometres" and "4.9 thousand km" are CORRECT; "4,800 km"
  and "5,000 km" are INCORRECT; "a few thousand km" and "over 3,000 km" are NOT_ATTEMPTED, since
  they neither confirm nor contradict it.
- Words the question already implies may be left out. For "In which Dutch city did the treaty get
  signed?" with gold "In Utrecht, Netherlands", "Utrecht" is CORRECT. For "How tall is the tower in
  metres?" with gold "324 m", a bare "324" is CORRECT. When the gold answer holds more than the
  question asks, the part the question asks for is enough.
- People may be named the way context identifies them: a surname alone, a dropped or added middle
  name or title ("Marie Curie" or "Curie" for "Maria Salomea Skłodowska-Curie"), and small spelling
  slips that clearly name the same person ("Tchaikovski" for "Tchaikovsky").
- Dates count in any format: "1815-06-18", "18/06/1815", "18.06.1815" and "the eighteenth of June
  1815" all match "June 18, 1815". Spelled numbers match digits ("thirty-two" is 32).
- A refusal followed by a guess is graded by the guess: "I'm not sure. Maybe Lyon?" for gold
  "Marseille" is INCORRECT. A hedge never rescues a wrong answer.
{hedging_rule}
{unanswerable_rule}
Worked examples (question: "Which city hosted the 1992 Summer Olympics?", gold: "Barcelona")
- "Barcelona, in Catalonia." -> CORRECT: the gold city, with compatible detail.
- "Barcelone" -> CORRECT: the same city under its French name.
- "Either Madrid or Barcelona." -> INCORRECT: one of the candidates is wrong.
- "Not Madrid; it was Barcelona." -> CORRECT: the claim is Barcelona.
- "Seville, I think, though I'm not certain." -> INCORRECT: a hedge around a wrong city.
- "Spain." -> NOT_ATTEMPTED: coarser than the gold (a country for a city; "1992" for a full date
  likewise) and nothing in it is wrong, so it neither confirms nor contradicts the gold answer.
- "It was a large Spanish city, but I can't recall which one." -> NOT_ATTEMPTED: vague, and
  nothing in it is wrong.
- "I don't have that information." -> NOT_ATTEMPTED."""

_VERIFIED_RULES = _SIMPLEQA_RULES.replace(
    """- Judge the claim, not the words it contains. "Not Lyon; it was Marseille" claims Marseille. An
  answer listing candidates ("either Lyon or Marseille", "Lyon, Marseille or Nice") is INCORRECT
  when any candidate is wrong, even if the gold answer is among them.""",
    """- Judge the claim, not the words it contains. "Not Lyon; it was Marseille" claims Marseille. An
  answer that lists candidates without committing to one ("either Lyon or Marseille") is
  NOT_ATTEMPTED when the gold answer is among them, and INCORRECT when none is the gold answer.
- A numeric gold answer may state an acceptable range ("1,500 (acceptable range: 1,450 to 1,550)"):
  any value inside the range is CORRECT, any value outside it INCORRECT.""").replace(
    """- "Either Madrid or Barcelona." -> INCORRECT: one of the candidates is wrong.""",
    """- "Either Madrid or Barcelona." -> NOT_ATTEMPTED: no candidate is committed to.""")

_WORLDVQA_RULES = """Rules
- Compare core meaning and level of detail only; ignore formatting, punctuation, language, and
  abbreviation versus full name ("UN" and "United Nations" match).
- Granularity decides: an answer as specific as the gold answer or more specific is CORRECT when
  it agrees with it; an answer less specific than the gold answer is INCORRECT even when it is
  true. Extra information is fine as long as it does not conflict with the gold answer.
- An answer that names a wrong entity, value or description is INCORRECT, including one wrapped in
  uncertainty ("I'm not sure, perhaps B" when the gold is A).
- NOT_ATTEMPTED is for answers that say they do not know, send the reader to look it up elsewhere,
  or contain none of the gold information and nothing that contradicts it.
{hedging_rule}
{unanswerable_rule}
Worked examples
- Gold "Golden Gate Bridge", answer "a suspension bridge" -> INCORRECT: true but coarser than the gold.
- Gold "bird of prey", answer "a peregrine falcon" -> CORRECT: finer than the gold, and consistent.
- Gold "Rolex", answer "a Rolex Submariner watch" -> CORRECT: contains the gold, more detailed.
- Gold "Mount Fuji", answer "Not sure, maybe Mount Aso?" -> INCORRECT: unsure, and wrong.
- Gold "Mount Fuji", answer "Please check a map service for this." -> NOT_ATTEMPTED."""

_TASK = """You grade one answer to a fact-seeking question against the question's gold answer.
Work out what the answer claims, compare that claim with the gold answer, and give one label.

{labels}

{rules}

Question: {question}
Gold answer: {gold}
Answer to grade: {answer}

Reply with one or two sentences of reasoning, then a final line holding only the word Grade, a
colon and the label, for example the line `Grade: NOT_ATTEMPTED`. Write that line once and nowhere
else."""

HEDGING_RULES = {
    HedgingPolicy.ACCEPT: ("- Hedging: a hedged answer (\"I think it is X\", \"probably X\") that states "
                           "the gold answer and nothing wrong is CORRECT."),
    HedgingPolicy.PENALIZE: ("- Hedging: a hedged or equivocal answer (\"possibly X\", \"I think X, but I am "
                             "not sure\") is INCORRECT even if it mentions the gold answer: only a committed "
                             "answer earns credit."),
}
UNANSWERABLE_RULE = ("- No answer exists: when the gold answer is \"none\", the question has no answer; "
                     "saying so or declining is NOT_ATTEMPTED, and any answer asserting a fact is INCORRECT.")


@dataclass(frozen=True)
class JudgePolicy:
    """A named, versioned judge prompt; `hedging` is set when the policy fixes the hedging rule."""

    name: str
    version: str
    rules: str
    hedging: HedgingPolicy | None = None
    template: str | None = None   # a user's whole prompt (`--judge-prompt-file`), used as written
    sha256: str | None = None
    labels: LabelScheme = GRADE_LINE   # how its replies are read

    def render(self, question: str, gold: str, answer: str, hedging: HedgingPolicy,
               unanswerable: bool) -> str:
        """The full prompt for one answer."""
        if self.template is not None:
            return self.template.format(question=question, gold=gold, answer=answer)
        rules = self.rules.format(hedging_rule=HEDGING_RULES[self.hedging or hedging],
                                  unanswerable_rule=UNANSWERABLE_RULE if unanswerable else "")
        return _TASK.format(labels=_LABELS, rules=rules, question=question, gold=gold, answer=answer)

    def fixed_lines(self) -> frozenset[str]:
        """Long lines of the prompt that never depend on the item: a reply holding one echoes the prompt."""
        text = self.template or "\n".join([_TASK, _LABELS, self.rules, *HEDGING_RULES.values(), UNANSWERABLE_RULE])
        return frozenset(line.strip() for line in text.splitlines()
                         if len(line.strip()) >= 40 and "{" not in line)


JUDGE_POLICIES: dict[str, JudgePolicy] = {
    "simpleqa": JudgePolicy("simpleqa", "3", _SIMPLEQA_RULES),
    "videosimpleqa": JudgePolicy("videosimpleqa", "3", _SIMPLEQA_RULES, hedging=HedgingPolicy.PENALIZE),
    "worldvqa": JudgePolicy("worldvqa", "3", _WORLDVQA_RULES),
    "simpleqa-verified": JudgePolicy("simpleqa-verified", "2", _VERIFIED_RULES),
}
# Policies under which several candidates the answer does not commit to are NOT_ATTEMPTED (the rules follow).
UNCOMMITTED_CANDIDATES_NOT_ATTEMPTED = frozenset({"simpleqa-verified"})
PLACEHOLDERS = ("question", "gold", "answer")
DEFAULT_JUDGE_PROMPT = "simpleqa"


def policy_from_file(path: Path, labels: Sequence[str] = ()) -> JudgePolicy:
    """A user's template (`--judge-prompt-file`): it must name {question}, {gold} and {answer} and no
    other field (write `{{` and `}}` for literal braces); JudgePolicyError names the file otherwise.
    Its replies are read in `labels` (`--judge-labels` WORD=GRADE items) when given, else in the
    labels the template asks for."""
    try:
        data = Path(path).read_bytes()
        text = data.decode("utf-8")
        fields = [name for _, name, _, _ in string.Formatter().parse(text) if name is not None]
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise JudgePolicyError(f"--judge-prompt-file {path}: cannot read a template from it ({exc})") from exc
    unknown = sorted(set(fields) - set(PLACEHOLDERS))
    missing = [name for name in PLACEHOLDERS if name not in fields]
    if unknown or missing:
        raise JudgePolicyError(
            f"--judge-prompt-file {path}: the template must use the placeholders {{question}}, {{gold}} and "
            f"{{answer}} and no others" + (f"; unknown: {', '.join(unknown)}" if unknown else "")
            + (f"; missing: {', '.join(missing)}" if missing else "") + " (write {{ and }} for literal braces)")
    try:
        scheme = template_scheme(text, path, parse_label_mapping(labels))
    except JudgeLabelsError as exc:
        raise JudgePolicyError(str(exc)) from exc
    digest = hashlib.sha256(data).hexdigest()
    return JudgePolicy(f"file:{Path(path).name}", digest[:12], "", template=text, sha256=digest, labels=scheme)


def judge_policy(name: str, hedging: HedgingPolicy, prompt_file: Path | None = None,
                 labels: Sequence[str] = ()) -> JudgePolicy:
    """The policy `--judge-prompt NAME` (or the template `--judge-prompt-file`, read in `labels`);
    refuses a hedging setting the policy contradicts, and `labels` without a template."""
    if prompt_file is not None:
        return policy_from_file(prompt_file, labels)
    if labels:
        raise JudgePolicyError("--judge-labels maps the labels of a template of your own (--judge-prompt-file "
                               "FILE); the built-in judge prompts ask for a `Grade: LABEL` line, which is "
                               "read without it")
    if name not in JUDGE_POLICIES:
        raise JudgePolicyError(f"unknown judge prompt {name!r}: choose one of {', '.join(JUDGE_POLICIES)}")
    policy = JUDGE_POLICIES[name]
    if policy.hedging is not None and policy.hedging is not hedging:
        raise JudgePolicyError(
            f"the {name} judge prompt fixes the hedging policy to {policy.hedging.value} (Video "
            f"SimpleQA counts equivocal answers INCORRECT), but --hedging is {hedging.value}; "
            f"add --hedging {policy.hedging.value} so the rule grader, the judge and the manifest "
            f"record one policy, or choose --judge-prompt simpleqa")
    return policy
