"""Every relative link in README.md and docs/*.md points at a file of the checkout, and every
`#anchor` at a heading of the page it names (GitHub's heading ids); the README stays a front page."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)
CODE_SPAN = re.compile(r"`[^`\n]*`")
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
HEADING = re.compile(r"^#{1,6} (.+?)\s*$", re.MULTILINE)


def prose(text: str) -> str:
    """The text without code blocks and code spans, where brackets are not links."""
    return CODE_SPAN.sub("", FENCE.sub("", text))


def anchor(heading: str) -> str:
    """GitHub's id for a heading: lower case, markup and punctuation dropped, spaces as hyphens."""
    text = re.sub(r"[`*_]|\[([^\]]*)\]\([^)]*\)", r"\1", heading).strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    return {anchor(title) for title in HEADING.findall(FENCE.sub("", path.read_text(encoding="utf-8")))}


def links(path: Path) -> list[str]:
    return [target for target in LINK.findall(prose(path.read_text(encoding="utf-8")))
            if not re.match(r"[a-z]+:", target)]


def test_the_anchor_of_a_heading_is_githubs() -> None:
    assert anchor("Faults and limits") == "faults-and-limits"
    assert anchor("Past one process: workers, shards and Ray") == "past-one-process-workers-shards-and-ray"
    assert anchor("`jsonl`: your own questions") == "jsonl-your-own-questions"
    assert anchor("1. Grading and scores") == "1-grading-and-scores"


def test_links_are_found_outside_code_only() -> None:
    text = "see [a](a.md) and `[b](b.md)`\n```\n[c](c.md)\n```\n![d](d.png) [e](https://x.org/e)"
    assert LINK.findall(prose(text)) == ["a.md", "d.png", "https://x.org/e"]


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: str(path.relative_to(ROOT)))
def test_every_relative_link_resolves(document: Path) -> None:
    broken = []
    for target in links(document):
        file_part, _, fragment = target.partition("#")
        path = (document.parent / file_part).resolve() if file_part else document
        if not path.exists():
            broken.append(f"{target}: no such file")
        elif fragment and path.suffix == ".md" and fragment not in anchors(path):
            broken.append(f"{target}: no heading #{fragment} in {path.relative_to(ROOT)}")
    assert broken == [], f"{document.relative_to(ROOT)}: " + "; ".join(broken)


def test_the_readme_is_a_front_page_that_links_every_page_of_docs() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 400
    linked = {Path(target.partition("#")[0]).name for target in links(ROOT / "README.md")}
    pages = {path.name for path in DOCUMENTS[1:]}
    assert pages and pages <= linked, f"pages the README never links: {sorted(pages - linked)}"


def test_no_document_points_outside_the_checkout() -> None:
    outside = [f"{path.relative_to(ROOT)}: {target}" for path in DOCUMENTS for target in links(path)
               if not (path.parent / target.partition("#")[0]).resolve().is_relative_to(ROOT)]
    assert outside == []


def test_every_section_the_source_cites_in_docs_protocols_exists() -> None:
    """Docstrings cite the shared methods as `docs/protocols.md §N`; each N is a numbered heading there."""
    numbered = set(re.findall(r"^### (\d+)\. ", (ROOT / "docs" / "protocols.md").read_text(encoding="utf-8"), re.M))
    cited = {(path.relative_to(ROOT), number)
             for folder in ("agents", "retrieval", "calibration", "decomposition", "eval")
             for path in (ROOT / folder).rglob("*.py")
             for number in re.findall(r"docs/protocols\.md §(\d+)", path.read_text(encoding="utf-8"))}
    assert len(cited) >= 10 and numbered >= {"1", "7"}
    assert [(str(path), number) for path, number in cited if number not in numbered] == []
