"""Person names: surname only, optional middle names and titles, initials, small typos."""

from __future__ import annotations

import re

from factprobe.eval.grading.given_names import is_patronymic, same_given_name
from factprobe.eval.grading.negation import negated_tokens
from factprobe.eval.grading.tokens import STOPWORDS, Token, consonant_skeleton, same_word, tokenize
from factprobe.eval.grading.verdict import Finding, Verdict

TITLES = frozenset("""
dr doctor prof professor sir dame lord lady mr mrs ms miss mx rev reverend fr father saint st jr sr
ii iii iv king queen prince princess president general gen captain capt colonel col admiral
madame mme madam monsieur mademoiselle herr frau senor senora don sheikh emperor empress pope sultan
mahatma baron baroness count countess duke duchess earl marquess marquis viscount sheikha imam rabbi
""".split())
_LONG_SURNAME = 8  # letters from which a surname alone may carry a typo
# Words after a surname that name one generation of a family ("Dumas fils", "Bush Jr.").
GENERATIONS = frozenset("jr junior sr senior fils pere elder younger ii iii iv".split())
PARTICLES = frozenset("van von de der den da di del della du le la bin ibn al el y".split())
_PERSON_QUESTION = re.compile(
    r"\b(who|whom|whose|(?:full|first|last|maiden|birth|real|legal|original|given|christian)\s+name|name\s+of\s+the\s+(?:person|man|woman)"
    r"|(?:person|man|woman|captain|founder|inventor|author|architect|composer|painter|sculptor|director"
    r"|mayor|governor|chancellor|ceo|chairman|chairwoman|coach|manager|winner|recipient|husband|wife"
    r"|son|daughter|father|mother|brother|sister|spouse)\b"
    r"|which\s+(?:[\w'-]+\s+){0,2}?(?:person|man|woman|author|writer|poet|painter|artist|scientist|physicist"
    r"|chemist|mathematician|composer|director|actor|actress|architect|player|president|king|queen|inventor|"
    r"explorer|philosopher|singer|musician|photographer|sculptor|economist|politician|engineer|"
    r"astronaut|coach|founder|novelist|journalist|designer|athlete|prime\s+minister|emperor|pope"
    # people named by what they do: "Which driver …", "Which Formula One driver …"
    r"|driver|racer|cyclist|swimmer|runner|sprinter|golfer|boxer|wrestler|jockey|cricketer|footballer"
    r"|goalkeeper|batsman|pitcher|quarterback|skater|skier|climber|mountaineer|pianist|violinist|guitarist"
    r"|drummer|conductor|rapper|dancer|comedian|playwright|dramatist|screenwriter|filmmaker"
    r"|pilot|aviator|cosmonaut|astronomer|biologist|historian|scholar|theologian|lawyer|judge|senator"
    r"|governor|chancellor|minister|monarch|ruler|leader|admiral|commander|candidate"
    r"|nominee|laureate|chef|saint|prophet)s?)\b",
    re.IGNORECASE,
)


def is_person_question(question: str) -> bool:
    """True when the question asks for a person."""
    return bool(_PERSON_QUESTION.search(question))


def looks_like_name(gold: str) -> bool:
    """Two to five capitalised words (particles such as "van" allowed), no digits."""
    words = re.findall(r"[^\W\d_]+(?:['’.][^\W\d_]+)*\.?", gold)
    if re.search(r"\d", gold) or not 2 <= len(words) <= 6:
        return False
    return all(w[:1].isupper() or w.lower() in PARTICLES for w in words)


def name_parts(text: str) -> list[str]:
    """Normalised name words without titles or particles ("Dr. Ludwig van Beethoven" -> ludwig, beethoven)."""
    return [t.norm for t in tokenize(text) if t.norm not in TITLES and t.norm not in PARTICLES]


def _same_part(answer_word: str, gold_word: str) -> bool:
    if len(answer_word) == 1 or len(gold_word) == 1:
        return answer_word[:1] == gold_word[:1]  # an initial on either side
    return same_word(answer_word, gold_word)


