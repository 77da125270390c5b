"""The text kinds: `text` (the gold's words, its kind words optional, another entity holding or held in
the gold, titles, numbered names, descriptions), `initials` (acronyms and their expansions),
`spelling` (typos, British and American spellings, abbreviated words) and places (a city with its
country, a country or a former country where a city is asked, features with or without their kind)."""

from __future__ import annotations

import pytest

from factprobe.eval.core.schema import Grade, Question
from factprobe.eval.grading.match_text import words
from factprobe.eval.grading.rules import RuleGrader
from tests.eval.grading.conftest import rule_grade, rule_outcome

CAPITAL = Question(id="c1", question="Which city is the capital of Portugal?", answer="Lisbon",
                   aliases=["Lisboa"])
LAKE = Question(id="c2", question="On the shore of which lake does the town of Jinja stand?",
                answer="Lake Victoria")
STATE = Question(id="c3", question="Which US state is the Badlands park in?", answer="Dakota")
MUSEUM = Question(id="c4", question="In which city is the Van Gogh Museum?", answer="In Amsterdam.")
PRIZE = Question(id="c5", question="Which award did the novel win in 2003?", answer="Booker Prize Award")
PARK = Question(id="c6", question="Which landmark in San Francisco opened in 1871?", answer="Golden Gate Park")
VOLCANO = Question(id="c7", question="Which mountain erupted in 1980 in Washington state?", answer="St. Helens")
FILM = Question(id="f1", question="Which film opened the festival?", answer="Night Harbour")
MISSION = Question(id="m1", question="Which mission returned the first samples?", answer="Luna 16")
PEAK = Question(id="k1", question="What is the highest peak of the range?", answer="Mount Elbrus")
RIVER = Question(id="v1", question="Which river flows through Vienna?", answer="Danube")
WRITER = Question(id="v4", question="Who wrote the saga?", answer="Halldor Laxness")
FOUNDERS = Question(id="v5", question="What were the founders' first names?", answer="Ida and Sven")
SPACE_AGENCY = Question(id="r3", question="Which agency built the telescope?", answer="European Space Agency")
CITY = Question(id="y", question="Which city hosted the 1970 Brell Games?", answer="Dunmere")
PROVINCE = Question(id="z", question="Which province has Dunmere as its capital?", answer="Calder")
KORBALL_BODY = Question(id="a", question="Which body, based in Dunmere, oversees korball?", answer="World Korball Union")
SIDE = Question(id="c", question="Which country won the 1990 Korball Cup?", answer="Norland")
MONEY = Question(id="m", question="What is the currency of Veloria?", answer="Veloria crown")
SUITE = Question(id="q", question="Which work did Lund write in 1901?", answer="Suite No. 2")


@pytest.mark.parametrize("question, answer, grade", [
    (CAPITAL, "Lisbon", Grade.CORRECT),
    (CAPITAL, "It is Lisbon.", Grade.CORRECT),
    (CAPITAL, "Lisboa", Grade.CORRECT),                          # an alias
    (CAPITAL, "Lisbonn", Grade.UNGRADED),                         # a one-letter typo
    (LAKE, "Victoria", Grade.CORRECT),                           # "lake" is implied by the question
    (MUSEUM, "Amsterdam", Grade.CORRECT),                        # the gold's leading preposition
    (PRIZE, "The Booker Prize", Grade.CORRECT),                  # "award" is implied
    (VOLCANO, "Mount St. Helens", Grade.CORRECT),                 # a feature's kind added to its name
    # the gold's words are there, the answer is still wrong
    (STATE, "North Dakota", Grade.UNGRADED),                    # another entity containing the gold
    (PARK, "Golden Gate Bridge", Grade.UNGRADED),
    (PRIZE, "Pulitzer Prize", Grade.UNGRADED),
])
def test_the_gold_said_in_other_words_and_another_entity_holding_its_words(question: Question, answer: str,
                                                                           grade: Grade) -> None:
    assert RuleGrader().grade_sync(question, answer).grade is grade


