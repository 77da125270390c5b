"""What a row of docs/benchmarks.md's "Reproducing the papers" tables asks to run and to find: its
`factprobe` commands with the placeholders filled in, the output keys and files it names, and the
lookup of a key such as `per_category.vanilla.<category>` or `bins[]` in a JSON document."""

from __future__ import annotations

import re
import shlex
from typing import Any

from tests.test_readme_reproducing import CODE, commands, rows

OUTPUT_FILE = re.compile(r"^[\w./-]+\.(png|csv|tsv|html)$")
KEY = re.compile(r"^\.?[a-z][\w<>|\\.\[\]@+-]*$")


def benchmark_rows() -> list[tuple[str, str, str]]:
    """(id, status, detail) of every row, in the order of the tables."""
    return [(name, status, detail) for name, _, status, detail in rows()]


def first_run_command(prefix: str) -> str:
    """The benchmark's first command writing `runs/m1`: the one the placeholders' runs/m1 … runs/m5 come from."""
    for name, _, detail in benchmark_rows():
        if name.startswith(prefix) and name[len(prefix):].isdigit():
            for command in commands(detail):
                if command.startswith("factprobe run ") and "--out runs/m1" in command:
                    return command
    raise AssertionError(f"no `--out runs/m1` command in the {prefix} rows")


def argv_of(command: str, url: str, model: str = "model-a", gguf: str = "MODEL.gguf") -> list[str]:
    """The command's arguments as printed, with `@URL` the local server, `MODEL` `model`, `MODEL.gguf`
    `gguf` and `DIR` the benchmark's media folder (`media`, beside the dataset files in the working folder)."""
    argv = []
    for token in shlex.split(command)[1:]:
        token = token.replace("@URL", f"@{url}").replace("openai:MODEL@", f"openai:{model}@")
        token = token.replace("local:MODEL.gguf", f"local:{gguf}")
        argv.append("media" if token == "DIR" else token.replace(":DIR", ":media"))
    return argv


def named_keys(detail: str) -> list[str]:
    """The output keys the row names: its code spans shaped like `a.b.<c>` or a bare `name`, besides
    commands, flags, file names and `{placeholders}`."""
    spans = [span for span in CODE.findall(detail) if not span.startswith("factprobe ")]
    return [span.replace("\\|", "|") for span in spans
            if KEY.match(span) and not OUTPUT_FILE.match(span) and "." in span or span.isidentifier() and span.islower()]


def written_paths(argv: list[str]) -> list[str]:
    """What a command other than `run` and `sweep` says it writes: `--out`, `--html` and `--plot`'s paths."""
    if argv[0] in ("run", "sweep"):
        return []
    return [argv[index + 1] for index, token in enumerate(argv[:-1]) if token in ("--out", "--html", "--plot")]


def named_files(detail: str) -> list[str]:
    """The figures and tables the row says come out (`cmp_files/x.png`, `sweep.csv`, `tiers.tsv`)."""
    return [span for span in CODE.findall(detail) if OUTPUT_FILE.match(span)]


def segments(key: str) -> list[str]:
    return [part for part in re.split(r"\.(?![^<]*>)", key) if part]


def resolve(node: Any, parts: list[str]) -> bool:
    """Whether `parts` lead somewhere in `node`: `<x>` is any key (or one of `<a|b>`), `name[]` a list
    whose first item the rest must fit."""
    if not parts:
        return True
    head, rest = parts[0], parts[1:]
    listed = head.endswith("[]")
    head = head.removesuffix("[]")
    if not isinstance(node, dict):
        return False
    if head.startswith("<") and head.endswith(">"):
        choices = head[1:-1].split("|")
        keys = [key for key in node if len(choices) == 1 or key in choices]
    else:
        keys = [head] if head in node else []
    for key in keys:
        value = node[key]
        if listed:
            if isinstance(value, list) and (not rest or any(resolve(item, rest) for item in value)):
                return True
        elif resolve(value, rest):
            return True
    return False


def missing_keys(keys: list[str], documents: list[Any]) -> list[str]:
    """The keys found in none of the documents, each read from the top or, as the rows write sibling
    keys (`strategies.<s>.accuracy`, `cga`), below a prefix of a key named before it."""
    missing, prefixes = [], [[]]
    for key in keys:
        parts = segments(key)
        if not any(resolve(doc, prefix + parts) for doc in documents for prefix in prefixes):
            missing.append(key)
        prefixes += [parts[:cut] for cut in range(1, len(parts) + 1)]
    return missing

