"""Given names that name the same person: short forms and the same name in other languages.

A general-knowledge table for the person-name rules: "Bob" is "Robert", "Jan" is "Johannes",
"Maria" is "Marie". A short form that begins the full name ("Rafa" for "Rafael", "Tim" for
"Timothy") needs no entry. Kept small on purpose: only common English short forms and the common
European forms of the same name; a nickname that shares nothing with the name ("Tom" for a
Brazilian "Antônio") stays a different name, and so does a patronymic-free family name.
"""

from __future__ import annotations

import re

_GROUPS = """
john johannes johann jan hans juan giovanni joao jean ivan jon jack
mary maria marie mariya
william bill will willem wilhelm guillaume guillermo guglielmo
robert bob bobby rob roberto
richard dick rick ricardo riccardo
james jim jimmy jacques jaime giacomo
edward ed ted eddie eduard eduardo edouard
elizabeth liz beth betty elisabeth elisabetta
margaret peggy maggie margarethe margherita
henry harry henri heinrich enrique enrico
charles charlie chuck karl carl carlos carlo
joseph joe josef giuseppe jose
peter pete pierre pedro pietro piotr pyotr
paul paolo pablo
michael mike michel miguel mikhail michele
francis frank francois francisco francesco franz
george georg georges jorge giorgio
thomas tom tommy tomas tommaso
anthony tony antonio antoine anton
alexander alex alexandre alessandro aleksandr alejandro
nicholas nick nicolas nikolai niccolo nicola
stephen steven steve stefan etienne esteban stefano
andrew andy andre andreas andrei andres andrea
catherine katherine kate ekaterina catarina caterina katharina
louis ludwig luis luigi lewis
frederick fred friedrich federico frederic
lawrence larry lorenzo laurent
daniel dan danny
david dave
samuel sam
gerald jerry
ronald ron
donald don
leonard leo
theodore ted teddy fyodor fedor
abraham abe abram
leo lev leon
benjamin ben
patrick pat paddy
susan sue
sergei sergey sergej
dmitri dmitry dmitrij
yuri yury yurii
alexei alexey aleksei
""".strip().splitlines()
_SAME: dict[str, frozenset[str]] = {}
for _line in _GROUPS:
    _names = frozenset(_line.split())
    for _name in _names:
        _SAME[_name] = _SAME.get(_name, frozenset()) | _names

_SHORT_FORM = 3  # letters a short form that begins the full name must have ("Rafa", "Tim", not "Jo")
# Patronymics, a father's name and never a namesake's: Russian ("Afanasyevich", "Ilyinichna"),
# old Dutch ("Harmenszoon") and Icelandic ("Magnusdottir").
_PATRONYMIC = re.compile(r"\w{3,}(?:ovich|evich|ich|ovna|evna|ichna|inichna|zoon|dottir)$")


def same_given_name(answer_name: str, gold_name: str) -> bool:
    """Two normalised given names that can name one person ("bob"/"robert", "rafa"/"rafael")."""
    if answer_name == gold_name:
        return True
    if gold_name in _SAME.get(answer_name, frozenset()):
        return True
    shorter, longer = sorted((answer_name, gold_name), key=len)
    return len(shorter) >= _SHORT_FORM and longer.startswith(shorter)


def is_patronymic(name: str) -> bool:
    """A normalised middle name that is a patronymic ("afanasyevich")."""
    return bool(_PATRONYMIC.fullmatch(name))


__all__ = ["is_patronymic", "same_given_name"]
