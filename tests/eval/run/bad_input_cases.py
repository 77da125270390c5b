"""Bad-input cases generated systematically, for tests/eval/run/test_bad_input.py: every run option × the
values its type and range refuse, every dataset loader × damaged files, every field of a
results.jsonl row × a wrong value, and damaged manifests, grading-case files and sweep files.

Each case is (name, argv builder, message fragments); the builder gets the test's `Place` (its
folder and the fault server's URL) and writes whatever file the case needs.
"""

from __future__ import annotations

import json
import types
import typing
from typing import Any, Callable

from annotated_types import Ge, Gt, Le

from factprobe.eval.config.options import flag_of
from factprobe.eval.config.run_config import RunConfig

Case = tuple[str, Callable[[Any], list[str]], list[str]]
DEEP = "[" * 100_000 + "]" * 100_000
ROW = {"question_id": "q1", "strategy": "vanilla", "repeat": 0, "question": "Q?", "gold": "a",
       "category": "c", "grade": "CORRECT", "grader": "rules"}


def _bounds(name: str) -> tuple[float | None, float | None, bool]:
    """(lowest allowed, highest allowed, lowest is exclusive) of a numeric option."""
    low = high = None
    exclusive = False
    for item in RunConfig.model_fields[name].metadata:
        if isinstance(item, Ge):
            low = item.ge
        elif isinstance(item, Gt):
            low, exclusive = item.gt, True
        elif isinstance(item, Le):
            high = item.le
    return low, high, exclusive


def _kind(name: str) -> Any:
    annotation = RunConfig.model_fields[name].annotation
    args = [arg for arg in typing.get_args(annotation) if arg is not type(None)]
    optional = typing.get_origin(annotation) in (typing.Union, types.UnionType) and len(args) == 1
    return args[0] if optional else annotation


def numeric_values(name: str) -> list[str]:
    """Values a numeric option refuses: wrong type, and each side of its range."""
    kind = _kind(name)
    low, high, exclusive = _bounds(name)
    values = ["abc", ""]
    if kind is int:
        values += ["1.5", "1e3"]
        if low is not None:
            values.append(str(int(low) - (0 if exclusive else 1)))
        if high is not None:
            values.append(str(int(high) + 1))
    else:
        values += ["nan", "inf", "-inf"]
        if low is not None:
            values.append(str(low) if exclusive else str(low - 0.5))
        if high is not None:
            values.append(str(high * 2 + 1))
    return values


def option_cases() -> list[Case]:
    """Every int or float run option with each value it refuses: exit 2 naming the flag and value."""
    cases: list[Case] = []
    for name in RunConfig.model_fields:
        if _kind(name) not in (int, float):
            continue
        flag = flag_of(name)
        for value in numeric_values(name):
            fragments = [flag, value] if value else [flag]
            # `--flag=-inf`: argparse reads a separate `-inf` as a flag of its own
            argv = [f"{flag}={value}"] if value.startswith("-") else [flag, value]
            cases.append((f"option {flag}={value!r}", lambda p, a=argv: p.run(*a), fragments))
    return cases


def _literal_choices(name: str) -> list[str]:
    kind = _kind(name)
    inner = typing.get_args(kind)[0] if typing.get_origin(kind) is list else kind
    if typing.get_origin(inner) is typing.Literal:
        return [str(value) for value in typing.get_args(inner)]
    return [member.value for member in inner] if isinstance(inner, type) and hasattr(inner, "__members__") else []


def choice_cases() -> list[Case]:
    """Every option with a fixed set of values: an unknown one, a known one in capitals, an empty one."""
    cases: list[Case] = []
    for name in RunConfig.model_fields:
        choices = _literal_choices(name)
        if not choices:
            continue
        flag = flag_of(name)
        for value in ("bogus", choices[-1].upper(), ""):
            cases.append((f"choice {flag}={value!r}", lambda p, f=flag, v=value: p.run(f, v), [flag]))
    return cases


