"""rag: Video SimpleQA's retrieval-augmented generation (docs/protocols.md §3).

Extract the question's key entities, retrieve about them (`--retriever`, `--top-k`), answer as
vanilla does with the passages in the prompt. It is exactly `vanilla+rag`; any strategy X runs with
retrieval as `X+rag` (see factprobe.agents.rag).
"""

from __future__ import annotations

from factprobe.agents.context import StrategyContext
from factprobe.agents.rag import with_retrieval
from factprobe.agents.registry import RETRIEVAL_READS, register_strategy
from factprobe.agents.strategies.vanilla import build as build_vanilla


@register_strategy("rag", "extract entities, retrieve passages (--retriever, --top-k), answer as vanilla",
                   retrieves=True, reads=RETRIEVAL_READS, order=40, reusable=True)
def build(context: StrategyContext):
    return with_retrieval(build_vanilla(context), context)
