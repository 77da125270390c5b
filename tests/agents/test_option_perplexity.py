"""`option_perplexity` (MM-SAP Table 7): each option's text, the refusal option's too, scored as the
reply by its tokens' log-probabilities; the least perplexing option is the answer. A fake scorer
stands in for the backend in the run (no model is loaded); the local path scores with the embedded
SmolLM2 GGUF and is checked against a full evaluation of each reply (skipped without the local
extra). A chat server on 127.0.0.1 started by the test is refused before the run. Questions are invented."""

from __future__ import annotations

import asyncio
import json
import math

import pytest

import factprobe.agents.strategies.option_perplexity  # noqa: F401  (registers the strategy)
import factprobe.eval.cli.main as cli
import factprobe.eval.run.pipeline as pipeline
from factprobe.agents.choices import REFUSAL_OPTION
from factprobe.agents.context import StrategyContext
from factprobe.agents.registry import get_strategy
from factprobe.eval.core.schema import Question
from tests.conftest import requires_local_model
from tests.fakes import ChatServer, ScriptedModel

QUESTIONS = [{"id": "lake", "question": "Which invented lake lies north of Dorvel?",
              "choices": ["Lake Amsy", "Lake Brint", "Lake Corra"], "answer": "Lake Corra"},
             {"id": "peak", "question": "Which invented peak is the tallest in Harn?",
              "choices": ["Mount Esk", "Mount Fale", "Mount Gow"], "answer": "Mount Esk"}]
# per-token log-probabilities the fake gives each reply: on `lake` the gold is least perplexing
# (a long option with a lower sum but a higher mean), on `peak` the refusal option is
LOGPROBS = {"Lake Amsy": [-2.0, -3.0], "Lake Brint": [-1.5, -4.0], "Lake Corra": [-1.0, -1.2, -1.1, -1.3],
            "Mount Esk": [-3.0, -3.0], "Mount Fale": [-2.5, -3.5], "Mount Gow": [-4.0, -2.0]}
REFUSAL = {"lake": [-2.0, -2.5, -3.0], "peak": [-0.5, -0.4, -0.6]}


class FakeScorer(ScriptedModel):
    """A scripted chat model that also scores given replies (from LOGPROBS); records what it scored."""

    def __init__(self) -> None:
        super().__init__(lambda messages, params: "Answer: Mount Gow\nConfidence: 50", "scorer")
        self.scored: list[tuple[str, list[str]]] = []

    async def continuation_logprobs(self, messages, replies):
        prompt = messages[-1]["content"]
        self.scored.append((prompt, list(replies)))
        refusal = REFUSAL["lake" if "lake" in prompt else "peak"]
        return [refusal if reply == REFUSAL_OPTION else LOGPROBS[reply] for reply in replies], 40, 0.01


def test_the_least_perplexing_option_is_chosen_and_the_refusal_option_is_one(tmp_path, monkeypatch) -> None:
    data = tmp_path / "mcq.jsonl"
    data.write_text("".join(json.dumps(q) + "\n" for q in QUESTIONS), encoding="utf-8")
    model = FakeScorer()
    monkeypatch.setattr(pipeline, "load_model", lambda spec, **kwargs: model)
    out = tmp_path / "run"
    assert cli.main(["run", "--dataset", f"mcq:{data}", "--strategies", "option_perplexity", "--no-cache",
                     "--out", str(out)]) == 0
    assert all(REFUSAL_OPTION in replies for _, replies in model.scored)
    assert all(REFUSAL_OPTION in prompt and "If you do not know" not in prompt for prompt, _ in model.scored)
    rows = {row["question_id"]: row for row in map(json.loads, (out / "results.jsonl").read_text().splitlines())}
    assert rows["lake"]["grade"] == "CORRECT" and rows["peak"]["grade"] == "NOT_ATTEMPTED"
    scores = next(s for s in rows["lake"]["trace"] if s["step"] == "option_scores")
    corra = next(entry for entry in scores["options"] if entry["option"] == "Lake Corra")
    assert corra["tokens"] == 4 and corra["logprob"] == pytest.approx(-4.6)
    assert corra["perplexity"] == pytest.approx(math.exp(4.6 / 4))
    assert scores["scored_by"] == "perplexity" and rows["peak"]["multiple_choice"]["letter"] == \
        rows["peak"]["multiple_choice"]["refusal_letter"]
    summary = json.loads((out / "summary.json").read_text())
    assert summary["multiple_choice"]["option_perplexity"]["refused"] == 1
    assert "option_perplexity" in summary["self_awareness"]


def test_a_chat_server_is_refused_before_the_run(tmp_path, capsys) -> None:
    data = tmp_path / "mcq.jsonl"
    data.write_text(json.dumps(QUESTIONS[0]) + "\n", encoding="utf-8")
    with ChatServer(lambda body: "A") as server:
        code = cli.main(["run", "--dataset", f"mcq:{data}", "--strategies", "option_perplexity", "--model",
                         f"openai:fake@{server.url}", "--out", str(tmp_path / "run")])
        asked = [body for body in server.requests if "messages" in body]
    err = capsys.readouterr().err
    assert code == 2 and "option_perplexity" in err and "local backend" in err and "Traceback" not in err
    assert not any("lake" in json.dumps(body) for body in asked)      # no question was asked


@requires_local_model
@pytest.mark.needs_llama
def test_the_embedded_model_scores_each_reply_as_a_full_evaluation_does() -> None:
    from factprobe.agents.models.continuations import chat_prompt, log_softmax_at
    from factprobe.agents.models.local import LocalModel

    model = LocalModel(n_ctx=256)
    context = StrategyContext(model=model)
    question = Question(id="sky", question="Which colour is the clear daytime sky?", choices=["Blue", "Red"],
                        answer="Blue")
    state = asyncio.run(get_strategy("option_perplexity").build(context).ainvoke({"question": question, "repeat": 0}))
    scores = next(step for step in state["trace"] if step["step"] == "option_scores")
    assert [entry["option"] for entry in scores["options"]] == ["Blue", "Red", REFUSAL_OPTION] or \
        sorted(entry["option"] for entry in scores["options"]) == sorted(["Blue", "Red", REFUSAL_OPTION])
    llama = model._scorer
    prompt = chat_prompt(llama, scores["messages"], model.name)
    prompt_tokens = llama.tokenize(prompt.encode(), add_bos=False, special=True)
    for entry in scores["options"][:2]:          # each reply evaluated whole, from scratch
        tokens = llama.tokenize((prompt + entry["option"]).encode(), add_bos=False, special=True)
        llama.reset()
        llama.eval(tokens)
        full = sum(log_softmax_at(llama.scores[i - 1], tokens[i]) for i in range(len(prompt_tokens), len(tokens)))
        assert entry["logprob"] == pytest.approx(full, abs=1e-3) and entry["logprob"] < 0
    assert state["answer"] == min(scores["options"], key=lambda e: e["perplexity"])["letter"]