def text_option_cases() -> list[Case]:
    """Options holding names, specs or paths, each with values that name nothing usable."""
    table = [
        ("--dataset", "", ["--dataset"]), ("--dataset", "jsonl:", ["jsonl:"]),
        ("--dataset", "simpleqa", ["simpleqa"]), ("--model", "", ["--model"]),
        ("--model", "openai:", ["openai:"]), ("--model", "anthropic:", ["anthropic:"]),
        ("--model", "openai:m@", ["openai:m@"]), ("--model", "openai:m@http://a,", ["empty base URL"]),
        ("--judge", "gpt4", ["unknown model 'gpt4'"]), ("--judge", "openai:", ["openai:"]),
        ("--retriever", "", ["--retriever"]), ("--retriever", "bm26", ["bm26"]),
        ("--retriever", "bm25:", ["bm25:"]), ("--retriever", "wikipedia:/x", ["wikipedia:/x"]),
        ("--strategies", ",", ["--strategies"]), ("--strategies", "vanilla,,rag", ["--strategies"]),
        ("--strategies", "VANILLA", ["VANILLA"]), ("--strategies", "vanilla+rag+rag", ["vanilla+rag+rag"]),
        ("--baseline", "nosuch", ["nosuch"]), ("--confidence", "verbal,verbal", ["given more than once"]),
        ("--confidence", ",", ["--confidence"]), ("--plugin", "no_such_module_for_tests", ["no_such_module_for_tests"]),
        ("--modality", "text,text", ["given more than once"]), ("--out", "", ["--out", "must not be empty"]),
        ("--out", " ", ["--out", "must not be empty"]), ("--media", "", ["--media", "must not be empty"]),
        ("--hop-probes", "x", ["unrecognized arguments"]), ("--no-such-option", "1", ["unrecognized arguments"]),
    ]
    return [(f"text {flag}={value!r}", lambda p, f=flag, v=value: p.run(f, v), fragments)
            for flag, value, fragments in table]


LOADER_FILES = {"jsonl": "d.jsonl", "simpleqa": "d.csv", "musique": "d.jsonl", "hotpotqa": "d.jsonl",
                "2wiki": "d.jsonl", "selfaware": "d.json", "kuq": "d.jsonl", "fanoutqa": "d.json",
                "compceleb": "d.json", "videosimpleqa": "d.json", "mcq": "d.jsonl", "mmworld": "d.json",
                "worldsense": "d.json", "worldvqa": "d.tsv", "mmsap": "d.json"}
DAMAGE: dict[str, bytes] = {
    "empty": b"", "blank lines": b"\n \n\t\n", "not utf-8": b'{"id": "\xff\xfe"}\n',
    "binary": bytes(range(256)), "truncated": b'{"id": "q1", "question": "Wh',
    "deep": DEEP.encode(), "a number": b"42\n", "null": b"null\n", "empty object": b"{}\n",
    "list of numbers": b"[1, 2, 3]\n",
}


def loader_cases() -> list[Case]:
    """Every loader × every kind of damaged file, through `run`: exit 2 naming the file."""
    cases: list[Case] = []
    for loader, filename in LOADER_FILES.items():
        for damage, content in DAMAGE.items():
            fragments = [filename] + (["not UTF-8"] if damage == "not utf-8" else [])
            cases.append((f"loader {loader} {damage}",
                          lambda p, l=loader, f=filename, c=content: p.data_run(l, p.file(f, c)), fragments))
        cases.append((f"loader {loader} missing file",
                      lambda p, l=loader: p.data_run(l, p.tmp / "gone" / "d.x"), ["gone/d.x"]))
    return cases


BAD_FIELDS: list[tuple[str, Any]] = [
    ("question_id", None), ("question_id", 5), ("strategy", None), ("repeat", "first"), ("repeat", 1.5),
    ("question", None), ("gold", 5), ("category", None), ("answerable", "yes"), ("hop_count", "two"),
    ("confidence", 101), ("confidence", -1), ("confidence", "high"), ("confidences", {"verbal": 200}),
    ("confidences", [1]), ("grade", "correct"), ("grade", "WRONG"), ("grade", None), ("grader", None),
    ("latency_s", "fast"), ("prompt_tokens", 1.5), ("llm_calls", "x"), ("trace", "x"), ("hops", "x"),
    ("hops", [{"question": None, "gold": "a", "answer": "a"}]),
    ("hops", [{"question": "Q", "gold": "a", "answer": "a", "grade": "correct"}]),
    ("hops", [{"question": "Q", "gold": "a", "answer": "a", "confidence": 300}]),
    ("samples", "x"), ("retrieved_ids", [1]), ("answer", 42),
]
NON_FINITE = [("latency_s", "NaN"), ("confidence", "NaN"), ("judge_latency_s", "Infinity"),
              ("llm_latency_s", "-Infinity")]


def _row_line(field: str, value: Any) -> str:
    return json.dumps({**ROW, field: value})


