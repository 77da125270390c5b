"""The deterministic rule grader, built on SimpleQA's grading rules (protocols §1).

1. Empty answer, or a refusal with no guess: NOT_ATTEMPTED. A refusal or hedge followed by a guess
   ("I'm not sure. Maybe Lyon?") grades the guess; a self-correction ("Paris? No, actually Lyon",
   "…until 1963; now it's Lyon") grades the correction; others' view reported before the answer
   ("Many think Lyon, but…"), a stated confidence and a JSON reply's other fields are ignored, and
   so is context beside a refusal ("It's a baroque painting, but I don't know who painted it")
   unless it states the gold. Of "Label: value" lines, the field the question asks for is the answer.
2. Unanswerable question: a refusal or a premise correction ("there are only five", "it hasn't
   happened", "X has no capital") is NOT_ATTEMPTED, any claim INCORRECT.
3. The guess is split into candidates ("Lyon or Paris", "Lyon / Paris", "maybe Lyon, maybe Paris",
   "Paris, though Lyon is also possible", short lists); each is compared with the gold and its
   aliases by type: dates (any format, fixed-day holidays), figures (units and temperatures
   converted, grouped or decimal-comma digits, "minus", matched to the gold's last significant
   figure; a conversion in brackets after the match restates it), person names (surname alone,
   compound and double-barrelled surnames, optional middle names, patronymics and titles, initials,
   short and foreign forms of a given name, small typos, a transliterated surname beside the exact
   given name) and other names (words the question implies, the gold's type word, a leading
   preposition may be left out; acronyms, words written apart, a team's nickname and the
   question's word for the gold's kind count).
4. INCORRECT: several candidates where one is wrong, a negated gold ("not Paris"), a different
   entity containing the gold ("North Dakota", "Democratic Republic of the Congo", "Dominican"),
   another generation or regnal number ("Dumas fils", "Elizabeth I" for "Elizabeth II"), a
   different number or symbol in a name ("C#" for "C++"), the gold's head noun with another
   modifier ("great white shark" for "whale shark"), a coarser answer (a year for a date, one item
   of a list, "Dakota" for "South Dakota"). Lists written one per line, with bullets or numbers,
   or between semicolons are candidates too.
5. NOT_ATTEMPTED: a coarser answer beside an admission of not knowing the rest ("1969, but I don't
   remember the day"), an approximate figure, bound or range that neither confirms nor contradicts,
   prose stating no figure or date, a short description naming nothing ("A major river", "A Danish
   architect, though I forget the name") and a rough location ("somewhere in Austria").
6. A match is CORRECT, or INCORRECT for a hedged answer under the `penalize` hedging policy.
7. Where the rules cannot decide (a free paraphrase, a description naming something, a partial
   name, the gold only as a landmark, in an aside or after another answer unless introduced as
   its other name ("…, better known as Bob Dylan"), middle names that
   differ, one given name added: "John Quincy Adams" for "John Adams", a spelling variant or a
   longer form: "Ulan Bator", "violoncello") the grade is UNGRADED and the note, starting with
   "undecided:", says why; the grader never guesses.
"""

from __future__ import annotations

import re

from factprobe.eval.core.schema import Grade, Question
from factprobe.eval.grading.base import GradeOutcome, HedgingPolicy
from factprobe.eval.grading.claims import Reading, read_answer, split_list
from factprobe.eval.grading.compare import compare_claim, question_words
from factprobe.eval.grading.dates import find_periods, gold_date
from factprobe.eval.grading.descriptions import describe, vague_place
from factprobe.eval.grading.numbers import gold_quantity
from factprobe.eval.grading.phrases import is_hedged, is_refusal
from factprobe.eval.grading.tokens import HEDGE_WORDS, STOPWORDS, consonant_skeleton, names_in, tokenize
from factprobe.eval.grading.verdict import Finding, Verdict, best

__all__ = ["RuleGrader", "matches_gold", "is_hedged", "is_refusal"]

