"""Wikidata-style relations (`entity >> relation`, `(subject, relation, object)`) as questions.

MuSiQue writes some hops as `Van Hook Township >> located in the administrative territorial
entity`, and 2WikiMultihopQA gives hops as triples; both become single-fact questions here. Common
relations have a natural template; any other falls back to "What is the <relation> of <entity>?".
"""

from __future__ import annotations

import re

RELATION_TEMPLATES: dict[str, str] = {
    "located in the administrative territorial entity":
        "In which administrative territorial entity is {e} located?",
    "located on terrain feature": "On which terrain feature is {e} located?",
    "located in or next to body of water": "Which body of water is {e} located in or next to?",
    "country": "Which country is {e} in?",
    "continent": "Which continent is {e} on?",
    "capital": "What is the capital of {e}?",
    "capital of": "What is {e} the capital of?",
    "headquarters location": "Where is the headquarters of {e}?",
    "mouth of the watercourse": "Into which body of water does {e} flow?",
    "crosses": "What does {e} cross?",
    "part of": "What is {e} part of?",
    "father": "Who is the father of {e}?",
    "mother": "Who is the mother of {e}?",
    "spouse": "Who is the spouse of {e}?",
    "sibling": "Who is a sibling of {e}?",
    "child": "Who is a child of {e}?",
    "place of birth": "Where was {e} born?",
    "place of death": "Where did {e} die?",
    "place of burial": "Where was {e} buried?",
    "date of birth": "When was {e} born?",
    "date of death": "When did {e} die?",
    "country of citizenship": "Which country is {e} a citizen of?",
    "country of origin": "What is the country of origin of {e}?",
    "educated at": "Where was {e} educated?",
    "employer": "Who is the employer of {e}?",
    "occupation": "What is the occupation of {e}?",
    "position held": "Which position did {e} hold?",
    "award received": "Which award did {e} receive?",
    "member of": "Which organisation is {e} a member of?",
    "member of sports team": "Which sports team was {e} a member of?",
    "member of political party": "Which political party was {e} a member of?",
    "founded by": "Who founded {e}?",
    "inception": "When was {e} founded?",
    "owned by": "Who owns {e}?",
    "parent organization": "What is the parent organisation of {e}?",
    "manufacturer": "Who manufactured {e}?",
    "developer": "Who developed {e}?",
    "publisher": "Who published {e}?",
    "publication date": "When was {e} published?",
    "record label": "Which record label released {e}?",
    "author": "Who is the author of {e}?",
    "creator": "Who is the creator of {e}?",
    "director": "Who directed {e}?",
    "producer": "Who produced {e}?",
    "composer": "Who composed {e}?",
    "performer": "Who is the performer of {e}?",
    "cast member": "Who is a cast member of {e}?",
    "screenwriter": "Who wrote the screenplay of {e}?",
    "lyrics by": "Who wrote the lyrics of {e}?",
    "original broadcaster": "Which network originally broadcast {e}?",
    "production company": "Which company produced {e}?",
    "distributed by": "Who distributed {e}?",
    "genre": "What is the genre of {e}?",
    "languages spoken, written or signed": "Which language does {e} speak?",
    "official language": "What is the official language of {e}?",
    "religion": "What is the religion of {e}?",
    "head of government": "Who is the head of government of {e}?",
    "conflict": "Which conflict did {e} take part in?",
    "military branch": "Which military branch did {e} serve in?",
    "sport": "Which sport does {e} play?",
    "league": "Which league does {e} play in?",
    "instrument": "Which instrument does {e} play?",
    "follows": "What does {e} follow?",
    "followed by": "What is {e} followed by?",
}

_SPACE_BEFORE_PUNCT = re.compile(r"\s+([?,.!]|'s\b)")


def relation_question(entity: str, relation: str) -> str:
    """A natural question asking for `relation` of `entity` (which may be a `#k` reference)."""
    key = relation.strip().lower()
    template = RELATION_TEMPLATES.get(key, "What is the {relation} of {e}?")
    return template.format(e=entity.strip(), relation=key)


def tidy_question(text: str) -> str:
    """Collapse spaces, drop spaces before punctuation and "'s", capitalise, end with "?"."""
    text = _SPACE_BEFORE_PUNCT.sub(r"\1", " ".join(text.split()))
    if text and text[0].islower():
        text = text[0].upper() + text[1:]
    return text if text.endswith("?") else text.rstrip(".") + "?"