def row_cases() -> list[Case]:
    """`factprobe report` on a row with each field wrong: the file, line and field named."""
    cases: list[Case] = []
    for field, value in BAD_FIELDS:
        line = _row_line(field, value)
        cases.append((f"row {field}={json.dumps(value)}",
                      lambda p, t=line: ["report", str(p.run_dir("{}", json.dumps(ROW) + "\n" + t + "\n"))],
                      ["results.jsonl, line 2", f"field `{field}"]))
    cases.append(("row without grade", lambda p: ["report", str(p.run_dir(
        "{}", json.dumps({k: v for k, v in ROW.items() if k != "grade"}) + "\n"))], ["line 1", "field `grade`"]))
    for field, literal in NON_FINITE:
        line = json.dumps(ROW)[:-1] + f', "{field}": {literal}}}'
        cases.append((f"row {field}={literal}", lambda p, t=line: ["report", str(p.run_dir("{}", t + "\n"))],
                      ["results.jsonl, line 1", f"field `{field}`", "finite"]))
    return cases


MANIFESTS = {"empty": "", "not json": "{nope", "a list": "[]", "null": "null", "a number": "7",
             "deep": DEEP, "no config": "{}", "config a list": '{"config": []}',
             "config bad value": '{"config": {"temperature": "hot"}}',
             "config unknown dataset": '{"config": {"dataset": "nosuch:x"}}'}


def manifest_cases() -> list[Case]:
    """`run --resume` on a damaged manifest.json: exit 2 naming it."""
    return [(f"resume manifest {name}", lambda p, t=text: ["run", "--resume", "--out", str(p.run_dir(t))],
             ["manifest.json" if name != "config unknown dataset" else "nosuch"]) for name, text in MANIFESTS.items()]


AUDIT_LINES = {
    "label lowercase": {"question": "Q?", "gold": "a", "answer": "a", "label": "correct"},
    "label unknown": {"question": "Q?", "gold": "a", "answer": "a", "label": "RIGHT"},
    "no label": {"question": "Q?", "gold": "a", "answer": "a"},
    "gold a number": {"question": "Q?", "gold": 5, "answer": "a", "label": "CORRECT"},
    "no question": {"gold": "a", "answer": "a", "label": "CORRECT"},
    "answer a list": {"question": "Q?", "gold": "a", "answer": ["a"], "label": "CORRECT"},
}


def audit_cases() -> list[Case]:
    """`audit-grader` on damaged grading-case files: the file and line named."""
    cases: list[Case] = [(f"audit {name}", lambda p, r=record: ["audit-grader", str(p.jsonl(r))],
                          ["data.jsonl, line 1"]) for name, record in AUDIT_LINES.items()]
    cases += [("audit not utf-8", lambda p: ["audit-grader", str(p.file("c.jsonl", b"\xff\n"))], ["c.jsonl"]),
              ("audit not json", lambda p: ["audit-grader", str(p.jsonl("{oops"))], ["data.jsonl, line 1"]),
              ("audit missing file", lambda p: ["audit-grader", str(p.tmp / "none.jsonl")], ["none.jsonl"]),
              ("audit empty file", lambda p: ["audit-grader", str(p.file("e.jsonl", ""))], ["e.jsonl"])]
    return cases


SWEEPS = {"not toml": ("[sweep\n", "not valid TOML"), "no table": ("x = 1\n", "[sweep]"),
          "unknown option": ("[sweep]\nsampels = [1, 2]\n", "sampels"),
          "value out of range": ("[sweep]\nsamples = [0, 2]\n", "samples"),
          "cell limit not a number": ("[sweep]\nmax_cells = 'many'\nseed = [1, 2]\n", "max_cells"),
          "not utf-8": (b"[sweep]\nseed = '\xff'\n", "cannot be read"),
          "unknown strategy": ("[sweep]\nstrategies = [['nosuch']]\n", "nosuch")}


def sweep_cases() -> list[Case]:
    """`sweep` on damaged grid files: exit 2 naming the file or option."""
    return [(f"sweep {name}", lambda p, t=text: ["sweep", str(p.file("g.toml", t)), "--out", str(p.tmp / "s")],
             [fragment]) for name, (text, fragment) in SWEEPS.items()]


def generated_cases() -> list[Case]:
    return [*option_cases(), *choice_cases(), *text_option_cases(), *loader_cases(), *row_cases(),
            *manifest_cases(), *audit_cases(), *sweep_cases()]
