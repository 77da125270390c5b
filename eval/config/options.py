"""`factprobe run` flags, derived from the fields of RunConfig (the one definition of each option).

Flags default to SUPPRESS, so --resume can tell what the user actually typed; `--help` still
shows each option's default, taken from the field.
"""

from __future__ import annotations

import argparse
import math
import typing
from enum import Enum
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from factprobe.eval.config.run_config import RunConfig
from factprobe.eval.core.errors import plain_words
from factprobe.eval.core.suggest import did_you_mean


def comma_list(text: str) -> list[str]:
    return [part.strip() for part in text.split(",")]


def path_arg(text: str) -> Path:
    """A path option's value; an empty one (which would mean the current directory) is refused."""
    if not text.strip():
        raise argparse.ArgumentTypeError("must not be empty (an empty path would mean the current "
                                         "directory); name a file or folder")
    return Path(text)


def flag_of(name: str) -> str:
    return RunConfig.option_meta(name).get("flag") or "--" + name.replace("_", "-")


def _base_type(annotation: Any) -> Any:
    """`int | None` -> int; Literal/Enum/list kept as they are."""
    if typing.get_origin(annotation) in (typing.Union, getattr(__import__("types"), "UnionType", None)):
        args = [arg for arg in typing.get_args(annotation) if arg is not type(None)]
        return args[0] if len(args) == 1 else str
    return annotation


def _default_text(name: str) -> str:
    default = RunConfig.model_fields[name].get_default(call_default_factory=True)
    if isinstance(default, Enum):
        default = default.value
    if isinstance(default, list):
        default = ",".join(default) or "none"
    return "unset" if default is None else str(default)


def member_of(kind: type[Enum]) -> Any:
    """The flag's parser: a value names its member; another is refused naming the values (not the class)."""
    def parse(text: str) -> Any:
        values = [str(member.value) for member in kind]
        if text not in values:
            raise argparse.ArgumentTypeError(f"{text!r} is not one of {', '.join(values)}{did_you_mean(text, values)}")
        return kind(text)

    return parse


# `factprobe run --help` in sections, each option in one (a field missing here is listed under OTHER)
HELP_SECTIONS: dict[str, tuple[str, ...]] = {
    "what to run": ("dataset", "preset", "strategies", "model", "limit", "only_ids", "exclude_ids", "repeats",
                    "seed", "answers", "plugins", "out"),
    "answering": ("temperature", "max_tokens", "prompt_file", "reply_format", "option_order", "confidence"),
    "strategy options": ("samples", "sample_temperature", "selector", "rounds", "retriever", "top_k",
                         "entity_source", "entity_model", "decomposer", "consistency_samples", "hop_probes"),
    "grading": ("judge", "grader", "judge_prompt", "judge_prompt_file", "judge_labels", "judge_media", "hedging",
                "choice_grading", "baseline"),
    "images, video and audio": ("media", "media_root", "modality", "frames", "frame_sampling", "frame_size",
                                "audio_seconds"),
    "tables": ("group_by", "where", "verbose"),
    "speed, limits and resuming": ("concurrency", "threads", "workers", "executor", "ray_address", "shard",
                                   "use_cache", "request_timeout", "max_retries", "max_jobs", "max_error_rate",
                                   "max_undecided_rate"),
}
OTHER = "other options"


def help_sections(parser: argparse.ArgumentParser) -> dict[str, Any]:
    """An argument group of `parser` per HELP_SECTIONS entry, by option name (OTHER for the rest)."""
    groups = {title: parser.add_argument_group(title) for title in HELP_SECTIONS}
    by_name = {name: groups[title] for title, names in HELP_SECTIONS.items() for name in names}
    missing = [name for name in RunConfig.option_names() if name not in by_name]
    if missing:
        other = parser.add_argument_group(OTHER)
        by_name.update(dict.fromkeys(missing, other))
    return by_name