# "One of the Brontë sisters": a group that holds the gold, not the gold itself.
_ONE_OF = re.compile(r"^\s*(?:(?:it\s+(?:is|was)|it'?s|probably|maybe|perhaps)\s+)?one\s+of\s+(?:the|his|her|their)\b",
                     re.IGNORECASE)
_SHORT_CLAIM = 5  # new content words up to which a claim naming something else is a wrong answer
_SHORT_DESCRIPTION = 5  # content words up to which a description without names is vague, not a paraphrase


def _grade_candidates(candidates: list[str], golds: list[str], question: str, listed: bool = False) -> Verdict:
    """One verdict for all candidates: every candidate must match; any wrong one makes it a conflict.

    The items of an answer written as a list are first read together, as one answer, when a gold
    is itself a list ("- Deimos\n- Phobos" for "Phobos and Deimos").
    """
    if listed and any(len(split_list(gold)) > 1 for gold in golds):
        together = _best_over_golds(" and ".join(candidates), golds, question)
        if together.finding is Finding.MATCH:
            return together
    verdicts = [_best_over_golds(candidate, golds, question) for candidate in candidates]
    findings = [v.finding for v in verdicts]
    if all(f is Finding.MATCH for f in findings):
        return verdicts[0]
    if len(verdicts) > 1 and Finding.MATCH in findings:
        return Verdict(Finding.CONFLICT, "several candidates, one of them wrong")
    for finding in (Finding.CONFLICT, Finding.UNDECIDED, Finding.VAGUE, Finding.ABSENT):
        if finding in findings:
            return verdicts[findings.index(finding)]
    return verdicts[0]


def _best_over_golds(candidate: str, golds: list[str], question: str) -> Verdict:
    """The gold or alias the candidate agrees with best."""
    return best([compare_claim(candidate, gold, question) for gold in golds])


def _new_words(text: str, question: str) -> tuple[list[str], list[str]]:
    """Content words of the text not in the question, and those of them that look like names.

    A capital that only opens a sentence (or follows a label such as "Answer:") is not a name:
    "Tiny drifting organisms" names nothing.
    """
    asked = question_words(question)
    tokens = tokenize(text)
    opening = {index for index, token in enumerate(tokens) if index == 0 or _SENTENCE_START.search(token.gap)}
    kept = [(index, t) for index, t in enumerate(tokens) if t.norm not in STOPWORDS and t.norm not in asked
            and t.norm not in HEDGE_WORDS]
    return [t.norm for _, t in kept], [t.text for index, t in kept
                                       if (t.capitalised and index not in opening) or t.norm.isdigit()]


_SENTENCE_START = re.compile(r"[.!?:;\n]\s*$")


def _related_spelling(words: list[str], golds: list[str]) -> str | None:
    """How the claim's words are a spelling of the gold the rules cannot confirm, if they are.

    The same consonants in another transliteration ("Ulan Bator" for "Ulaanbaatar"), or a longer or
    shorter form of the same word ("violoncello" for "cello").
    """
    claim = "".join(words)
    for gold in golds:
        gold_words = [t.norm for t in tokenize(gold) if t.norm not in STOPWORDS]
        joined = "".join(gold_words)
        if not joined or not claim.isalpha() or not joined.isalpha():
            continue
        skeleton = consonant_skeleton(joined)
        if claim != joined and len(skeleton) >= 4 and consonant_skeleton(claim) == skeleton:
            return "another transliteration of the gold"
        for word in words:
            for part in gold_words:
                shorter, longer = sorted((word, part), key=len)
                if len(shorter) >= 4 and shorter != longer and longer.endswith(shorter):
                    return f"a longer or shorter form of the gold ({word})"
    return None


_DENIAL = re.compile(r"\b(?:not|isn'?t|wasn'?t|never|no|contrary)\b", re.IGNORECASE)
# Where a statement gives way to an aside: "Mostly in Peru, with a small part in Chile".
_ASIDE_BREAK = re.compile(r"; |,\s+(?=(?:with|while|whereas|plus|alongside)\b)", re.IGNORECASE)
# A later statement that gives another name of the same entity ("Robert Zimmerman, better known as Bob Dylan").
_ALIAS_MARKER = re.compile(
    r"^\s*(?:(?:(?:better|also|more\s+commonly|commonly|popularly|widely|professionally)\s+)?known\s+as"
    r"|a\.?k\.?a\.?|alias|(?:who\s+)?(?:went|goes)\s+by|under\s+the\s+(?:stage|pen|ring)\s+name"
    r"|(?:whose\s+)?(?:stage|pen|ring)\s+name)\b", re.IGNORECASE)


