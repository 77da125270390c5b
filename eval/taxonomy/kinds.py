"""The kinds of error a taxonomy sorts answers into: presets per benchmark, or a kinds file.

A kind set is the list of kinds the judge may name, each with a description the judge reads. Every
set also counts `refusal`: NOT_ATTEMPTED rows are refusals by their grade and are put there without
asking the judge; a set whose paper has no refusal kind (WorldSense) gets it added for those rows
only, and the judge is not offered it.

Presets (`--preset`), their kinds after the papers' error figures, described in our own words:
`default` (factprobe's five kinds), `videosimpleqa` (Video SimpleQA's error-type figure),
`mmworld` (MMWorld's error analysis) and `worldsense` (WorldSense's error analysis).

A kinds file (`--kinds FILE`) holds one kind a line, `name: description`; blank lines and lines
starting with `#` are skipped. A name is lower-case letters and underscores.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from factprobe.eval.core.errors import DatasetError

REFUSAL = "refusal"
UNCLASSIFIED = "unclassified"
PENDING = "pending"
RESERVED = (UNCLASSIFIED, PENDING)
NAME = re.compile(r"^[a-z][a-z_]*$")


@dataclass(frozen=True)
class Kind:
    name: str
    description: str

    @property
    def label(self) -> str:
        return self.name.replace("_", " ")


@dataclass(frozen=True)
class KindSet:
    """`name`: the preset's name, or the kinds file's name and content hash (entries of an edited
    file are not mixed with the old ones). `offered`: the kinds the judge may name."""

    name: str
    offered: tuple[Kind, ...]

    @property
    def offered_names(self) -> tuple[str, ...]:
        return tuple(kind.name for kind in self.offered)

    @property
    def counted(self) -> tuple[str, ...]:
        """Every kind the summary counts: the offered ones, and `refusal` for NOT_ATTEMPTED rows."""
        names = self.offered_names
        return names if REFUSAL in names else (*names, REFUSAL)


def _kinds(*pairs: tuple[str, str]) -> tuple[Kind, ...]:
    return tuple(Kind(name, description) for name, description in pairs)


_REFUSAL_TEXT = "the model declined or deflected instead of answering."

PRESETS: dict[str, KindSet] = {
    "default": KindSet("default", _kinds(
        ("perception", "the question depends on an image, a video or another input the model had to "
                       "look at, and the answer misreads that input or was given without it."),
        ("knowledge", "the model does not know, or misremembers, the fact that is asked for."),
        ("reasoning", "the model had what it needed but combined it wrongly (a wrong step in a chain of "
                      "facts, a calculation, a comparison, an order of dates)."),
        (REFUSAL, _REFUSAL_TEXT),
        ("format", "the reply does not answer in the requested form (no answer, several answers, an "
                   "option that was not offered, a reply cut off)."))),
    "videosimpleqa": KindSet("videosimpleqa", _kinds(
        ("perception", "the model misread what the video shows (wrong object, person, action, text "
                       "or moment), so the fact it names is about something else."),
        ("knowledge", "the model saw the right thing but lacks or misremembers the fact about it."),
        (REFUSAL, _REFUSAL_TEXT),
        ("ignored_instructions", "the reply does not do what the prompt asked: another format, several "
                                 "candidates, a description instead of the asked fact, a reply cut off."))),
    "mmworld": KindSet("mmworld", _kinds(
        ("question_understanding", "the model misread the question itself and answered a different one."),
        ("audio_understanding", "the answer turns on what is heard in the video (speech, music, sounds) "
                                "and the model got that wrong."),
        ("visual_perception", "the model misread what is seen in the video (objects, actions, counts, "
                              "order of events)."),
        ("hallucination", "the answer rests on content that is not in the video or the question at all."),
        ("reasoning", "the model perceived the needed content but drew a wrong conclusion from it."),
        ("domain_knowledge", "the question needs expert or domain knowledge the model lacks or misapplies."),
        (REFUSAL, "the model would not answer, or said it cannot tell."))),
    "worldsense": KindSet("worldsense", _kinds(
        ("audio_understanding", "the model missed or misheard the sound track (speech, music, sound "
                                "events) that the answer depends on."),
        ("visual_understanding", "the model misread what the frames show."),
        ("reasoning", "the model perceived the sound and the picture but combined them into a wrong "
                      "conclusion."))),
}
DEFAULT_PRESET = "default"


def preset(name: str) -> KindSet:
    """The kind set of a `--preset` name."""
    return PRESETS[name]


def read_kinds_file(path: Path) -> KindSet:
    """The kinds of `path` (`name: description` a line); DatasetError naming the line and field."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise DatasetError(f"--kinds {path}: cannot be read ({exc})") from None
    kinds: list[Kind] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        name, colon, description = (part.strip() for part in line.partition(":"))
        where = f"{path}, line {number}"
        if not colon or not description:
            raise DatasetError(f"{where}: expected `name: description`, e.g. `perception: the model "
                               f"misread the picture`")
        if not NAME.match(name):
            raise DatasetError(f"{where}: kind name {name!r} must be lower-case letters and underscores")
        if name in RESERVED:
            raise DatasetError(f"{where}: kind name {name!r} is reserved (it counts rows the judge "
                               f"did not classify)")
        if any(kind.name == name for kind in kinds):
            raise DatasetError(f"{where}: kind {name!r} is listed twice")
        kinds.append(Kind(name, description))
    if len(kinds) < 2:
        raise DatasetError(f"--kinds {path}: lists {len(kinds)} kinds; a taxonomy needs at least two")
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]
    return KindSet(f"{path.name}@{digest}", tuple(kinds))