def add_run_options(parser: argparse.ArgumentParser, names: list[str] | None = None) -> None:
    """One flag per RunConfig field (only those in `names` when given, and then no --resume); all of
    them (`factprobe run`) in the sections of HELP_SECTIONS."""
    sections = help_sections(parser) if names is None else {}
    every = RunConfig.option_names()
    ordered = [name for name in sections if name in every] if names is None else [n for n in every if n in names]
    for name in ordered:
        target: Any = sections.get(name, parser)
        field = RunConfig.model_fields[name]
        flag, kind = flag_of(name), _base_type(field.annotation)
        help_text = f"{field.description} (default: {_default_text(name)})"
        if kind is bool and field.default is False:
            target.add_argument(flag, dest=name, action="store_true", default=argparse.SUPPRESS,
                                help=field.description)
        elif kind is bool:
            # a default-true switch is turned off by its --no-… flag: its help says what it turns off
            target.add_argument(flag, dest=name, action="store_false", default=argparse.SUPPRESS,
                                help=f"turn off what is on by default: {field.description}")
        elif typing.get_origin(kind) is list:
            target.add_argument(flag, dest=name, type=comma_list, default=argparse.SUPPRESS, help=help_text)
        elif typing.get_origin(kind) is typing.Literal:
            # checked by RunConfig, so a wrong value gets the same one-paragraph error as a range
            choices = " | ".join(map(str, typing.get_args(kind)))
            target.add_argument(flag, dest=name, default=argparse.SUPPRESS, metavar="{" + choices + "}",
                                help=help_text)
        elif isinstance(kind, type) and issubclass(kind, Enum):
            target.add_argument(flag, dest=name, type=member_of(kind), default=argparse.SUPPRESS,
                                metavar="{" + " | ".join(str(member.value) for member in kind) + "}",
                                help=help_text)
        else:
            kind = path_arg if kind is Path else kind if kind in (int, float) else str
            target.add_argument(flag, dest=name, type=kind, default=argparse.SUPPRESS, help=help_text)
    if names is None:
        sections["use_cache"].add_argument("--resume", action="store_true", help="continue the run in --out")


def explicit_options(args: argparse.Namespace) -> dict[str, Any]:
    """The run options the user typed (argparse leaves the others out)."""
    return {key: value for key, value in vars(args).items() if key in RunConfig.model_fields}


class OptionError(ValueError):
    """An option out of its range or of the wrong type; the message names the flag."""


def checked_options(options: dict[str, Any]) -> dict[str, Any]:
    """`options` (some run options) checked as RunConfig checks them, as JSON values; OptionError
    naming the flag otherwise."""
    try:
        config = RunConfig.model_validate(options)
    except ValidationError as exc:
        raise OptionError(validation_message(exc)) from None
    return config.model_dump(mode="json", include=set(options))


def validation_message(exc: ValidationError, source: str = "") -> str:
    """One line per problem, naming the flag (or the key in `source`) and the value."""
    parts = []
    for problem in exc.errors():
        if not problem["loc"]:         # a check of several options: its message names them
            parts.append(plain_words(problem["msg"]))
            continue
        name = str(problem["loc"][0])
        if problem["type"] == "extra_forbidden":
            where = f"{source}: key " if source else ""
            parts.append(f"{where}{name!r} is not a run option{did_you_mean(name, RunConfig.model_fields)}")
            continue
        where = f"{source} key {name!r}" if source else (flag_of(name) if name in RunConfig.model_fields else name)
        value = problem.get("input")
        value = str(value) if isinstance(value, Path) else value
        parts.append(f"{where} = {value!r}: {problem_words(name, problem, value)}")
    return "; ".join(parts)


def _choices(name: str) -> list[str]:
    """The values a Literal option (or a list of them) may take; [] for any other option."""
    kind: Any = _base_type(RunConfig.model_fields[name].annotation) if name in RunConfig.model_fields else None
    if typing.get_origin(kind) is list:
        kind = typing.get_args(kind)[0]
    return [str(choice) for choice in typing.get_args(kind)] if typing.get_origin(kind) is typing.Literal else []


def problem_words(name: str, problem: Any, value: Any) -> str:
    """What is wrong with one value, in plain words, with the closest allowed value when one is close."""
    if isinstance(value, float) and not math.isfinite(value):
        return "must be a finite number"
    words = plain_words(problem["msg"])
    if problem["type"] == "literal_error" and isinstance(value, str):
        words += did_you_mean(value, _choices(name))
    return words