@pytest.mark.parametrize("question, answer, grade", [
    (SPACE_AGENCY, "ESA", Grade.CORRECT),                 # an acronym of the gold
    (SPACE_AGENCY, "NASA", Grade.UNGRADED),               # a code the rules cannot expand: the judge's
    (KORBALL_BODY, "WKU", Grade.CORRECT),                             # the initials of the gold's words
    (KORBALL_BODY, "WKF", Grade.UNGRADED),                            # another abbreviation: the judge's
    (CITY, "Dunmere, Portugal", Grade.CORRECT),                # a city with a country after a comma
    (CITY, "Dunmere, Norland", Grade.UNGRADED),                # a region nobody names: maybe a namesake
    (CITY, "Calder, Norland", Grade.INCORRECT),
    (PROVINCE, "Calder, Norland", Grade.UNGRADED),                 # not a city asked for: the judge's
    (Question(id="g", question="Which tarvo grade marks the top class?", answer="A positive"), "A+",
     Grade.CORRECT),                                            # a sign for its word
])
def test_initials_a_city_with_its_country_and_a_sign_for_its_word(question: Question, answer: str,
                                                                  grade: Grade) -> None:
    outcome = RuleGrader().grade_sync(question, answer)
    assert outcome.grade is grade, outcome.note


@pytest.mark.parametrize("question, answer, grade, note", [
    # a short code in capitals that no rule expands: the judge's, not "names something else"
    (MONEY, "VCR", Grade.UNGRADED, "initials"),
    (MONEY, "Dollar", Grade.INCORRECT, "names something else"),
    # a plural "the" phrase sharing nothing with the gold may be a nickname
    (SIDE, "the Grey Wolves", Grade.UNGRADED, "nickname"),
    (SIDE, "Calder", Grade.INCORRECT, "names something else"),
])
def test_a_code_no_rule_expands_and_a_plural_nickname_are_the_judges(question: Question, answer: str,
                                                                     grade: Grade, note: str) -> None:
    outcome = RuleGrader().grade_sync(question, answer)
    assert outcome.grade is grade, outcome.note
    assert note in (outcome.note or "")


@pytest.mark.parametrize("question, answer, grade, note", [
    # a work's key and opus after its title are detail
    (SUITE, "Suite No. 2 in D minor, Op. 14", Grade.CORRECT, "text"),
    (SUITE, "Suite No. 4 in B-flat major, Op. 30", Grade.INCORRECT, ""),
])
def test_a_works_key_and_opus_after_its_title_are_detail(question: Question, answer: str, grade: Grade,
                                                         note: str) -> None:
    outcome = RuleGrader().grade_sync(question, answer)
    assert outcome.grade is grade, outcome.note
    assert note in (outcome.note or ""), outcome.note


@pytest.mark.parametrize("question, answer, grade", [
    (FILM, "Night Harbour: The Return", Grade.UNGRADED),          # a longer title
    (FILM, "Night Harbour II", Grade.UNGRADED),                   # a sequel glued to the gold
    (FILM, "Answer: Night Harbour", Grade.CORRECT),
    (MISSION, "Luna 20", Grade.INCORRECT),                        # another number in the name
    (MISSION, "Luna", Grade.UNGRADED),                             # part of the name
])
def test_titles_and_numbered_names(question: Question, answer: str, grade: Grade) -> None:
    outcome = RuleGrader().grade_sync(question, answer)
    assert outcome.grade is grade, outcome.note


