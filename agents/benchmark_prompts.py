"""Answer prompts as the five benchmarks ask (our own wording of each paper's instruction), a
user's exact prompt text, and the replies they ask for.

An answer prompt is a system text, a user template and a reply format. The template's named
placeholders, written `{name}`, are filled per question; any other brace is kept as written (a
JSON example stays intact):
- `{question}`: the question text alone;
- `{options}`: the lettered options, one `A. text` line each (empty for open questions);
- `{letters}`: the option letters, e.g. `A, B, C or D`;
- `{passages}`: retrieved passages (empty without retrieval).
A preset's system text may have a Chinese version, used for questions whose `language` field is
`zh` (WorldVQA). A template without `{options}` gets the options after its text when the question has choices, and
one without `{passages}` gets the passages before it, so no input is silently left out.

A prompt may letter its options in lower case (`letter_case` "lower": MMWorld's release letters
them a, b, c, d, and its preset shows them so); replies are read in either case.

Reply formats: `lines` ("Answer: …" and "Confidence: …%", read by factprobe.agents.parsing),
`json` (Video SimpleQA: an object with `answer` and `confidence_score`, read from the first `{` to
the last `}`; a reply without one is read as `lines`), `free` (the whole reply is the answer,
a "Confidence: N%" line read and removed; WorldVQA's detailed answers).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import orjson

from factprobe.agents.choices import DEFAULT_OPTION_ORDER, REFUSAL_OPTION, ShownChoices, shown_choices
from factprobe.agents.parsing import parse_answer, parse_confidence
from factprobe.eval.core.schema import Question

PLACEHOLDERS = ("question", "options", "letters", "passages")
PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
REPLY_FORMATS = ("lines", "json", "free")
CONFIDENCE_LINE = re.compile(r"^\s*\**\s*confidence\b.*$", re.IGNORECASE | re.MULTILINE)

REFUSAL_CHOICE = f"If you do not know the answer, choose the option \"{REFUSAL_OPTION}\"."
REFUSAL_OPEN = f"If you do not know the answer, reply \"{REFUSAL_OPTION}\" as your answer."

# name -> (system, user template, reply format); the wording is ours, the reply shapes the papers'.
BENCHMARK_PROMPTS: dict[str, tuple[str, str, str]] = {
    "videosimpleqa": (
        "You will be asked a question about a video. Give a short, specific answer "
        "without explaining how you got it, and say how confident you are, from 0 to 100, that it "
        "is correct. Reply with one JSON object and nothing else: "
        '{"answer": "<short answer>", "confidence_score": <0 to 100>}',
        "Question: {question}", "json"),
    "worldvqa": (
        "Answer the question about the image. Be as detailed as you can: name the most specific "
        "entity you recognise. End your reply with one line \"Confidence: N%\", N from 0 to 100 "
        "being how sure you are that the answer is correct.",
        "{question}", "free"),
    "mmsap": (
        "Look at the image and answer the multiple-choice question by choosing one option.",
        "{question}\n{options}\nReply with the letter of the option you choose.", "lines"),
    "mmworld": (
        "Answer the question about the video by choosing one of the options.",
        "{question}\n{options}\nReply with a single letter ({letters}) only.", "lines"),
    "worldsense": (
        "Attend closely to every detail of the video, and choose the option that best answers "
        "the question.",
        "Question: {question}\n{options}\nReply with only the letter ({letters}) of the best option.", "lines"),
}


# Benchmarks whose release letters the options in lower case (a–d), as their prompts show them.
LOWER_CASE_LETTERS = frozenset({"mmworld"})

# WorldVQA asks its Chinese questions with a Chinese instruction (the `language` field `zh`).
SYSTEM_ZH = {
    "worldvqa": "请回答关于这张图片的问题，尽量详细：说出你能认出的最具体的名称。回答的最后一行写"
                "“Confidence: N%”，N 为 0 到 100，表示你对答案正确的把握。",
}


class PromptTemplateError(ValueError):
    """A prompt template with a placeholder that names nothing."""


def unknown_placeholders(template: str) -> list[str]:
    return sorted({name for name in PLACEHOLDER.findall(template) if name not in PLACEHOLDERS})


def check_template(template: str, source: str) -> None:
    unknown = unknown_placeholders(template)
    if unknown:
        raise PromptTemplateError(f"{source}: unknown placeholder {{{unknown[0]}}}; the named placeholders "
                                  f"are {', '.join('{' + name + '}' for name in PLACEHOLDERS)}")


def passages_text(passages: list[dict] | None) -> str:
    lines = []
    for number, passage in enumerate(reversed(passages or []), start=1):
        title = f" ({passage['title']})" if passage.get("title") else ""
        lines.append(f"[{number}]{title} {passage['text']}")
    return "\n".join(lines)


def shown_letters(shown: ShownChoices, letter_case: str = "upper") -> list[str]:
    """The option letters as the prompt shows them (`letter_case` "lower": a, b, …)."""
    return [letter.lower() if letter_case == "lower" else letter for letter in shown.letters]


def letters_text(shown: ShownChoices | None, letter_case: str = "upper") -> str:
    letters = shown_letters(shown, letter_case) if shown else []
    return ", ".join(letters[:-1]) + f" or {letters[-1]}" if len(letters) > 1 else "".join(letters)


def fill(template: str, values: Mapping[str, str]) -> str:
    return PLACEHOLDER.sub(lambda m: values.get(m.group(1), m.group(0)), template)


def benchmark_messages(prompt: Mapping[str, Any], question: Question, repeat: int, seed: int,
                       offers_refusal: bool = False, passages: list[dict] | None = None,
                       option_order: str = DEFAULT_OPTION_ORDER,
                       refusal_instruction: bool = True) -> list[dict[str, str]]:
    """The system turn and the filled user turn of `prompt` ({system, user, reply_format}), the
    options in `option_order` (factprobe.agents.choices); with `offers_refusal`, the refusal option
    is listed and (unless `refusal_instruction` is off) a line says when to choose it."""
    shown = shown_choices(question, repeat, seed, offers_refusal, option_order) if question.choices else None
    case = str(prompt.get("letter_case") or "upper")
    options = "\n".join(f"{letter}. {text}" for letter, text in zip(shown_letters(shown, case), shown.options)) \
        if shown else ""
    template: str = prompt["user"]
    used = set(PLACEHOLDER.findall(template))
    text = fill(template, {"question": question.question, "options": options, "letters": letters_text(shown, case),
                           "passages": passages_text(passages)})
    if options and "options" not in used:
        text = f"{text}\n{options}"
    if passages and "passages" not in used:
        text = f"Use these passages if they help:\n{passages_text(passages)}\n\n{text}"
    if offers_refusal and refusal_instruction:
        text = f"{text}\n{REFUSAL_CHOICE if shown else REFUSAL_OPEN}"
    system = prompt.get("system_zh") if question.fields.get("language") == "zh" else None
    system = system or prompt.get("system")
    messages = [{"role": "system", "content": system}] if system else []
    return [*messages, {"role": "user", "content": text}]


def json_reply(text: str) -> tuple[str | None, float | None] | None:
    """`answer` and `confidence_score` of the JSON object in a reply; None when there is none."""
    start, end = text.find("{"), text.rfind("}")
    if start < 0 or end <= start:
        return None
    try:
        value = orjson.loads(text[start:end + 1])
    except orjson.JSONDecodeError:
        return None
    if not isinstance(value, dict) or "answer" not in value:
        return None
    answer = value["answer"]
    answer = None if answer is None else str(answer).strip() or None
    score = value.get("confidence_score")
    confidence = None
    if isinstance(score, (int, float, str)) and not isinstance(score, bool):
        confidence = parse_confidence(f"Confidence: {score}")
    return answer, confidence


def parse_reply(text: str, reply_format: str) -> tuple[str | None, float | None, str]:
    """The answer and confidence of a reply in `reply_format`, and how it was read (`json`,
    `lines` or `free`: a json reply without a JSON object is read as lines)."""
    if reply_format == "json":
        parsed = json_reply(text)
        if parsed is not None:
            return parsed[0], parsed[1], "json"
        reply_format = "lines"
    if reply_format == "free":
        answer = CONFIDENCE_LINE.sub("", text).strip()
        return answer or None, parse_confidence(text), "free"
    return parse_answer(text), parse_confidence(text), "lines"