def _same_given(answer_word: str, gold_word: str) -> bool:
    """The same given name, an initial of it, a small typo, a short form or another language's form."""
    return _same_part(answer_word, gold_word) or same_given_name(answer_word, gold_word)


def _given_names_agree(before: list[str], given: list[str]) -> bool:
    """Names written before the surname agree with the gold's given names (extra middle names allowed)."""
    if same_word("".join(before), "".join(given), allow_typo=False):
        return True
    if not _same_given(before[0], given[0]):
        return False
    position = 1
    for word in before[1:]:
        hits = [i for i in range(position, len(given)) if _same_part(word, given[i])]
        if hits:
            position = hits[0] + 1
    return True


def _middle_names_differ(before: list[str], given: list[str]) -> bool:
    """Both give middle names and the answer's are not the gold's, in order, from the first.

    "George W. Bush" for "George H. W. Bush" skips the gold's first middle name: it may be
    another member of the family, so the grader does not decide.
    """
    answer_middles, gold_middles = before[1:], given[1:]
    if not answer_middles or not gold_middles or same_word("".join(before), "".join(given), allow_typo=False):
        return False
    if not _same_part(answer_middles[0], gold_middles[0]):
        return True
    position = 1
    for word in answer_middles[1:]:
        hits = [i for i in range(position, len(gold_middles)) if _same_part(word, gold_middles[i])]
        if not hits:
            return True
        position = hits[0] + 1
    return False


def added_given_names(before: list[str], given: list[str]) -> list[str]:
    """Full given names the answer adds to the gold's ("quincy" in "John Quincy Adams" for "John Adams").

    Initials are not counted; the answer's names are matched to the gold's in order.
    """
    if not given or same_word("".join(before), "".join(given), allow_typo=False):
        return []
    added: list[str] = []
    position = 0
    for word in before:
        hits = [i for i in range(position, len(given)) if _same_given(word, given[i])]
        if hits:
            position = hits[0] + 1
        elif len(word) > 1:
            added.append(word)
    return added


def _name_run_before(tokens: list[Token], index: int, lower_case: bool) -> list[Token]:
    """The name words written just before tokens[index], in the same phrase ("Not William Herschel; …")."""
    run: list[Token] = []
    for position in range(index - 1, -1, -1):
        token = tokens[position]
        if re.search(r"[,;:!?()]", tokens[position + 1].gap) or (
                "." in tokens[position + 1].gap and len(token.norm) > 1 and token.norm not in TITLES):
            break
        if token.norm in TITLES or token.norm in PARTICLES:
            continue
        name_like = (token.capitalised or lower_case) and token.norm not in STOPWORDS and token.norm.isalpha()
        if not name_like:
            break
        run.insert(0, token)
    return run


def _generation_after(claim: list[Token], index: int) -> str | None:
    """A generational word right after the surname ("fils", "Jr.", "the Younger"), if any."""
    following = [t for t in claim[index + 1:index + 3] if t.norm != "the"][:1]
    if following and following[0].norm in GENERATIONS and claim[index + 1].gap.strip(" ,") == "":
        return following[0].text
    return None


# Nouns after a possessive that name another person ("Curie's daughter", "Mozart's rival").
RELATIVES = frozenset("""
brother brothers sister sisters son sons daughter daughters wife husband widow widower father mother
parent parents grandson granddaughter grandfather grandmother nephew niece cousin uncle aunt child
children heir successor predecessor rival student students pupil pupils teacher mentor assistant
partner colleague friend apprentice protege biographer contemporary contemporaries collaborator
associate opponent
""".split())


def _relative_follows(after: list[Token]) -> bool:
    """Someone else follows the possessive: a noun naming them at most one word later ("Bach's
    eldest son"), or a capitalised name after a word ("Shakespeare's contemporary Christopher Marlowe")."""
    for position, token in enumerate(after[:3]):
        if token.gap.strip():
            return False
        if token.norm in RELATIVES and position < 2:
            return True
        if position and token.capitalised:
            return True
    return False