@pytest.mark.parametrize("question, answer, grade", [
    # vague answers that neither state nor contradict the gold
    (RIVER, "A big European river.", Grade.UNGRADED),
    (RIVER, "I believe it was somewhere in Europe.", Grade.UNGRADED),
    (WRITER, "An Icelandic novelist, but I forget which one.", Grade.UNGRADED),
    (WRITER, "A famous poet.", Grade.UNGRADED),
    # partial answers
    (FOUNDERS, "Ida.", Grade.UNGRADED),
    (FOUNDERS, "One was Ida; I don't remember the other.", Grade.UNGRADED),
    (CAPITAL, "Sintra, near Lisbon.", Grade.UNGRADED),                # the gold only as a landmark
])
def test_descriptions_partial_answers_and_the_gold_as_a_landmark(question: Question, answer: str,
                                                                 grade: Grade) -> None:
    outcome = RuleGrader().grade_sync(question, answer)
    assert outcome.grade is grade, outcome.note


@pytest.mark.parametrize("question, answer, grade", [
    (Question(id="e1", question="Which country has Skopje as its capital?", answer="North Macedonia"),
     "Macedonia", Grade.UNGRADED),                                # drops the qualifying word
    (Question(id="e2", question="Which country has Banjul as its capital?", answer="Gambia"),
     "The Gambian Republic", Grade.UNGRADED),                     # a derived word is not a typo
    (Question(id="e3", question="Which country has Juba as its capital?", answer="Republic of South Sudan"),
     "Federal Republic of South Sudan", Grade.UNGRADED),          # a word glued before the whole gold
    (Question(id="e4", question="Which country has Dili as its capital?", answer="Timor-Leste"),
     "Timor", Grade.UNGRADED),                                     # a hyphenated name stays whole
])
def test_entities_containing_or_contained_in_the_gold(question: Question, answer: str, grade: Grade) -> None:
    outcome = RuleGrader().grade_sync(question, answer)
    assert outcome.grade is grade, outcome.note


@pytest.mark.parametrize("question, gold, answer, grade, kind", [
    ("Which body sets the rules of the sport?", "International Rowing Federation", "IRF", Grade.CORRECT, "initials"),
    ("Which body sets the rules of the sport?", "IRF", "International Rowing Federation", Grade.CORRECT, "initials"),
    ("Who wrote the treatise?", "Helmut Krüger", "Helmut Krueger", Grade.CORRECT, "text"),
    ("Who wrote the treatise?", "Helmut Krüger", "Anselm Vogt", Grade.INCORRECT, "text"),
])
def test_the_initials_and_text_kinds_decide_an_acronym_and_a_transliteration(
        question: str, gold: str, answer: str, grade: Grade, kind: str) -> None:
    outcome = rule_outcome(question, gold, answer)
    assert outcome.grade is grade, outcome.note
    assert (outcome.note or "").removeprefix("undecided: ").startswith(f"{kind}:"), outcome.note


@pytest.mark.parametrize("question, gold, answer, grade, kind", [
    ("In which city is the observatory?", "Harwick, Ontario", "Harwick", Grade.CORRECT, "text"),
    ("Which body runs the survey?", "GSNA", "Geological Survey of North America", Grade.CORRECT, "initials"),
    ("Which body runs the survey?", "Geological Survey of North America", "GSoNA", Grade.CORRECT, "initials"),
    ("Where did she study?", "University of Lindmark", "ULindmark", Grade.UNGRADED, "text"),  # glued abbreviation
    ("Which body runs the survey?", "Geological Survey of North America", "Coast Watch", Grade.INCORRECT, "text"),
    ("Which locomotive won the trial?", "Engine 4", "Engine 7", Grade.INCORRECT, "text"),
    ("Where was the printer's shop?", "14B Harbour Road", "14D Harbour Road", Grade.INCORRECT, "text"),
    ("Where was the printer's shop?", "14B Harbour Road", "14B Harbour Rd.", Grade.CORRECT, "spelling"),
    ("Which ship sank in the storm?", "Morning Harvest", "Morning Harvst", Grade.CORRECT, "spelling"),
    ("Which two towns share the bridge?", "Alder and Brill", "Brill and Alder", Grade.CORRECT, "text"),
    ("Which two towns share the bridge?", "Alder and Brill", "Alder and Carrow", Grade.INCORRECT, "text"),
    ("Which two towns share the bridge?", "Alder and Brill", "Alder and Brillmoor", Grade.UNGRADED, "text"),
    ("Which peak did they climb first?", "Mount Orvel", "Mount Tarrin", Grade.INCORRECT, "text"),  # a kind word
    ("Which peak did they climb first?", "Mount Orvel", "Orvel Ridge", Grade.UNGRADED, "text"),
])
def test_places_initials_numbered_names_spellings_and_lists_of_two(question: str, gold: str, answer: str,
                                                                   grade: Grade, kind: str) -> None:
    outcome = rule_outcome(question, gold, answer)
    assert outcome.grade is grade, outcome.note
    assert (outcome.note or "").removeprefix("undecided: ").startswith(kind), outcome.note


