"""Several endpoints serving one model (`openai:MODEL@URL1,URL2`) are used as one."""

from __future__ import annotations

import asyncio

import pytest

from benchmarks.chat_server import ChatServer
from factprobe.agents.models.base import GenerationParams, ModelError, ModelSpecError
from factprobe.agents.models.fleet import FleetModel
from factprobe.agents.models.registry import load_backend, load_model
from tests.fakes import ScriptedModel


def test_a_fleet_spec_spreads_requests_over_every_server() -> None:
    with ChatServer(delay_s=0.01) as first, ChatServer(delay_s=0.01) as second:
        model = load_model(f"openai:bench@{first.base_url},{second.base_url}", use_cache=False)

        async def ask_many() -> list[str]:
            messages = [{"role": "user", "content": f"question {n}"} for n in range(16)]
            replies = await asyncio.gather(*(model.generate([m], GenerationParams()) for m in messages))
            return [reply.text for reply in replies]

        texts = asyncio.run(ask_many())
        assert all("Paris" in text for text in texts)
        counts = first.stats()["requests"], second.stats()["requests"]
        assert sum(counts) == 16
        assert min(counts) >= 4, counts


def test_a_failing_endpoint_hands_the_request_to_another() -> None:
    def refuse(messages, params) -> str:
        raise ModelError("connection refused")

    broken = ScriptedModel(refuse, name="broken")
    working = ScriptedModel(lambda messages, params: "Answer: Rome\nConfidence: 70", name="working")
    fleet = FleetModel("openai:m@a,b", [broken, working])
    reply = asyncio.run(fleet.generate([{"role": "user", "content": "q"}], GenerationParams()))
    assert reply.text.startswith("Answer: Rome")
    assert len(broken.calls) == 1 and len(working.calls) == 1
    assert fleet.in_flight == [0, 0]


def test_an_empty_url_in_the_list_is_a_spec_error() -> None:
    with pytest.raises(ModelSpecError, match="empty base URL"):
        load_backend("openai:m@http://127.0.0.1:1/v1,")
