"""The reading step decides the right and the wrong answer of every shape alike (issue 31, item 2).

Each shape is written twice on a made-up subject, once with the gold and once with another value of the
same kind; both must be decided, and decided by their value. A grader that abstains on either form, or
that decides only the wrong one, fails here.
"""

from __future__ import annotations

import pytest

from factprobe.eval.core.schema import Grade, Question
from factprobe.eval.grading.rules import RuleGrader

CEILING = Question(id="c", question="Who painted the ceiling of the Varn chapel?", answer="Anna Holt")
BRIDGE = Question(id="b", question="When did the Varn bridge open?", answer="March 3, 1921")
LENGTH = Question(id="l", question="How long is the Varn bridge?", answer="1,234 m")
ARCHES = Question(id="a", question="How many arches does the Varn bridge have?", answer="12 arches")
RIVER = Question(id="r", question="Which river flows through Tollen?", answer="Vosso")
BOTH = Question(id="y", question="Were both Varn bridges built in Ohio?", answer="yes")
OLDER = Question(id="o", question="Which is older, the Alder Bridge or the Birch Bridge?", answer="Alder Bridge")
MONTH = Question(id="m", question="In which year and month did the Varn bridge open?", answer="March 1921")
ANTHEM = Question(id="t", question="Who recorded the Varn anthem?", answer="Anna Holt")
OFFICE = Question(id="h", question="How is the Varn harbour master placed in office?", answer="Elected")
ORIGIN = Question(id="n", question="Where does the surname Varnell come from?", answer="Danish")
TOWN = Question(id="w", question="Where does the Varn choir come from?", answer="Dalby, Ohio")
PILOT = Question(id="p", question="Which astronaut first landed on the Varn plain?", answer="Anna Holt")
HOW_TO = Question(id="k", question="who sings the theme of how to catch a comet", answer="Anna Holt")

# (question, the shape with {} for the value, the gold's value, another value of its kind)
SHAPES = [
    (CEILING, "The ceiling was painted by {}.", "Anna Holt", "Carl Berg"),
    (CEILING, "The chapel's ceiling went to {}, who finished it in two years.", "Anna Holt", "Carl Berg"),
    (CEILING, "It was painted by {}, a local artist, in the 1890s.", "Anna Holt", "Carl Berg"),
    (CEILING, "Answer: Ida Lind\nActually no.\nAnswer: {}", "Anna Holt", "Carl Berg"),
    (CEILING, "Ida Lind, sorry, I meant {}.", "Anna Holt", "Carl Berg"),
    (CEILING, "Not Ida Lind; it was {}.", "Anna Holt", "Carl Berg"),
    (CEILING, "{}, not Ida Lind.", "Anna Holt", "Carl Berg"),
    (CEILING, "I'm not sure, but maybe {}.", "Anna Holt", "Carl Berg"),
    (CEILING, "{} painted it. The work took two years and was restored in 1950.", "Anna Holt", "Carl Berg"),
    (CEILING, "Sure! The ceiling was painted by {}.", "Anna Holt", "Carl Berg"),
    (CEILING, "The ceiling was painted by {}. However, the town kept the building shut for a decade.", "Anna Holt",
     "Carl Berg"),  # a later sentence that qualifies something else
    (CEILING, "{} painted the ceiling. The building was designed by Otto Brand and opened in 1890.", "Anna Holt",
     "Carl Berg"),  # background naming another person and a year
    (CEILING, "The altar came from Ida Lind's workshop; the ceiling was painted by {}.", "Anna Holt", "Carl Berg"),
    (CEILING, "Ida Lind carved the altar, but the ceiling was painted by {}.", "Anna Holt", "Carl Berg"),
    (CEILING, "The ceiling fresco is Summer Harvest, painted by {}.", "Anna Holt", "Carl Berg"),  # the doer
    (ANTHEM, 'The Varn anthem, "Don\'t Look Back", was recorded by {}.', "Anna Holt", "Carl Berg"),  # a quoted title
    (BRIDGE, "It opened on {}.", "Mar. 3, 1921", "Mar. 5, 1921"),
    (BRIDGE, "The bridge opened on {}. It carried trams for decades.", "3 March 1921", "5 March 1921"),
    (LENGTH, "The bridge is {} long.", "1,234 metres", "1,432 metres"),
    (ARCHES, "The bridge has {}.", "12", "14"),
    (ARCHES, "In 1921, the bridge had {} arches.", "12", "14"),
    (BOTH, "{}, they were both built there.", "Yes", "No"),
    (MONTH, "It opened in {}.", "March 1921", "May 1921"),
    # the subject names other things; the answer stands right after the sentence's verb of being or "by"
    (CEILING, "The ceiling of the Varn chapel in Tollen, Ohio, was painted by {} in 1890.", "Anna Holt", "Carl Berg"),
    (CEILING, "The painter of the Varn chapel's ceiling, on the Tollen Road, was {}.", "Anna Holt", "Carl Berg"),
    (TOWN, "The Varn choir is a Danish folk choir from {}.", "Dalby, Ohio", "Tiffin, Ohio"),  # a place, same state
    (HOW_TO, 'The theme of "How to Catch a Comet" is sung by {}.', "Anna Holt", "Carl Berg"),  # "how" in a title
    (CEILING, "{} painted the ceiling. She was the daughter of Otto Brand.", "Anna Holt", "Carl Berg"),  # refers back
    (CEILING, "The ceiling was painted by **{}**.\n\n**Details:**\n- The work took two years.\n- It was restored in 1950",
     "Anna Holt", "Carl Berg"),  # a committed sentence, then a list of detail
    (PILOT, "The first to land on the Varn plain was {}, aboard the lander Tern.", "Anna Maria Holt", "Carl Berg"),
    # after the answer, a sentence said of the subject names another person or date: its detail
    (CEILING, "{} painted the ceiling. Her assistant on the ceiling was Ida Lind.", "Anna Holt", "Carl Berg"),
    (BRIDGE, "The bridge opened on {}. Its twin opened on 5 May 1922.", "3 March 1921", "5 March 1921"),
    # a heading over the reply, and "…:" over the line that gives the answer
    (CEILING, "# The Varn chapel\n\nThe ceiling was painted by {}.\n\n## Details\n- It took two years.", "Anna Holt",
     "Carl Berg"),
    (CEILING, "The ceiling of the Varn chapel was painted by:\n\n**{}**\n\nThe work took two years.", "Anna Holt",
     "Carl Berg"),
]