@pytest.mark.parametrize("question, gold, answer, grade", [
    ("Which team won the 1966 Stanley Cup?", "Montreal Canadiens", "The Canadiens", Grade.UNGRADED),
    ("Which team won the 1966 Stanley Cup?", "Montreal Canadiens", "Montreal", Grade.UNGRADED),
    ("Which team won the 1966 Stanley Cup?", "Montreal Canadiens", "The Red Wings", Grade.INCORRECT),
    ("Which moon did the probe visit?", "Titan moon", "The Titan moon", Grade.CORRECT),
    ("Which comet did the probe visit?", "Tempel 1", "A small comet", Grade.UNGRADED),
    ("In which country is most of Lake Victoria?", "Tanzania", "Mostly Uganda, with a share in Tanzania",
     Grade.UNGRADED),
])
def test_part_of_a_teams_name_a_kind_word_and_a_share_named_beside_the_gold(question: str, gold: str, answer: str,
                                                                             grade: Grade) -> None:
    assert rule_grade(question, gold, answer) is grade


@pytest.mark.parametrize("question, gold, answer, grade", [
    ("Which amendment ended Prohibition?", "21st Amendment", "Amendment XXI", Grade.UNGRADED),
    ("Which amendment ended Prohibition?", "21st Amendment", "Amendment XVIII", Grade.UNGRADED),
    ("What is the capital of Austria?", "Vienna", "Wien", Grade.UNGRADED),
])
def test_a_roman_numeral_for_an_ordinal_and_a_name_in_its_own_language_are_the_judges(
        question: str, gold: str, answer: str, grade: Grade) -> None:
    assert rule_grade(question, gold, answer) is grade


@pytest.mark.parametrize("question, gold, answer, grade", [
    ("What do bees make?", "honey", "Sweet sticky food stored in the comb", Grade.UNGRADED),
    ("What do bees make?", "honey", "Answer: Sweet sticky food stored in the comb", Grade.UNGRADED),
    ("What do bees make?", "honey", "Wax", Grade.INCORRECT),
    ("Which city hosted the games?", "Peshawar", "Peshaawur", Grade.UNGRADED),  # same consonants
    ("Which city hosted the games?", "Marrakesh", "Marrakech", Grade.CORRECT),  # within the typo rule
    ("Which instrument did he play?", "bassoon", "The contrabassoon", Grade.UNGRADED),
    ("Which instrument did he play?", "bassoon", "Oboe", Grade.INCORRECT),
])
def test_sentence_capitals_and_spelling_variants(question: str, gold: str, answer: str, grade: Grade) -> None:
    assert rule_grade(question, gold, answer) is grade


@pytest.mark.parametrize("answer", [
    "It is the coastal city on the Tagus estuary where the famous trams run uphill",
    "the westernmost capital on the continent, with many hills and old tiled facades",
])
def test_free_paraphrase_is_ungraded_with_a_reason(answer: str) -> None:
    outcome = RuleGrader().grade_sync(CAPITAL, answer)
    assert outcome.grade is Grade.UNGRADED
    assert outcome.note and outcome.note.startswith("undecided:")