def _is_surname(token: Token, surname: str, confirmed: bool, after: list[Token] | None = None) -> bool:
    """The token is the gold's surname, allowing a small typo.

    A surname alone allows a typo only in a long name ("Dostoyevsky"): in a short one a letter
    apart is often another person ("Manet" for Monet).
    """
    if token.text.lower().endswith(("'s", "’s")) and _relative_follows(after or []):
        return False  # "Herschel's brother" names someone else; "Amundsen's party" names Amundsen
    if token.norm == surname or _undoubled(token.norm) == _undoubled(surname):
        return True  # "Whitmann": a doubled letter is a typo, not another name
    if confirmed and _spelling_variant(token.norm, surname):
        return True  # "Yusufzai" beside the gold's given name: another transliteration
    if len(consonant_skeleton(surname)) >= _SKELETON_ALONE and _one_vowel_apart(token.norm, surname):
        return True  # "Tolstoi": one vowel differs in a surname of four consonants or more
    return (confirmed or len(surname) >= _LONG_SURNAME) and same_word(token.norm, surname)


_SKELETON = 3  # consonants a surname needs before its transliterations are compared
_SKELETON_ALONE = 4  # consonants a surname needs before a transliteration of it alone is accepted ("Manet"/"Monet")


def _spelling_variant(word: str, surname: str) -> bool:
    """Another transliteration of the surname: same first letter, same consonants ("yusufzai"/"yousafzai")."""
    skeleton = consonant_skeleton(surname)
    return word[:1] == surname[:1] and len(skeleton) >= _SKELETON and consonant_skeleton(word) == skeleton


def _one_vowel_apart(word: str, surname: str) -> bool:
    """The same letters but one, a vowel for a vowel ("tolstoi"/"tolstoy"; not "tolstaya", a longer form)."""
    differing = [(a, b) for a, b in zip(word, surname) if a != b]
    return len(word) == len(surname) and len(differing) == 1 and all(
        letter in "aeiouy" for letter in differing[0])


def _gold_joined(gold: str) -> str | None:
    """The word hyphen-joined before the gold's surname ("berners" in "Berners-Lee"), if any."""
    tokens = [t for t in tokenize(gold) if t.norm not in TITLES and t.norm not in PARTICLES]
    return tokens[-2].norm if len(tokens) >= 2 and tokens[-1].gap == "-" else None


def _undoubled(word: str) -> str:
    return re.sub(r"(.)\1", r"\1", word)


# A nickname in quotes between given name and surname: Steve "Woz" Wozniak, Earvin ‘Magic’ Johnson.
_QUOTED_NICKNAME = re.compile(
    r"(?<=\w)\s+(?:\"[^\"\n]{1,25}\"|“[^”\n]{1,25}”|‘[^’\n]{1,25}’|'[^'\n]{1,25}')\s+(?=[A-Z])")


def without_nickname(text: str) -> str:
    """The text with a quoted nickname inside a name left out: it is not a middle name."""
    return _QUOTED_NICKNAME.sub(" ", text)