def _first_claim_rules(verdict: Verdict, reading: Reading, golds: list[str], question: str) -> Verdict:
    """The answer's first statement is its answer: "Saturn. Jupiter is a close second" does not state Jupiter.

    A match found only after a first statement, or in an aside after one ("Mostly Peru, with a
    part in Chile"), that names something else (and denies nothing) is undecided; a later
    statement giving the same entity's other name ("…, better known as Bob Dylan") keeps the match.
    """
    statements = [part for part in _ASIDE_BREAK.split(reading.guess) if part.strip()]
    if verdict.finding is not Finding.MATCH or len(statements) < 2 or _DENIAL.search(statements[0]) \
            or reading.listed:
        return verdict
    asked = question_words(question)
    named = [name for name in names_in(statements[0]) if name.lower() not in asked]
    if not named or _best_over_golds(statements[0], golds, question).finding is Finding.MATCH:
        return verdict
    matching = next((part for part in statements[1:]
                     if _best_over_golds(part, golds, question).finding is Finding.MATCH), "")
    if _ALIAS_MARKER.match(matching):
        return verdict
    return Verdict(Finding.UNDECIDED, f"first names {named[0]}, then the gold")


def _absent_verdict(reading: Reading, question: str, verdict: Verdict, golds: list[str]) -> tuple[Grade, str]:
    """A claim that states nothing of the gold: a wrong entity, a non-answer, a variant, or a paraphrase."""
    words, names = _new_words(reading.guess, question)
    related = _related_spelling(words, golds) if len(words) <= _SHORT_CLAIM else None
    if related and not reading.refused:
        return Grade.UNGRADED, f"undecided: {related}"
    if reading.refused:
        names = [name for name in names if not name.isdigit()]  # "That's one for a textbook; I don't know"
    if names and len(words) <= _SHORT_CLAIM:
        return Grade.INCORRECT, f"names something else ({' '.join(names[:3])})"
    if names and not reading.refused:
        return Grade.UNGRADED, f"undecided: a description naming {' '.join(names[:3])}, not a direct answer"
    if reading.refused:
        return Grade.NOT_ATTEMPTED, "refusal; the rest does not address the gold"
    if reading.denies_premise:
        return Grade.INCORRECT, "denies the question's premise"
    if len(words) <= 3:
        return Grade.INCORRECT, f"gives a different answer ({' '.join(words) or reading.guess})"
    return Grade.UNGRADED, f"undecided: free paraphrase, {verdict.reason}"


def _description_outcome(reading: Reading, question: str) -> tuple[Grade, str] | None:
    """A guess that describes the answer instead of naming it ("A famous Russian novelist")."""
    if vague_place(reading.guess):
        return Grade.NOT_ATTEMPTED, "says only roughly where (vague)"
    description = describe(reading.guess, question)
    if description is None:
        return None
    if reading.refused or (not description.names and description.size <= _SHORT_DESCRIPTION):
        return Grade.NOT_ATTEMPTED, "describes the answer without naming it (vague)"
    return Grade.UNGRADED, (f"undecided: a vague description naming {' '.join(description.names[:3])}, "
                            "neither the gold nor clearly another answer")


def _context_kept_if_gold(reading: Reading, answer: str, golds: list[str], question: str) -> Reading:
    """The reading with context statements kept when one of them states the gold after all."""
    if not reading.refused:
        return reading
    whole = read_answer(answer, keep_or=any(" or " in f" {g.lower()} " for g in golds))
    if whole.candidates != reading.candidates and whole.has_guess \
            and _grade_candidates(whole.candidates, golds, question).finding is Finding.MATCH:
        return whole
    return reading