def test_descriptions_are_left_to_the_judge() -> None:
    # a description names no answer the rules can compare: vague or not is the judge's reading
    for answer in ("a port city in southern Europe", "a port city famous for the Belem Tower"):
        outcome = RuleGrader().grade_sync(CAPITAL, answer)
        assert outcome.grade is Grade.UNGRADED and (outcome.note or "").startswith("undecided:")


def test_part_of_a_larger_thing_describes_rather_than_names() -> None:
    assert rule_grade("Which bay lies west of the cape?", "Ardmore Bay", "part of the Celtic Sea") is Grade.UNGRADED


def test_partial_name_is_ungraded_not_guessed() -> None:
    question = Question(id="t1", question="What is the title of the band's last album?", answer="Silver Morning Tide")
    outcome = RuleGrader().grade_sync(question, "Morning Tide")
    assert outcome.grade is Grade.UNGRADED
    assert (outcome.note or "").startswith("undecided: text:")


@pytest.mark.parametrize("answer, grade", [
    ("Brown bear", Grade.UNGRADED),
    ("the brown bear", Grade.UNGRADED),
    ("The polar bear", Grade.CORRECT),
    ("A bear", Grade.UNGRADED),                                  # only the head noun: undecided
])
def test_head_noun_with_another_modifier(answer: str, grade: Grade) -> None:
    assert rule_grade("Which animal lives on the sea ice?", "polar bear", answer) is grade


@pytest.mark.parametrize("gold, answer, grade", [
    ("F#", "F", Grade.UNGRADED),
    ("F#", "F#", Grade.CORRECT),
    ("F#", "Fb", Grade.INCORRECT),
    ("Notepad++", "Notepad", Grade.UNGRADED),
    ("Notepad++", "It was written in Notepad++.", Grade.UNGRADED),
])
def test_symbols_are_part_of_a_name(gold: str, answer: str, grade: Grade) -> None:
    assert rule_grade("Which one was used?", gold, answer) is grade


def test_symbols_do_not_break_signed_numbers() -> None:
    assert words("C# and +7") == ["c#", "and", "7"]
    assert rule_grade("By how many points did the score change?", "+7", "+7") is Grade.CORRECT


def test_a_title_with_a_foreign_article() -> None:
    question = "Which opera by the composer opens in a forest?"
    assert rule_grade(question, "The Hunter's Bride", "Die Jägersbraut") is Grade.UNGRADED  # maybe the same title
    assert rule_grade(question, "The Hunter's Bride", "Orlando") is Grade.INCORRECT


def test_an_expansion_is_spelt_exactly() -> None:
    question = "What does the acronym of the survey stand for?"
    assert rule_grade(question, "Northern Lakes Monitoring Programme", "Northern Lakes Monitoring Programme") \
        is Grade.CORRECT
    assert rule_grade(question, "Northern Lakes Monitoring Programme", "Northern Lakes Monitoring Programs") \
        is not Grade.CORRECT


def test_british_and_american_spellings_are_one_word() -> None:
    assert words("organisation centre colour catalogue") == words("organization center color catalog")
    assert words("tour four rise") == ["tour", "4", "rise"]  # too short for an ending to be a spelling
    outcome = rule_outcome("Which body runs the games?", "International Sports Organization",
                           "International Sports Organisation")
    assert outcome.grade is Grade.CORRECT


def test_one_letter_off_is_a_spelling_only_in_a_name() -> None:
    assert rule_grade("Who built the mill?", "Hendrik Ostervelt", "Hendrik Oostervelt") is Grade.CORRECT
    # two common words one letter apart are two words (a chemical name's ending), not one misspelt
    assert rule_grade("What is the systematic name of the salt?", "potassium chlorate", "potassium chlorite") \
        is Grade.UNGRADED