def match_person(claim: list[Token], gold: str, question_words: set[str]) -> Verdict:
    """Compare the person named in the claim with the gold name."""
    parts = name_parts(gold)
    if not parts or (len(parts) < 2 and not any(t.norm in TITLES for t in tokenize(gold))):
        return Verdict(Finding.ABSENT, "gold is not a full name")
    given, surname = parts[:-1], parts[-1]
    joined_in_gold = _gold_joined(gold)
    gold_generation = {t.norm for t in tokenize(gold)} & GENERATIONS
    lower_case = not any(t.capitalised for t in claim[1:])
    conflicts: list[str] = []
    denied = False
    for index, token in enumerate(claim):
        if not same_word(token.norm, surname) and not _spelling_variant(token.norm, surname):
            continue
        before = _name_run_before(claim, index, lower_case)
        given_here = given
        if token.gap == "-" and before:  # a double-barrelled surname ("Berners-Lee", "Skłodowska-Curie")
            joined, before = before[-1], before[:-1]
            if joined_in_gold is not None:
                if not same_word(joined.norm, joined_in_gold):
                    conflicts.append(f"{joined.text}-{token.text}")
                    continue
                given_here = given[:-1]
        words = [t.norm for t in before]
        agree = bool(words) and bool(given_here) and _given_names_agree(words, given_here)
        exact = agree and words[0] == given_here[0]  # a transliterated surname needs the exact given name
        if not _is_surname(token, surname, confirmed=agree and (exact or same_word(token.norm, surname)),
                           after=claim[index + 1:index + 3]):
            continue
        if negated_tokens(claim, index - len(before), index + 1):
            if not words or not given_here or _given_names_agree(words, given_here):
                denied = True
            continue  # "Not Percy Shelley; it was Mary Shelley": another person denied
        generation = _generation_after(claim, index)
        if generation and generation.lower().strip(".") not in gold_generation:
            conflicts.append(f"{' '.join(t.text for t in before + [token])} {generation}")
            continue
        if not words or not given_here:
            return Verdict(Finding.MATCH, "names the gold person (surname only)" if not words
                           else "names the gold person (the gold gives a title, not given names)")
        if all(w in question_words and not any(_same_part(w, g) for g in given_here) for w in words):
            continue  # the question's own person echoed back
        if _compound_surname(words, given_here):
            return Verdict(Finding.MATCH, "names the gold person")
        if _given_names_agree(words, given_here):
            if _middle_names_differ(words, given_here):
                return Verdict(Finding.UNDECIDED, "middle names differ from the gold's "
                               f"({' '.join(t.text for t in before + [token])})")
            added = added_given_names(words, given_here)
            # one name apart is how namesakes of a family differ; several, or a patronymic, make a full name
            if len(added) == 1 and not is_patronymic(added[0]):
                return Verdict(Finding.UNDECIDED, f"adds a given name the gold does not have ({added[0]}): "
                               "a middle name, or another person of the same family")
            return Verdict(Finding.MATCH, "names the gold person")
        conflicts.append(" ".join(t.text for t in before + [token]))
    if denied:
        return Verdict(Finding.CONFLICT, "negates the gold")
    if conflicts and len(given) > 1 and any(_same_part(c.split()[0].lower(), g) for c in conflicts for g in given[1:]):
        return Verdict(Finding.UNDECIDED, f"first name is the gold's middle name ({conflicts[0]})")
    if conflicts and any(same_word(word.lower(), given[0]) for c in conflicts for word in c.split()[1:]):
        return Verdict(Finding.UNDECIDED, f"a word before the gold's given name ({conflicts[0]})")
    if conflicts:
        return Verdict(Finding.CONFLICT, f"names a different person with the gold's surname ({conflicts[0]})")
    first_only = [t for t in claim if given and (same_word(t.norm, given[0]) or same_given_name(t.norm, given[0]))]
    if first_only:
        if surname in question_words:
            return Verdict(Finding.MATCH, "names the gold person (surname implied by the question)")
        return Verdict(Finding.UNDECIDED, "gives only the gold's first name")
    others = [t.text for t in claim if (t.capitalised or lower_case) and t.norm.isalpha()
              and t.norm not in STOPWORDS and t.norm not in question_words and t.norm not in TITLES]
    if others:
        return Verdict(Finding.CONFLICT, f"names a different person ({' '.join(others[:4])})")
    return Verdict(Finding.ABSENT, "names no person")


def _compound_surname(before: list[str], given: list[str]) -> bool:
    """The names before the surname are the gold's last given names ("García Márquez")."""
    tail = given[-len(before):]
    return len(before) < len(given) + 1 and len(tail) == len(before) and all(
        same_word(word, part) for word, part in zip(before, tail))


__all__ = ["is_person_question", "looks_like_name", "match_person", "name_parts", "without_nickname"]