@pytest.mark.parametrize("question, shape, gold_value, other_value", SHAPES,
                         ids=[shape.split("{}")[0][:30] or shape[:30] for _, shape, _, _ in SHAPES])
def test_both_forms_of_a_shape_are_decided(question: Question, shape: str, gold_value: str, other_value: str) -> None:
    right = RuleGrader().grade_sync(question, shape.format(gold_value))
    wrong = RuleGrader().grade_sync(question, shape.format(other_value))
    assert right.grade is Grade.CORRECT, right.note
    assert wrong.grade is Grade.INCORRECT, wrong.note


@pytest.mark.parametrize("question, answer", [
    (CEILING, "1921"),                  # a year where a person is asked
    (RIVER, "Tollen"),                  # the question's own place given back
    (OLDER, "Birch Bridge"),            # the option the question offers that is not the gold
    (BOTH, "No, they were not both built in Ohio."),
    (MONTH, "May 1921"),                # the month is asked too
])
def test_what_is_plainly_of_another_kind_is_incorrect(question: Question, answer: str) -> None:
    outcome = RuleGrader().grade_sync(question, answer)
    assert outcome.grade is Grade.INCORRECT, outcome.note


@pytest.mark.parametrize("question, answer, grade", [
    (Question(id="s", question="In what city and state was the Varn bridge built?", answer="Dayton, Ohio"),
     "Dayton", Grade.UNGRADED),         # the state is asked too: the city alone is not the whole answer
    (CEILING, "I am unable to search the web, to find out who painted it.", Grade.NOT_ATTEMPTED),
    (CEILING, "Ida Lind painted it. However, some sources credit Carl Berg.", Grade.UNGRADED),
    (CEILING, "Answer: Anna Holt\nAnswer: Carl Berg", Grade.INCORRECT),  # two answers, no revision: candidates
    (CEILING, "The ceiling was painted by Anna Holt's brother.", Grade.UNGRADED),
    (CEILING, "The ceiling was painted by Anna Holt. I couldn't confirm who painted it, though.", Grade.UNGRADED),
    (CEILING, "Anna Holt is often named. However, the ceiling was painted by Carl Berg.", Grade.UNGRADED),
    (CEILING, "Anna Holt painted the walls of the chapel; the ceiling was painted by Carl Berg.", Grade.UNGRADED),
    (CEILING, "Its ceiling was designed by Carl Berg and painted by Anna Holt.", Grade.UNGRADED),  # two doers
    (OFFICE, "The harbour master is appointed by the Mayor and confirmed by the Council.", Grade.UNGRADED),  # a manner
    (ORIGIN, "The surname Varnell is of Danish origin, from an Old Norse word for a shield.", Grade.CORRECT),
    (TOWN, "The Varn choir is a Danish folk choir from Ohio.", Grade.UNGRADED),  # the gold's state only: coarser
    (CEILING, "The Varn chapel's altar is by Ida Lind, and its ceiling was painted by Anna Holt.", Grade.UNGRADED),
    (CEILING, "Anna Holt first painted the ceiling. Today it is covered by a copy made by Carl Berg.", Grade.UNGRADED),
    (CEILING, "The ceiling was painted by Anna Holt.\n\n- Some sources credit Carl Berg with it.", Grade.UNGRADED),
    (CEILING, "The ceiling was painted by Anna Holt.\n\n- The ceiling was painted by Carl Berg in 1890.", Grade.UNGRADED),
    (CEILING, "Two painters are named:\n1. Anna Holt\n2. Carl Berg", Grade.UNGRADED),  # a list, no sentence commits
    (CEILING, "Two painters are named:\nAnna Holt\nCarl Berg", Grade.UNGRADED),  # the same list, its items unmarked
])
def test_what_the_reading_leaves_or_decides_otherwise(question: Question, answer: str, grade: Grade) -> None:
    outcome = RuleGrader().grade_sync(question, answer)
    assert outcome.grade is grade, outcome.note