@pytest.mark.parametrize("answer, grade", [
    ("Elbrus", Grade.CORRECT),                    # the gold's kind of feature left out
    ("Mt. Elbrus", Grade.CORRECT),                # an abbreviated type word
    ("Elbrus, at 5,642 m", Grade.CORRECT),
    ("Mount Kazbek", Grade.INCORRECT),              # shares only the kind of thing
])
def test_type_words_of_the_gold_are_optional(answer: str, grade: Grade) -> None:
    outcome = RuleGrader().grade_sync(PEAK, answer)
    assert outcome.grade is grade, outcome.note


@pytest.mark.parametrize("gold, answer", [("Lake Orrin", "Orrin"), ("Orrin", "Lake Orrin"),
                                          ("Velsk Strait", "the Velsk"), ("Mount Tarvo", "Tarvo, in the north")])
def test_a_feature_named_with_or_without_its_kind(gold: str, answer: str) -> None:
    assert rule_outcome("Which feature is the largest of the region?", gold, answer).grade is Grade.CORRECT


def test_the_gold_then_where_it_is() -> None:
    outcome = rule_outcome("Which body awards the medal?", "Royal Society of Cartographers",
                           "The Royal Society of Cartographers in Edinburgh")
    assert outcome.grade is Grade.CORRECT and "where it is" in (outcome.note or "")
    # where a city is asked, a place after "in" may be a namesake elsewhere: not read as detail
    city = rule_outcome("Which city hosts the fair?", "Valmont", "Valmont in Quebec")
    assert "where it is" not in (city.note or "")


def test_a_detail_saying_which_one_of_that_name_is_the_judges() -> None:
    outcome = rule_outcome("Which city is the seat of the province?", "Valmont", "Valmont — the one in Quebec")
    assert outcome.grade is Grade.UNGRADED and "which of several" in (outcome.note or "")


@pytest.mark.parametrize("answer", ["Portugal", "northern Portugal"])
def test_a_country_where_a_city_is_asked_may_hold_it(answer: str) -> None:
    outcome = rule_outcome("In which city is the observatory?", "Coimbra", answer)
    assert outcome.grade is Grade.UNGRADED and "country" in (outcome.note or "")


def test_another_city_where_a_city_is_asked_is_wrong() -> None:
    assert rule_outcome("In which city is the observatory?", "Coimbra", "Braga").grade is Grade.INCORRECT


def test_a_former_country_where_a_city_is_asked() -> None:
    assert rule_grade("In which city was the accord signed?", "Gitega", "Zaire") is Grade.UNGRADED
    assert rule_grade("In which city was the accord signed?", "Gitega", "Kigali") is Grade.INCORRECT


def test_a_place_that_differs_only_by_its_direction_is_another_place() -> None:
    assert rule_grade("In which made-up province is Harrow Fell?", "South Varnia", "North Varnia") is Grade.INCORRECT
    assert rule_grade("In which made-up province is Harrow Fell?", "South Varnia", "South Varnia") is Grade.CORRECT


FIRST_FEATURE = Question(id="t9", question="What was the Orley studio's first feature film?", answer="Lantern Road")
CHANNEL = Question(id="t10", question="Which waterway lies between Norland and Vennland?", answer="Strait of Orsk")


@pytest.mark.parametrize("question, answer, correct", [
    (FIRST_FEATURE, "The studio's first feature was Lantern Road, released in 1991.", True),
    (FIRST_FEATURE, "The studio's first feature was Lantern Road 2, released in 1994.", False),  # a sequel
    (FIRST_FEATURE, "Lantern Road 2", False),
    (CHANNEL, "The two are separated by the Strait of Orsk.", True),
    (CHANNEL, "The two are separated by the Bay of Orsk.", False),  # the gold's name, another kind of feature
    (CHANNEL, "The Orsk strait.", True),
])
def test_a_number_or_another_feature_after_the_golds_name_is_another_thing(question: Question, answer: str,
                                                                           correct: bool) -> None:
    assert (rule_grade(question.question, question.answer, answer) is Grade.CORRECT) is correct


RH = Question(id="t11", question="Which rhesus group do the Norland donor cards list first?", answer="AB-",
              aliases=["AB negative"])


