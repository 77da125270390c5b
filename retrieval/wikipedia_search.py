"""Wikipedia: search titles, then take each page's introduction, with the `wikipedia` package.

The package sends requests without a timeout, so every request runs under a deadline
(`retrieval.network.call_with_deadline`) and is retried a bounded number of times. Connection
failures, timeouts and HTTP errors are retried; a missing or ambiguous page is skipped.
"""

from __future__ import annotations

from functools import partial
from typing import Any, Callable

from factprobe.retrieval.base import RetrievalError, RetrievedPassage
from factprobe.retrieval.network import TransientError, call_with_deadline, with_retries

MAX_CHARS = 1200  # an introduction is cut to about this many characters, at a sentence end


def _wikipedia() -> Any:
    import wikipedia

    return wikipedia


def shorten(text: str, limit: int = MAX_CHARS) -> str:
    """`text` cut at the last sentence end before `limit` characters (or at `limit`)."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text[:limit]
    end = cut.rfind(". ")
    return cut[: end + 1] if end > limit // 3 else cut


class WikipediaSearch:
    """Ranked Wikipedia introductions for a query (Wikipedia's own search order; score = 1/rank)."""

    name = "wikipedia"

    def __init__(self, timeout_s: float = 10.0, retries: int = 2, backoff_s: float = 1.0) -> None:
        self.timeout_s = timeout_s
        self.retries = retries
        self.backoff_s = backoff_s
        self.key = f"wikipedia-intro{MAX_CHARS}"

    def _request(self, function: Callable[[], Any]) -> Any:
        wikipedia = _wikipedia()
        import requests

        def attempt() -> Any:
            try:
                return call_with_deadline(function, self.timeout_s)
            except (requests.ConnectionError, requests.Timeout, wikipedia.exceptions.HTTPTimeoutError) as exc:
                raise TransientError(f"{type(exc).__name__}: {exc}") from exc
            except ValueError as exc:  # requests' JSON decoding of an error page (5xx, proxy)
                raise TransientError(f"unreadable response: {exc}") from exc

        return with_retries(self.name, f"Wikipedia ({wikipedia.wikipedia.API_URL})", attempt,
                            retries=self.retries, backoff_s=self.backoff_s)

    def search(self, query: str, top_k: int) -> list[RetrievedPassage]:
        wikipedia = _wikipedia()
        try:
            titles = self._request(lambda: wikipedia.search(query, results=top_k))
        except wikipedia.exceptions.WikipediaException as exc:
            raise RetrievalError(self.name, f"search for {query!r} failed: {exc}") from exc
        except (KeyError, TypeError) as exc:
            raise RetrievalError(self.name, f"search for {query!r}: unexpected response ({exc!r})") from exc
        passages: list[RetrievedPassage] = []
        for rank, title in enumerate(titles[:top_k], start=1):
            try:
                page = self._request(partial(_load_intro, wikipedia, title))
            except (wikipedia.exceptions.DisambiguationError, wikipedia.exceptions.PageError):
                continue
            except wikipedia.exceptions.WikipediaException as exc:
                raise RetrievalError(self.name, f"page {title!r} failed: {exc}") from exc
            except (KeyError, TypeError) as exc:
                raise RetrievalError(self.name, f"page {title!r}: unexpected response ({exc!r})") from exc
            page_title, text = page
            if text.strip():
                passages.append(RetrievedPassage(id=f"wikipedia:{page_title}", title=page_title,
                                                 text=shorten(text), score=1.0 / rank, source=self.name))
        return passages


def _load_intro(wikipedia: Any, title: str) -> tuple[str, str]:
    """(canonical title, introduction) of the page called `title`, following redirects."""
    page = wikipedia.page(title, auto_suggest=False, redirect=True)
    return page.title, page.summary
