"""No secret reaches any output, in any form. The real services are unreachable here, so the path is
tested against a local OpenAI-compatible server on 127.0.0.1 (tests/fakes.py, mode `echo_credentials`)
that echoes every credential a request carries back in its reply text: the Authorization header (a
Bearer key, or the HTTP Basic credentials the client builds from a URL's userinfo), those Basic
credentials decoded, the raw query and each query value.

The secrets come from every place they can: a model spec's URL (a user alone, `http://TOKEN@host`, and
query values `?code=`, `?subscription-key=`, `?api_key=`), OPENAI_BASE_URL (a user and a password
with characters that are percent-encoded in a URL, and `?auth=`) and OPENAI_API_KEY. Every file under
the run, sweep and cache folders (their names too: shard logs, sweep cells, plots, the sqlite cache
and its WAL), the Ray session's logs and everything printed is searched for every form of every
secret (as given, percent-encoded, JSON- and HTML-escaped, and the base64 of `user:password`), for a
single run, `--workers 2`, `--executor ray` and a sweep whose cells differ in their model.
"""

from __future__ import annotations

import base64
import html
import importlib.util
import json
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote, quote_plus

import pytest

from factprobe.eval.cli.main import main
from factprobe.eval.core.secrets import REDACTED, forget
from tests.fakes import SERVED_MODEL, FaultServer

USER_TOKEN = "Tok3nAsUserOnly"                      # http://TOKEN@host: a user alone is a secret too
USER, PASSWORD = "alice7user", "p@ss/w+rd 9Zq"      # OPENAI_BASE_URL's userinfo, percent-encoded there
QUERY = {"code": "c0deValue11", "subscription-key": "subKey+/=77", "api_key": "apiKeyVal99"}
ENV_QUERY = {"auth": "authValue88"}
ENV_KEY = "opaqueEnvKey42"
SECRETS = [USER_TOKEN, USER, PASSWORD, ENV_KEY, *QUERY.values(), *ENV_QUERY.values()]
QUESTIONS = [{"id": f"q{n}", "question": f"Which city is number {n}?", "answer": "Paris"} for n in range(4)]
needs_ray = pytest.mark.skipif(importlib.util.find_spec("ray") is None,
                               reason="--executor ray needs the ray extra: pip install 'factprobe[ray]'")


def basic(user: str, password: str) -> set[str]:
    """The HTTP Basic credentials a client sends for `user:password`, with and without padding."""
    token = base64.b64encode(f"{user}:{password}".encode()).decode()
    return {token, token.rstrip("=")}


def forms(secret: str) -> set[str]:
    return {secret, quote(secret, safe=""), quote_plus(secret), json.dumps(secret)[1:-1], html.escape(secret)}


FORMS = {form for secret in SECRETS for form in forms(secret)} | basic(USER, PASSWORD) | basic(USER_TOKEN, "")


def query(values: dict[str, str]) -> str:
    return "&".join(f"{name}={quote(value, safe='')}" for name, value in values.items())


def leaks(folders: list[Path], printed: str) -> list[str]:
    """Each place a form of a secret was found: a file's name or content, or the printed output."""
    found = [f"printed: {form}" for form in FORMS if form in printed]
    for folder in folders:
        for path in folder.rglob("*"):
            content = path.read_bytes() if path.is_file() else b""
            found += [f"{path}: {form}" for form in FORMS
                      if form in str(path.relative_to(folder)) or form.encode() in content]
    return found


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[FaultServer]:
    """The echoing server, OPENAI_API_KEY and OPENAI_BASE_URL (the judge's `openai:MODEL`) set."""
    with FaultServer(["echo_credentials"], reply="Paris") as served:
        host = served.url.removeprefix("http://").removesuffix("/v1")
        monkeypatch.setenv("OPENAI_API_KEY", ENV_KEY)
        monkeypatch.setenv("OPENAI_BASE_URL", f"http://{USER}:{quote(PASSWORD, safe='')}@{host}/v1?{query(ENV_QUERY)}")
        yield served
    forget()


def model_spec(server: FaultServer) -> str:
    """The answering model: a user alone and query values in its URL."""
    host = server.url.removeprefix("http://")
    return f"openai:{SERVED_MODEL}@http://{USER_TOKEN}@{host}?{query(QUERY)}"


def run_args(tmp_path: Path, server: FaultServer, *extra: str) -> list[str]:
    data = tmp_path / "q.jsonl"
    data.write_text("".join(json.dumps(q) + "\n" for q in QUESTIONS))
    return ["run", "--dataset", f"jsonl:{data}", "--strategies", "vanilla", "--out", str(tmp_path / "run"),
            "--model", model_spec(server), "--judge", f"openai:{SERVED_MODEL}", "--grader", "judge",
            "--max-retries", "0", "--max-error-rate", "1", "--max-undecided-rate", "1", *extra]


