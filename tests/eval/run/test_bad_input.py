"""Bad input, caught at the door: every case exits 2 with one message naming the flag, or the
file, line and field, and never a traceback. Each case goes through the CLI's `main`.

Data-file cases write the file into tmp_path; model cases use a closed port or the fault server.
"""

from __future__ import annotations

import json
import socket
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import pytest

from factprobe.eval.cli.main import main
from factprobe.eval.core.text_files import MAX_LINE_BYTES
from tests.conftest import local_model_available, requires_local_model
from tests.eval.run.bad_input_cases import generated_cases
from tests.fakes import SERVED_MODEL, FaultServer, refused


@dataclass
class Place:
    """Where a case's files live and which server it may use."""

    tmp: Path
    url: str

    def file(self, name: str, content: str | bytes) -> Path:
        path = self.tmp / name
        path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
        return path

    def jsonl(self, *records: dict | str) -> Path:
        lines = [r if isinstance(r, str) else json.dumps(r) for r in records]
        return self.file("data.jsonl", "".join(line + "\n" for line in lines))

    def long_line(self, name: str, head: bytes) -> Path:
        """A file whose line 2 is one byte over the limit of a line (MAX_LINE_BYTES), after `head` and a newline."""
        path = self.tmp / name
        with path.open("wb") as handle:
            handle.write(head + b"\n")
            left = MAX_LINE_BYTES + 1
            while left > 0:
                handle.write(b"x" * min(left, 2**20))
                left -= 2**20
        return path

    def good(self) -> Path:
        return self.jsonl(GOOD, {**GOOD, "id": "q2"})

    def run(self, *options: str, data: Path | None = None) -> list[str]:
        """`factprobe run` on good data and the fault server, with `options` added."""
        return ["run", "--dataset", f"jsonl:{data or self.good()}", "--strategies", "vanilla",
                "--model", f"openai:{SERVED_MODEL}@{self.url}", "--out", str(self.tmp / "run"), *options]

    def data_run(self, loader: str, path: Path) -> list[str]:
        return ["run", "--dataset", f"{loader}:{path}", "--strategies", "vanilla",
                "--model", f"openai:{SERVED_MODEL}@{self.url}", "--out", str(self.tmp / "run")]

    def run_dir(self, manifest: str | bytes | None, results: str | bytes | None = None) -> Path:
        folder = self.tmp / "old"
        folder.mkdir(exist_ok=True)
        if manifest is not None:
            (folder / "manifest.json").write_bytes(manifest if isinstance(manifest, bytes) else manifest.encode())
        if results is not None:
            (folder / "results.jsonl").write_bytes(results if isinstance(results, bytes) else results.encode())
        return folder


GOOD = {"id": "q1", "question": "What is the capital of France?", "answer": "Paris"}
DEEP = "[" * 100_000 + "]" * 100_000
ROW = {"question_id": "q1", "strategy": "vanilla", "question": "Q?", "gold": "a", "category": "c",
       "grade": "CORRECT", "grader": "rules"}
Case = tuple[str, Callable[[Place], list[str]], list[str]]


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


