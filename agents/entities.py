"""From a question to retrieval queries: the question's key entities (docs/protocols.md §3, step 1).

The model is asked to list the entities; a listed entity is kept only when every content word of
it occurs in the question: a small model tends to answer instead ("The capital of France is
Paris"), and a guessed answer would steer retrieval towards itself. When the reply yields nothing
usable, or with the strategy option `entities: rules`, a deterministic rule takes quoted titles
and capitalised spans. `build_queries` turns question and entities into queries.

With the entity source `media` (`--entity-source media`, Video SimpleQA's RAG: the entities are
read off the video and the question), the request asks for the entities of the question and of
the attached images or frames; when the run did attach images to that request, a listed entity is
kept even if the question does not name it (a species or place the frames show). A request that
went without images (a text setting, an item without media) is read as with the source `question`.

`--entity-model MODEL` names the entities with that model for every model under test (Video
SimpleQA had one multimodal model extract them for all); its calls count in the strategy's costs,
as the paper's total inference time counts them.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from factprobe.agents.context import StrategyContext
from factprobe.agents.models.wire import IMAGES_SENT
from factprobe.agents.nodes import ask_completion
from factprobe.eval.core.errors import StrategyOptionError

ENTITY_PROMPT_VERSION = "1"
MAX_ENTITIES = 3
ENTITY_STOP = ("\n\n", "Question:")  # a list ends at a blank line; small models then echo the prompt

ENTITY_SYSTEM = "You pick out search keywords. You never answer questions."
ENTITY_USER = (
    "List the key entities of this question (names of people, places, works, organisations, "
    "events or other key terms), one per line, at most {limit}. Do not answer the question.\n\n"
    "Question: {question}\nEntities:"
)
ENTITY_MEDIA_USER = (
    "List the key entities of this question and of the attached images (names of people, places, "
    "species, works, organisations, events or other key terms a search would need), one per line, at "
    "most {limit}. Name what the images show when the question refers to it. Do not answer the "
    "question.\n\nQuestion: {question}\nEntities:"
)

# Capitalised words that start questions rather than name things.
QUESTION_WORDS = {
    "what", "which", "who", "whom", "whose", "when", "where", "why", "how", "in", "on", "at", "the",
    "a", "an", "of", "for", "from", "to", "by", "is", "was", "are", "were", "did", "do", "does",
    "name", "according", "during", "after", "before", "as", "if", "this", "that", "these", "those",
    "i", "it", "its", "there", "can", "could", "would", "should", "has", "have", "had", "into",
    "across", "onto", "under", "over", "between", "among", "with", "within", "near", "since",
}
# Lower-case words allowed inside a capitalised span ("Bay of Biscay", "Gorillas in the Mist").
CONNECTORS = ("of", "the", "de", "da", "di", "del", "von", "van", "der", "du", "la", "le", "and",
              "in", "on", "at", "for", "upon", "y")
STOPWORDS = QUESTION_WORDS | set(CONNECTORS) | {"about", "than", "then", "or", "not"}

_QUOTED = re.compile(r"(?<![\w])['‘\"“]([^'’\"”]{2,80}?)['’\"”](?![\w])")
_CAPITALISED = r"[A-Z][\w'’.-]*"
_SPAN = re.compile(rf"{_CAPITALISED}(?:\s+(?:(?:{'|'.join(CONNECTORS)})\s+)*{_CAPITALISED})*")
_WORD = re.compile(r"[\w][\w'’.-]*")
_BULLET = re.compile(r"^\s*(?:[-*•]+|\d+[.)]|entities\s*:|keywords\s*:)\s*", re.IGNORECASE)


def _clean(span: str) -> str:
    span = re.sub(r"['’]s$", "", span.strip())
    return span.strip(" .,;:!?\"'‘’“”()[]")


def rule_entities(question: str, limit: int = MAX_ENTITIES) -> list[str]:
    """Quoted titles first, then capitalised spans (which may join words with "of", "the", "in", …),
    leading question words ("Which", "In", "Across the") removed."""
    found = [_clean(m.group(1)) for m in _QUOTED.finditer(question)]
    for match in _SPAN.finditer(_QUOTED.sub(" | ", question)):
        words = match.group(0).split()
        while words and words[0].lower() in QUESTION_WORDS:
            words.pop(0)
        if words:
            found.append(_clean(" ".join(words)))
    return _dedupe([entity for entity in found if entity], limit)


def _dedupe(entities: list[str], limit: int) -> list[str]:
    kept: list[str] = []
    for entity in entities:
        lower = entity.lower()
        if any(lower == k.lower() or lower in k.lower() for k in kept):
            continue
        kept.append(entity)
    return kept[:limit]


def _stem(word: str) -> str:
    return word[:-1] if word.endswith("s") and len(word) > 3 else word


def _content_words(text: str) -> set[str]:
    words = {w.lower().strip("'’.-") for w in _WORD.findall(text)} - STOPWORDS
    return {_stem(w) for w in words if w}


def parse_entities(reply: str, question: str, limit: int = MAX_ENTITIES, seen_in_media: bool = False) -> list[str]:
    """Entities from a model reply: one per line (or comma-separated), at most eight words each,
    every content word of which occurs in the question (any, when the model was `seen_in_media`:
    shown the question's images); the question itself is skipped."""
    question_words = _content_words(question)
    lines = [line for line in reply.splitlines() if line.strip()]
    if len(lines) == 1 and "," in lines[0]:
        lines = lines[0].split(",")
    entities: list[str] = []
    for line in lines:
        if re.match(r"^\s*(answer|question|confidence)\s*:", line, re.IGNORECASE):
            continue
        entity = _clean(_BULLET.sub("", line))
        words = _content_words(entity)
        if not words or len(entity.split()) > 8 or entity.lower() == question.strip().lower():
            continue
        if seen_in_media or words <= question_words:
            entities.append(entity)
    return _dedupe(entities, limit)


def build_queries(question: str, entities: list[str], combine: bool = True) -> list[str]:
    """Retrieval queries for a question and its entities.

    `combine` (local corpora): one BM25 query, the question followed by its entities, which weighs
    the entities' words double. Measured recall@3 with rule entities (sample / HotpotQA / MuSiQue
    slices): 0.669 / 0.841 / 0.500, against 0.667 / 0.826 / 0.442 for the question alone and
    0.635 / 0.848 / 0.483 for separate queries fused by reciprocal rank.
    Otherwise (search engines, which want short queries): the question, then each entity as its
    own query, fused by reciprocal rank downstream.
    """
    question = question.strip()
    if combine:
        return [" ".join([question, *entities])]
    queries: list[str] = []
    for query in (question, *entities):
        if query and query.lower() not in {q.lower() for q in queries}:
            queries.append(query)
    return queries


def entity_context(context: StrategyContext) -> StrategyContext:
    """The context whose model names the entities: `--entity-model`'s (the run loads it into
    `resources.entity_model`), else the model under test."""
    spec = context.options.get("entity_model")
    if not spec:
        return context
    model = context.resources.entity_model
    if model is None:
        raise StrategyOptionError(f"--entity-model {spec}: this strategy context has no such model; the run "
                                  "loads it into resources.entity_model")
    return replace(context, model=model)


async def extract_entities(context: StrategyContext, question: str, repeat: int, method: str = "model",
                           source: str = "question") -> tuple[list[str], str, dict[str, Any]]:
    """(entities, how they were found, state update with the model call) for `question`.

    `method` "model" asks the model and falls back to the rules when its reply holds no usable
    entity; "rules" never calls the model. `source` "media" asks for the entities of the attached
    images too and keeps them when images were sent (method "media"; see the module docstring).
    A failed model call is an error, not a fallback.
    """
    if method == "rules":
        return rule_entities(question), "rules", {"calls": [], "trace": []}
    if method != "model":
        raise ValueError(f"unknown entity extraction method {method!r}; use model or rules")
    if source not in ("question", "media"):
        raise ValueError(f"unknown entity source {source!r}; use question or media")
    template = ENTITY_MEDIA_USER if source == "media" else ENTITY_USER
    messages = [{"role": "system", "content": ENTITY_SYSTEM},
                {"role": "user", "content": template.format(limit=MAX_ENTITIES, question=question)}]
    asker = entity_context(context)
    params = replace(asker.params(repeat=repeat, max_tokens=40), stop=ENTITY_STOP)
    completion, update = await ask_completion(asker, messages, "extract_entities", params)
    seen = source == "media" and bool(completion.extra.get(IMAGES_SENT))
    entities = parse_entities(completion.text, question, seen_in_media=seen)
    if entities:
        return entities, "media" if seen else "model", update
    return rule_entities(question), "rules_fallback", update
