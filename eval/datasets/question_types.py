"""Questions by the interrogative word they ask with (`datasets describe`, key
`statistics.question_types`): the question-type distribution of Video SimpleQA's Fig. 5(b), read
here from the question text, since the release labels no type.

A question's type is its first interrogative word, wherever it stands ("In which year …" is
`which`); `how` is kept with the word after it when that asks for an amount or a span (`how many`,
`how much`, `how long`, `how old`, `how far`, `how big`, `how tall`), and `whom`/`whose` are their
own types. A question with none of these words (an imperative "Name the …") is `other`. English
only: other languages' questions are `other` too.
"""

from __future__ import annotations

import re
from collections import Counter

from factprobe.eval.core.schema import Question

HOW_WORDS = ("many", "much", "long", "old", "far", "big", "tall")
WH = re.compile(rf"\b(how\s+(?:{'|'.join(HOW_WORDS)})|how|what|which|whom|whose|who|when|where|why)\b",
                re.IGNORECASE)
OTHER = "other"
TYPING = ("the question's first interrogative word (what, which, who, whom, whose, when, where, why, how; "
          "how many/much/long/old/far/big/tall apart); none: other")


def question_type(text: str) -> str:
    """The interrogative type of one question (see the module doc)."""
    match = WH.search(text)
    return OTHER if match is None else re.sub(r"\s+", " ", match.group(1).lower())


def question_types(questions: list[Question]) -> dict[str, int]:
    """Questions per type, most frequent first (ties by name)."""
    counts = Counter(question_type(q.question) for q in questions)
    return dict(sorted(counts.items(), key=lambda item: (-item[1], item[0])))