CASES: list[Case] = [
    # ---- run options, checked against their ranges before any work (each numeric option's range
    # and type: tests/eval/run/bad_input_cases.py)
    ("concurrency huge", lambda p: p.run("--concurrency", "100000"), ["--concurrency = 100000"]),
    ("empty strategies", lambda p: p.run("--strategies", ""), ["--strategies", "must not be empty"]),
    ("duplicated strategy", lambda p: p.run("--strategies", "vanilla,vanilla"), ["vanilla given more than once"]),
    ("unknown strategy", lambda p: p.run("--strategies", "nosuch"), ["nosuch"]),
    ("max tokens not a number", lambda p: p.run("--max-tokens", "many"), ["--max-tokens", "many"]),
    ("request timeout 0", lambda p: p.run("--request-timeout", "0"), ["--request-timeout = 0"]),
    ("max error rate 1.5", lambda p: p.run("--max-error-rate", "1.5"), ["--max-error-rate = 1.5"]),
    ("unknown selector", lambda p: p.run("--selector", "coin"), ["--selector = 'coin'"]),
    ("unknown grader", lambda p: p.run("--grader", "vibes"), ["--grader = 'vibes'"]),
    ("unknown confidence", lambda p: p.run("--confidence", "astrology"), ["astrology"]),
    ("judge grader without judge", lambda p: p.run("--grader", "judge"), ["--judge"]),
    # ---- models: named wrongly, missing, or unreachable, before any question
    ("unknown model kind", lambda p: p.run("--model", "gpt4"), ["unknown model 'gpt4'"]),
    ("unknown judge kind", lambda p: p.run("--judge", "claude"), ["unknown model 'claude'"]),
    ("missing gguf", lambda p: p.run("--model", f"local:{p.tmp / 'none.gguf'}"), ["none.gguf does not exist"]),
    ("dead server", lambda p: p.run("--model", f"openai:x@http://127.0.0.1:{closed_port()}/v1"),
     ["--model openai:x@", "could not be reached"]),
    ("dead judge server", lambda p: p.run("--judge", f"openai:x@http://127.0.0.1:{closed_port()}/v1"),
     ["--judge openai:x@", "could not be reached"]),
    ("model not served", lambda p: p.run("--model", f"openai:gpt-nonexistent@{p.url}"),
     ["does not serve a model 'gpt-nonexistent'"]),
    # ---- --out and --resume
    ("out is a file", lambda p: p.run("--out", str(p.file("taken", "x"))), ["taken is a file"]),
    ("out under a file", lambda p: p.run("--out", str(p.file("plain", "x") / "run")), ["plain/run", "cannot be used"]),
    ("out not writable", lambda p: p.run("--out", "/proc/factprobe-run"), ["/proc/factprobe-run", "cannot be used"]),
    ("resume without out", lambda p: ["run", "--resume"], ["--resume needs --out"]),
    ("resume a non-run", lambda p: ["run", "--resume", "--out", str(p.run_dir(None))], ["no manifest.json"]),
    ("resume a broken manifest", lambda p: ["run", "--resume", "--out", str(p.run_dir("{nope"))],
     ["manifest.json: not valid JSON"]),
    # ---- native data files: file, line and field
    ("data not utf-8", lambda p: p.run(data=p.file("d.jsonl", json.dumps(GOOD).encode() + b"\n{\"id\": \"\xff\"}\n")),
     ["d.jsonl, line 2", "not UTF-8"]),
    ("data nested deeply", lambda p: p.run(data=p.jsonl(GOOD, DEEP)), ["data.jsonl, line 2", "nested too deeply"]),
    ("data line too long", lambda p: p.run(data=p.long_line("long.jsonl", json.dumps(GOOD).encode())),
     ["long.jsonl, line 2", "longer than"]),
    ("id file line too long", lambda p: p.run("--only-ids", str(p.long_line("ids.txt", b"q1"))),
     ["--only-ids", "ids.txt, line 2", "longer than"]),
    ("data not json", lambda p: p.run(data=p.jsonl(GOOD, "{id: 1")), ["data.jsonl, line 2", "not valid JSON"]),
    ("data line is a list", lambda p: p.run(data=p.jsonl("[1, 2]")), ["data.jsonl, line 1", "expected a JSON object"]),
    ("null question", lambda p: p.run(data=p.jsonl({**GOOD, "question": None})), ["line 1", "field `question`"]),
    ("empty id", lambda p: p.run(data=p.jsonl({**GOOD, "id": ""})), ["line 1", "field `id`", "empty"]),
    ("blank question", lambda p: p.run(data=p.jsonl(GOOD, {**GOOD, "id": "q2", "question": "  "})),
     ["line 2", "field `question`"]),
    ("answerable without answer", lambda p: p.run(data=p.jsonl({**GOOD, "answer": None})),
     ["line 1", "field `answer`", "answerable"]),
    ("empty answer", lambda p: p.run(data=p.jsonl({**GOOD, "answer": ""})), ["line 1", "field `answer`"]),
    ("answer not text", lambda p: p.run(data=p.jsonl({**GOOD, "answer": 5})), ["line 1", "field `answer`"]),
    ("empty hop answer", lambda p: p.run(data=p.jsonl({**GOOD, "hops": [{"question": "Q?", "answer": ""}]})),
     ["line 1", "field `hops.0.answer`"]),
    ("duplicate ids", lambda p: p.run(data=p.jsonl(GOOD, GOOD)), ["question id 'q1' appears more than once"]),
    ("empty data file", lambda p: p.run(data=p.file("e.jsonl", "\n\n")), ["e.jsonl", "no records"]),
    ("missing data file", lambda p: p.run(data=p.tmp / "absent.jsonl"), ["absent.jsonl", "no such file"]),
    ("data path is a folder", lambda p: p.data_run("jsonl", p.tmp), ["not a regular file"]),
    ("unknown loader", lambda p: p.data_run("nosuch", p.good()), ["unknown dataset"]),
    # ---- public-benchmark loaders
    ("simpleqa not utf-8", lambda p: p.data_run("simpleqa", p.file("s.csv", b"problem,answer\nWho?,\xe9t\xe9\n")),
     ["s.csv, line 2", "not UTF-8"]),
    ("simpleqa missing column", lambda p: p.data_run("simpleqa", p.file("s.csv", "question,answr\nWho?,x\n")),
     ["s.csv, line 1", "field `true_answer`"]),
    ("simpleqa empty answer", lambda p: p.data_run("simpleqa", p.file("s.csv", "problem,answer\nWho?, \n")),
     ["s.csv, line 2", "field `"]),
    ("selfaware nested deeply", lambda p: p.data_run("selfaware", p.file("s.json", DEEP)),
     ["s.json", "nested too deeply"]),
    ("selfaware not utf-8", lambda p: p.data_run("selfaware", p.file("s.json", b'{"example": [\n"\xfe"]}')),
     ["s.json, line 2", "not UTF-8"]),
    ("compceleb null person", lambda p: p.data_run("compceleb", p.file("c.json", json.dumps({"data": [
        {"Q1": "a?", "A1": ["b"], "Q2": "c?", "A2": ["d"], "Question": "e?", "Answer": ["d"], "person_id": None}]}))),
     ["c.json, record 1", "field `person_id"]),
    # ---- report and datasets describe
    ("report a non-run", lambda p: ["report", str(p.run_dir(None))], ["no manifest.json"]),
    ("report a merge stopped before its manifest", lambda p: ["report", str(p.run_dir(None, json.dumps(ROW) + "\n"))],
     ["no manifest.json but holds rows", "run that merge again"]),
    ("resume a merge stopped before its manifest",
     lambda p: ["run", "--resume", "--out", str(p.run_dir(None, json.dumps(ROW) + "\n"))], ["run that merge again"]),
    ("report a manifest that is a list", lambda p: ["report", str(p.run_dir("[]"))], ["expected a JSON object"]),
    ("report a bad row", lambda p: ["report", str(p.run_dir("{}", json.dumps(ROW) + "\n{oops\n" + json.dumps(ROW) + "\n"))],
     ["results.jsonl, line 2", "not valid JSON"]),
    ("report a row out of range", lambda p: ["report", str(p.run_dir("{}", json.dumps({**ROW, "confidence": 250}) + "\n"))],
     ["results.jsonl, line 1", "field `confidence`"]),
    ("report a row not utf-8", lambda p: ["report", str(p.run_dir("{}", b'{"question_id": "\xff"}\n'))],
     ["results.jsonl, line 1", "not UTF-8"]),
    ("describe not utf-8", lambda p: ["datasets", "describe", f"jsonl:{p.file('x.jsonl', bytes([0x80, 10]))}"],
     ["x.jsonl, line 1", "not UTF-8"]),
    ("describe nested deeply", lambda p: ["datasets", "describe", f"jsonl:{p.jsonl(DEEP)}"], ["nested too deeply"]),
    ("describe unknown loader", lambda p: ["datasets", "describe", "nosuch:x"], ["unknown dataset"]),
]