def matches_gold(answer: str, gold_answers: list[str], question: str = "") -> bool:
    """True when the answer states one of the gold answers and nothing that contradicts it."""
    golds = [gold for gold in gold_answers if gold and gold.strip()]
    keep_or = any(" or " in f" {gold.lower()} " for gold in golds)
    reading = read_answer(answer, keep_or, question)
    if not golds or not reading.has_guess:
        return False
    return _grade_candidates(reading.candidates, golds, question).finding is Finding.MATCH


class RuleGrader:
    """Grades without a model; the default when no `--judge` is given."""

    name = "rules"

    def __init__(self, hedging: HedgingPolicy = HedgingPolicy.ACCEPT) -> None:
        self.hedging = hedging

    def _outcome(self, grade: Grade, note: str) -> GradeOutcome:
        return GradeOutcome(grade, self.name, note)

    def grade_sync(self, question: Question, answer: str | None) -> GradeOutcome:
        if answer is None or not answer.strip():
            return self._outcome(Grade.NOT_ATTEMPTED, "empty answer")
        golds = question.gold_answers
        reading = read_answer(answer, keep_or=any(" or " in f" {g.lower()} " for g in golds),
                              question=question.question)
        if not question.answerable or question.answer is None:
            if not reading.has_guess or reading.denies_premise:
                return self._outcome(Grade.NOT_ATTEMPTED, "refused an unanswerable question")
            return self._outcome(Grade.INCORRECT, "answered an unanswerable question")
        reading = _context_kept_if_gold(reading, answer, golds, question.question)
        if not reading.has_guess:
            return self._outcome(Grade.NOT_ATTEMPTED, "refusal" if reading.refused else "no answer given")
        verdict = _grade_candidates(reading.candidates, golds, question.question, reading.listed)
        verdict = _first_claim_rules(verdict, reading, golds, question.question)
        valued = any(gold_date(gold) is not None or gold_quantity(gold) is not None or find_periods(gold)
                     for gold in golds)
        return self._from_verdict(verdict, reading, question.question, valued, golds)

    def _from_verdict(self, verdict: Verdict, reading: Reading, question: str, valued: bool,
                      golds: list[str]) -> GradeOutcome:
        """The grade for a verdict; `valued`: the gold is a date or a figure, compared by value."""
        hedged = reading.hedged or reading.refused
        if verdict.finding is Finding.MATCH and _ONE_OF.match(reading.guess):
            verdict = Verdict(Finding.CONFLICT, "names a group that holds the gold, not the gold itself",
                              partial=True)
        if verdict.partial and reading.refused:
            return self._outcome(Grade.NOT_ATTEMPTED, f"{verdict.reason}, and says it does not know the rest")
        if verdict.finding is not Finding.MATCH and not verdict.reason.startswith("negates") and not valued:
            described = _description_outcome(reading, question)
            if described is not None:
                return self._outcome(*described)
        if verdict.finding is Finding.MATCH:
            if hedged and self.hedging is HedgingPolicy.PENALIZE:
                return self._outcome(Grade.INCORRECT, f"{verdict.reason}; hedged answer (policy: penalize)")
            suffix = "; hedged answer (policy: accept)" if hedged else ""
            return self._outcome(Grade.CORRECT, verdict.reason + suffix)
        if verdict.finding is Finding.CONFLICT:
            return self._outcome(Grade.INCORRECT, verdict.reason)
        if verdict.finding is Finding.VAGUE:
            return self._outcome(Grade.NOT_ATTEMPTED, verdict.reason)
        if verdict.finding is Finding.UNDECIDED:
            if reading.refused and verdict.reason.startswith("states no"):
                return self._outcome(Grade.NOT_ATTEMPTED, f"refusal; {verdict.reason}")
            return self._outcome(Grade.UNGRADED, f"undecided: {verdict.reason}")
        grade, note = _absent_verdict(reading, question, verdict, golds)
        return self._outcome(grade, note)

    async def grade(self, question: Question, answer: str | None) -> GradeOutcome:
        return self.grade_sync(question, answer)

    def describe(self) -> dict:
        return {"grader": self.name, "hedging": self.hedging.value}
