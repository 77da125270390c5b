"""One redaction for every form of a secret and every output (factprobe.eval.core.secrets): the
forms remembered from a URL and from the environment, redaction before any cut (text, terminal
tables), log records whatever their handler's stream, an uncaught exception's traceback, a plot's SVG.
Whole runs, with split workers, Ray and sweeps: tests/eval/run/test_secret_forms.py."""

from __future__ import annotations

import base64
import io
import logging
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.table import Table

from factprobe.agents.models.sdk_client import describe_failure
from factprobe.eval.core.console import RedactingConsole
from factprobe.eval.core.secrets import (
    REDACTED,
    clip,
    forget,
    print_redacted_traceback,
    redact_values,
    redacted_output,
    remember,
    remember_in_args,
    remember_in_data,
    secret_values,
)

TOKEN = "tok3n-alone"


@pytest.fixture(autouse=True)
def forget_secrets() -> Iterator[None]:
    yield
    forget()


def b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


def test_a_url_gives_its_user_alone_every_query_value_and_the_basic_credentials() -> None:
    remember_in_args([f"openai:m@http://{TOKEN}@10.0.0.1/v1?code=c0de-1&subscription-key=s%2Bk%2F99&x=1,"
                      "http://ab:c%40d@10.0.0.2/v1"])
    known = secret_values()
    assert {TOKEN, "c0de-1", "s+k/99", "s%2Bk%2F99", b64(f"{TOKEN}:")} <= known
    assert {b64("ab:c@d"), b64("ab:c%40d"), b64("ab:c@d").rstrip("=")} <= known   # short, but never shown
    assert "1" not in known and "ab" not in known                                  # too short to redact
    assert redact_values(f"Authorization: Basic {b64('ab:c@d')}") == f"Authorization: Basic {REDACTED}"


def test_derived_forms_are_redacted_percent_encoded_json_and_html_escaped() -> None:
    remember('p@ss/w+rd <9>"')
    for form in ('p@ss/w+rd <9>"', "p%40ss%2Fw%2Brd%20%3C9%3E%22", "p%40ss%2Fw%2Brd+%3C9%3E%22",
                 'p@ss/w+rd <9>\\"', "p@ss/w+rd &lt;9&gt;&quot;"):
        assert redact_values(f"a {form} b") == f"a {REDACTED} b", form


def test_base_urls_in_the_environment_are_read_for_credentials(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", "http://env-user:env-pass-1@127.0.0.1/v1?auth=env-auth-2")
    monkeypatch.setenv("ANTHROPIC_BASE_URL", f"https://{TOKEN}@gateway.example/anthropic")
    monkeypatch.setenv("SOME_SETTING", "http://visible:visible-pass@host/?q=visible-query")
    text = "env-user env-pass-1 env-auth-2 " + TOKEN + " " + b64("env-user:env-pass-1")
    assert redact_values(text) == " ".join([REDACTED] * 5)
    assert redact_values("visible-pass visible-query") == "visible-pass visible-query"


def test_a_config_s_nested_values_are_searched_for_urls() -> None:
    remember_in_data({"model": ["openai:m@http://h/v1?key=nested-key-1"], "n": 3, "judge": None})
    assert "nested-key-1" in secret_values()


def test_text_is_redacted_before_it_is_cut() -> None:
    remember("sk-SECRETVALUE123")
    text = "x" * 15 + "sk-SECRETVALUE123 end"
    assert clip(text, 20) == "x" * 15 + REDACTED[:5]
    assert clip(text, 20, "…") == "x" * 15 + REDACTED[:4] + "…"
    assert "sk-S" not in describe_failure(RuntimeError(text), limit=18)


def test_terminal_tables_are_redacted_before_they_are_laid_out() -> None:
    """A narrow column cuts or wraps its cells; a secret is gone before it could be cut in two."""
    secret = "Zq9opaqueGatewayKey"
    remember(secret)
    for overflow in ("ellipsis", "fold"):
        table = Table("model", "F")
        table.add_column("wide")
        table.add_row(f"gw:{secret}", "1.0", f"[bold]{secret}[/bold]")
        table.columns[0].max_width, table.columns[0].overflow = 12, overflow  # type: ignore[assignment]
        sink = io.StringIO()
        RedactingConsole(file=sink, width=60).print(table)
        printed = sink.getvalue()
        assert not any(secret[:n] in printed for n in range(4, len(secret))), printed
        assert REDACTED in printed.replace("\n", "")       # the placeholder shows, not read as markup


def test_a_placeholder_already_in_data_is_not_read_as_markup() -> None:
    sink = io.StringIO()
    RedactingConsole(file=sink, width=100).print(f"run directory: [bold]sweep/000-model=http___{REDACTED}@h[/bold]")
    assert sink.getvalue() == f"run directory: sweep/000-model=http___{REDACTED}@h\n"


def test_a_log_handler_holding_the_terminal_from_before_gets_redacted_records() -> None:
    remember("log-secret-77")
    sink = io.StringIO()
    handler = logging.StreamHandler(sink)
    logger = logging.getLogger("factprobe.test.redaction")
    logger.addHandler(handler)
    try:
        with redacted_output():
            logger.warning("sent %s", "log-secret-77")
            try:
                raise ValueError("echoed log-secret-77")
            except ValueError:
                logger.exception("failed")
        logger.warning("after: log-secret-77")     # outside the block, the handler is as it was
    finally:
        logger.removeHandler(handler)
    lines = sink.getvalue()
    assert "sent [redacted]" in lines and "ValueError: echoed [redacted]" in lines
    assert lines.count("log-secret-77") == 1 and "after: log-secret-77" in lines


def test_an_uncaught_exception_s_traceback_is_printed_redacted(capsys: pytest.CaptureFixture) -> None:
    remember("crash-secret-5")
    try:
        raise RuntimeError("server said crash-secret-5")
    except RuntimeError as exc:
        print_redacted_traceback(type(exc), exc, exc.__traceback__)
    err = capsys.readouterr().err
    assert f"RuntimeError: server said {REDACTED}" in err and "crash-secret-5" not in err


def test_a_plot_s_svg_text_is_redacted(tmp_path: Path) -> None:
    from matplotlib.figure import Figure

    from factprobe.eval.report.html.figures import save_figure

    remember("plot-secret-3")
    figure = Figure()
    figure.subplots().set_xlabel("model openai:m@http://plot-secret-3@h")
    save_figure(figure, tmp_path / "p.png", 50)
    svg = (tmp_path / "p.svg").read_text()
    assert "plot-secret-3" not in svg and REDACTED in svg