def check_run(tmp_path: Path, cache: Path, printed: str, *more: Path) -> None:
    """The server echoed the credentials into the answers (redacted there), and no form of a secret
    is in any file or in what was printed."""
    rows = [json.loads(line) for line in (tmp_path / "run" / "results.jsonl").read_text().splitlines()]
    assert len(rows) == len(QUESTIONS) and all("heard: authorization Basic" in row["raw"] for row in rows)
    assert all(row["raw"].count(REDACTED) >= 4 for row in rows)
    # the judge, reached through OPENAI_BASE_URL, heard its user and password: its reply is in the note
    assert all(f"basic {REDACTED}:{REDACTED}; query auth={REDACTED}" in row["grade_note"] for row in rows)
    assert leaks([tmp_path, cache, *more], printed) == []


@pytest.mark.parametrize("split", [[], ["--workers", "2"]], ids=["one process", "two workers"])
def test_no_form_of_a_secret_reaches_a_run_s_outputs(split: list[str], server: FaultServer, tmp_path: Path,
                                                      isolated_cache: Path, capsys: pytest.CaptureFixture) -> None:
    assert main(run_args(tmp_path, server, *split)) == 0
    printed = capsys.readouterr()
    if split:
        assert sorted(path.name for path in (tmp_path / "run" / "shards").glob("*.log")) == ["1-of-2.log", "2-of-2.log"]
    check_run(tmp_path, isolated_cache, printed.out + printed.err)


@pytest.mark.needs_ray
@needs_ray
def test_no_form_of_a_secret_reaches_ray_tasks_outputs_or_ray_s_logs(server: FaultServer, tmp_path: Path,
                                                                     isolated_cache: Path,
                                                                     capsys: pytest.CaptureFixture) -> None:
    import ray

    session = Path(tempfile.mkdtemp(prefix="ray", dir="/tmp"))   # short: Ray's socket paths have a limit
    try:
        ray.init(_temp_dir=str(session), include_dashboard=False, log_to_driver=False, num_cpus=2)
        try:
            assert main(run_args(tmp_path, server, "--workers", "2", "--executor", "ray")) == 0
        finally:
            ray.shutdown()
        printed = capsys.readouterr()
        assert list(session.rglob("worker-*.out")), "the Ray workers' own logs are searched too"
        check_run(tmp_path, isolated_cache, printed.out + printed.err, session)
    finally:
        shutil.rmtree(session, ignore_errors=True)


def test_no_form_of_a_secret_reaches_a_sweep_s_folders_table_or_plots(server: FaultServer, tmp_path: Path,
                                                                     isolated_cache: Path,
                                                                     capsys: pytest.CaptureFixture) -> None:
    data = tmp_path / "q.jsonl"
    data.write_text("".join(json.dumps(q) + "\n" for q in QUESTIONS))
    bearer = f"openai:{SERVED_MODEL}@{server.url}?api_key={QUERY['api_key']}"   # the key from the environment
    grid = tmp_path / "grid.toml"
    grid.write_text(f'[sweep]\ndataset = "jsonl:{data}"\nstrategies = ["vanilla"]\nmax_retries = 0\n'
                    f'model = {json.dumps([model_spec(server), bearer])}\njudge = "openai:{SERVED_MODEL}"\n'
                    f'grader = "judge"\nmax_error_rate = 1.0\nmax_undecided_rate = 1.0\n')
    out = tmp_path / "sweep"
    assert main(["sweep", str(grid), "--out", str(out)]) == 0
    printed = capsys.readouterr()
    cells = sorted(path.name for path in out.iterdir() if path.is_dir())
    assert len(cells) == 2 and all(REDACTED in name for name in cells)
    assert f"{cells[0]}: vanilla" in printed.out      # its placeholder printed, not read as markup
    assert f">{html.escape(cells[0])}<" in (out / "sweep.html").read_text()      # and in the page's table
    assert (out / "sweep_model.svg").is_file() and REDACTED in (out / "sweep_model.svg").read_text()
    raws = [json.loads(line)["raw"] for cell in cells for line in (out / cell / "results.jsonl").read_text().splitlines()]
    assert any("authorization Bearer [redacted]" in raw for raw in raws)
    grid.unlink()      # it holds the secrets, as given
    assert leaks([tmp_path, isolated_cache], printed.out + printed.err) == []