CASES += generated_cases()


@pytest.fixture(scope="module")
def server_url() -> str:
    with FaultServer(["notfound"]) as server:
        yield server.url


@pytest.fixture(autouse=True)
def no_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)


def test_the_table_is_large_enough() -> None:
    assert len(CASES) >= 250 and len({name for name, _, _ in CASES}) == len(CASES)


# a GGUF path is checked by the local backend, which needs llama-cpp-python installed
NEEDS_LLAMA = {"missing gguf"}


@pytest.mark.parametrize("name,argv,expected", [
    pytest.param(*case, id=case[0], marks=[pytest.mark.needs_llama, requires_local_model] if case[0] in NEEDS_LLAMA else [])
    for case in CASES])
def test_bad_input_exits_2_naming_the_problem(name: str, argv: Callable[[Place], list[str]], expected: list[str],
                                              tmp_path: Path, server_url: str, capsys) -> None:
    refused(capsys, argv(Place(tmp_path, server_url)), *expected)
    assert not (tmp_path / "run" / "results.jsonl").exists()        # stopped before any question


@pytest.mark.needs_llama
@pytest.mark.skipif(not local_model_available(), reason="needs llama-cpp-python")
def test_a_file_that_is_not_gguf_stops_the_run(tmp_path: Path, capsys) -> None:
    fake = tmp_path / "model.gguf"
    fake.write_bytes(b"not a model!")
    place = Place(tmp_path, "unused")
    code = main(["run", "--dataset", f"jsonl:{place.good()}", "--strategies", "vanilla",
                 "--model", f"local:{fake}", "--out", str(tmp_path / "run")])
    err = capsys.readouterr().err
    assert code == 2 and "could not be loaded as a GGUF model" in err and "Traceback" not in err
    assert not (tmp_path / "run").exists()
