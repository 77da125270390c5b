"""Web search through DuckDuckGo with `ddgs` (the maintained successor of duckduckgo-search).

Each result becomes a passage: the page title and the search snippet, with the URL as id. The
client's own timeout bounds each request; connection failures, timeouts and rate limits are
retried a bounded number of times, then reported as a RetrievalError naming the source.
"""

from __future__ import annotations

from factprobe.retrieval.base import RetrievalError, RetrievedPassage
from factprobe.retrieval.network import TransientError, with_retries

BACKEND = "duckduckgo"
NO_RESULTS = "No results found."


class WebSearch:
    """Ranked DuckDuckGo results for a query (DuckDuckGo's order; score = 1/rank)."""

    name = "web"

    def __init__(self, timeout_s: float = 10.0, retries: int = 2, backoff_s: float = 1.0,
                 region: str = "us-en") -> None:
        self.timeout_s = timeout_s
        self.retries = retries
        self.backoff_s = backoff_s
        self.region = region
        self.key = f"web-ddgs-{BACKEND}-{region}"

    def search(self, query: str, top_k: int) -> list[RetrievedPassage]:
        from ddgs import DDGS
        from ddgs.exceptions import DDGSException

        def attempt() -> list[dict]:
            try:
                return DDGS(timeout=max(1, round(self.timeout_s))).text(
                    query, max_results=top_k, backend=BACKEND, region=self.region)
            except DDGSException as exc:
                if str(exc) == NO_RESULTS:  # ddgs reports an empty result page as an exception
                    return []
                raise TransientError(f"{type(exc).__name__}: {exc}") from exc

        results = with_retries(self.name, "DuckDuckGo (via ddgs)", attempt, retries=self.retries,
                               backoff_s=self.backoff_s)
        passages: list[RetrievedPassage] = []
        for rank, result in enumerate(results[:top_k], start=1):
            url, title, body = result.get("href", ""), result.get("title", ""), result.get("body", "")
            if not (url and (title or body)):
                raise RetrievalError(self.name, f"unexpected result for {query!r}: {result!r}")
            passages.append(RetrievedPassage(id=url, title=title, text=body or title, score=1.0 / rank,
                                             source=self.name))
        return passages