@pytest.mark.parametrize("answer, correct", [
    ("The cards list type AB negative first.", True),
    ("The cards list type AB positive first.", False),
    ("Type AB negative is the group listed first.", None),   # left to the judge alike, right or wrong
    ("Type AB positive is the group listed first.", None),
    ("The cards list AB+ first.", False),
])
def test_a_types_sign_is_part_of_it(answer: str, correct: bool | None) -> None:
    """A gold written "AB-" keeps its sign: the other sign is never read as the gold's words."""
    grade = rule_grade(RH.question, [RH.answer, *RH.aliases], answer)
    assert grade is Grade.UNGRADED if correct is None else (grade is Grade.CORRECT) is correct


RATIO = Question(id="t12", question="Which Greek letter names the Norland constant?", answer="Pi", aliases=["π"])
RIVER_LINE = Question(id="t13", question="Which river marks the Norland frontier?", answer="Rio Verde")


@pytest.mark.parametrize("question, answer, correct", [
    (RATIO, "π", True),
    (RATIO, "It is written with the Greek letter pi (π).", True),
    (RATIO, "φ", False),                                          # another letter of the same alphabet
    (RATIO, "It is written with the Greek letter **tau** (τ).", False),
    (RIVER_LINE, "That is the Rio Verde, which runs along it.", True),
    (RIVER_LINE, "That is the Rio Verde do Norte, which runs along it.", False),  # a longer name holding the gold's
])
def test_symbols_are_compared_as_written_and_a_names_particles_continue_it(question: Question, answer: str,
                                                                          correct: bool) -> None:
    assert (rule_grade(question.question, [question.answer, *question.aliases], answer) is Grade.CORRECT) is correct


GAMES = Question(id="t14", question="Which city of Norland hosted the 1970 Brell Games?", answer="Dunmere")


@pytest.mark.parametrize("answer, grade", [
    ("Dunmere, Norland", Grade.CORRECT),                              # the region the question names
    ("The games were held in Dunmere, Norland, by the sea.", Grade.CORRECT),
    ("Dunmere, Portugal", Grade.CORRECT),                             # a country's name
    ("Dunmere, Texas", Grade.UNGRADED),                               # a state: maybe a namesake there
    ("The games were held in Dunmere, Nova Scotia, by the sea.", Grade.UNGRADED),
    ("Dunmere, Georgia", Grade.UNGRADED),                             # a country's name and a state's
    ("The 1970 Brell Games were hosted by Dunmere, Texas, on the coast.", Grade.UNGRADED),  # the blank's filler
    ("The 1970 Brell Games were hosted by Dunmere, Norland, on the coast.", Grade.CORRECT),
    ("Calder, Texas", Grade.INCORRECT),                               # another city, wherever it is
])
def test_a_citys_region_is_one_the_question_names_or_a_country(answer: str, grade: Grade) -> None:
    """Right or wrong alike: whether the gold's city is the one in a region nobody named needs knowledge."""
    outcome = RuleGrader().grade_sync(GAMES, answer)
    assert outcome.grade is grade, outcome.note


HYMN = Question(id="t15", question="Which organist composed the Norland harbour hymn?", answer="Arne Holt")


@pytest.mark.parametrize("answer, grade", [
    ("It was composed by a Norland-born organist working in Vennland.", Grade.UNGRADED),  # who, only described
    ("It was composed by Arne Holt, a Norland-born organist.", Grade.CORRECT),
    ("It was composed by Per Lund, a Norland-born organist.", Grade.INCORRECT),
    ("It was composed by a choir led by Arne Holt in Vennland.", Grade.CORRECT),            # the description names him
])
def test_a_doer_only_described_is_no_wrong_name(answer: str, grade: Grade) -> None:
    """The names beside a description of who did it ("by an organist working in X") say where, not who."""
    outcome = RuleGrader().grade_sync(HYMN, answer)
    assert outcome.grade is grade, outcome.note
