"""Reading a judge's verdict in the label words its prompt asks for (`--judge-labels`).

A `LabelScheme` says which words mean CORRECT, INCORRECT and NOT_ATTEMPTED, and in which lines a
reply may give one: the built-in prompts' one `Grade: LABEL` line (`GRADE_LINE`); for a template
of your own (`--judge-prompt-file`), a `Grade:` or `Label:` line or a line holding only a label, in
the default words, `not attempted`, UNATTEMPTED and the letters the template assigns (`A: CORRECT`),
or only the words `--judge-labels WORD=GRADE,...` gives. Words are compared without case, and `_`,
`-` and spaces are the same. A label must fill its line: "C" is never found inside "CORRECT".
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from factprobe.eval.core.schema import Grade

VERDICTS = (Grade.CORRECT, Grade.INCORRECT, Grade.NOT_ATTEMPTED)
DEFAULT_WORDS: dict[str, Grade] = {"CORRECT": Grade.CORRECT, "INCORRECT": Grade.INCORRECT,
                                   "NOT ATTEMPTED": Grade.NOT_ATTEMPTED, "UNATTEMPTED": Grade.NOT_ATTEMPTED}
_SEPARATORS = re.compile(r"[\s_\-]+")
_EDGES = re.compile(r"^[\W_]+|[\W_]+$")
# `A: CORRECT`, `- (B) incorrect`, `C) NOT_ATTEMPTED` in a template: the letter the template assigns
_DECLARED = re.compile(r"^\s*[-*•]?\s*[\(\[]?([A-Za-z])[\)\]]?\s*[:.)=]\s*[*\"'`]*"
                       r"(CORRECT|INCORRECT|NOT[ _-]?ATTEMPTED|UNATTEMPTED)\b", re.IGNORECASE)
# `A: CORRECT` as a reply's value: a letter and a word, both read
_LETTER_AND_WORD = re.compile(r"^\W*([A-Za-z])\s*[:.)]\s*(.+)$")


class JudgeLabelsError(ValueError):
    """A `--judge-labels` mapping or a template's letter declarations that cannot be used."""


def normalized(text: str) -> str:
    """A label as compared: upper case, markdown, quotes, brackets and a final stop removed,
    `_`, `-` and runs of spaces made one space."""
    return _SEPARATORS.sub(" ", _EDGES.sub("", text.strip())).upper()


@dataclass(frozen=True)
class LabelScheme:
    """The label words of one judge prompt and the lines a reply may give its verdict in."""

    words: Mapping[str, Grade]
    keys: tuple[str, ...] = ("grade",)
    lone: bool = False            # a line holding only a label is a verdict
    source: str = "built-in"      # built-in | template | --judge-labels
    key_line: re.Pattern[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        keys = "|".join(map(re.escape, self.keys))
        object.__setattr__(self, "key_line", re.compile(
            rf"^\W*(?:\d+\s*[.)]\s*)?[\W_]*({keys})[\W_]*[:：](.*)$", re.IGNORECASE))

    def label(self, text: str) -> Grade | None:
        """The grade a whole value names; None when it is no label (or a letter and word disagree)."""
        grade = self.words.get(normalized(text))
        if grade is not None or not text.strip():
            return grade
        pair = _LETTER_AND_WORD.match(text)
        if pair is None:
            return None
        letter, word = self.words.get(normalized(pair.group(1))), self.words.get(normalized(pair.group(2)))
        return letter if letter is not None and letter is word else None

    def expected(self) -> str:
        """The verdict lines and words a reply may use, for a reason."""
        keys = " or ".join(f"`{key.capitalize()}: LABEL`" for key in self.keys)
        lines = f"one {keys} line" + (" or one line holding only a label" if self.lone else "")
        words = ", ".join(sorted(self.words))
        return f"{lines}; labels ({self.source}): {words}"

    def describe(self) -> dict:
        """The scheme as the manifest records it."""
        return {"labels": {word: grade.value for word, grade in sorted(self.words.items())},
                "lines": [f"{key.capitalize()}:" for key in self.keys] + (["a lone label"] if self.lone else []),
                "source": self.source}


GRADE_LINE = LabelScheme({word: grade for word, grade in DEFAULT_WORDS.items() if word != "UNATTEMPTED"})


def parse_label_mapping(items: Iterable[str], flag: str = "--judge-labels") -> dict[str, Grade]:
    """`WORD=GRADE` items as {normalized word: grade}; JudgeLabelsError naming `flag` when one is not
    of that form, a word is given twice, or CORRECT or INCORRECT has no word."""
    mapping: dict[str, Grade] = {}
    for item in items:
        word, sign, grade_text = item.partition("=")
        key, grade_name = normalized(word), grade_text.strip().upper().replace(" ", "_")
        if not sign or not key or grade_name not in {grade.value for grade in VERDICTS}:
            raise JudgeLabelsError(f"{flag}: {item!r} is not WORD=GRADE with GRADE one of CORRECT, INCORRECT, "
                                   f"NOT_ATTEMPTED (for example A=CORRECT,B=INCORRECT,C=NOT_ATTEMPTED)")
        if key in mapping:
            raise JudgeLabelsError(f"{flag}: the label {word.strip()!r} is given more than once")
        mapping[key] = Grade(grade_name)
    missing = [grade.value for grade in (Grade.CORRECT, Grade.INCORRECT) if grade not in mapping.values()]
    if mapping and missing:
        raise JudgeLabelsError(f"{flag}: no label means {' or '.join(missing)}; a judge must be able to give "
                               f"both CORRECT and INCORRECT")
    return mapping


def declared_letters(template: str, path: Path | str) -> dict[str, Grade]:
    """The letters a template assigns to grades on their own lines (`A: CORRECT`); JudgeLabelsError
    naming the file and line when one letter is given two grades."""
    letters: dict[str, Grade] = {}
    for number, line in enumerate(template.splitlines(), start=1):
        match = _DECLARED.match(line)
        if match is None:
            continue
        letter, grade = match.group(1).upper(), DEFAULT_WORDS[normalized(match.group(2))]
        if letters.get(letter, grade) is not grade:
            raise JudgeLabelsError(f"--judge-prompt-file {path}, line {number}: the letter {letter} means "
                                   f"{letters[letter].value} earlier in the template and {grade.value} here; "
                                   f"give the meaning with --judge-labels")
        letters[letter] = grade
    return letters


def template_scheme(template: str, path: Path | str, mapping: Mapping[str, Grade] | None = None) -> LabelScheme:
    """How replies to a user's template are read: `mapping` (`--judge-labels`) when given, else the
    default words and the letters the template assigns."""
    if mapping:
        return LabelScheme(dict(mapping), ("grade", "label"), lone=True, source="--judge-labels")
    return LabelScheme({**DEFAULT_WORDS, **declared_letters(template, path)}, ("grade", "label"), lone=True,
                       source="template")
