"""Corpora to search: the dataset's passages, a JSONL file of passages, or a folder of documents.

A corpus is a list of `eval.schema.Passage`. JSONL files hold one Passage per line (`id`, `title`,
`text`) and are kept whole. Text files in a folder (.txt, .md) are split into passages of about
200 tokens with llama-index's SentenceSplitter; their ids are `relative/path#chunk`.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

from factprobe.eval.core.errors import DatasetError
from factprobe.eval.core.jsonl import read_jsonl_models
from factprobe.eval.core.schema import Passage

if TYPE_CHECKING:
    from llama_index.core.schema import TextNode

TEXT_EXTENSIONS = [".txt", ".md"]
CHUNK_TOKENS = 200
CHUNK_OVERLAP = 20


def load_corpus(path: Path) -> list[Passage]:
    """Passages from a JSONL file, or from every JSONL and text file under a folder (sorted by path)."""
    path = Path(path).expanduser()
    if path.is_file():
        if path.suffix != ".jsonl":
            raise DatasetError(f"{path}: a corpus file must be JSONL (one passage per line with "
                               f"`id`, `title`, `text`); give a folder for plain-text documents")
        return read_jsonl_models(path, Passage)
    if not path.is_dir():
        raise DatasetError(f"{path}: no such corpus file or folder")
    passages: list[Passage] = []
    for jsonl in sorted(path.rglob("*.jsonl")):
        passages.extend(read_jsonl_models(jsonl, Passage))
    passages.extend(_text_passages(path))
    if not passages:
        raise DatasetError(f"{path}: no passages found (looked for *.jsonl and "
                           f"{', '.join('*' + ext for ext in TEXT_EXTENSIONS)})")
    check_unique_ids(passages, str(path))
    return passages


def _text_passages(folder: Path) -> list[Passage]:
    """Chunks of every text document under `folder`, read with llama-index's SimpleDirectoryReader."""
    if not any(p.suffix in TEXT_EXTENSIONS for p in folder.rglob("*") if p.is_file()):
        return []
    from llama_index.core import SimpleDirectoryReader
    from llama_index.core.node_parser import SentenceSplitter

    documents = SimpleDirectoryReader(input_dir=str(folder), recursive=True,
                                      required_exts=TEXT_EXTENSIONS).load_data(show_progress=False)
    documents.sort(key=lambda doc: doc.metadata.get("file_path", ""))
    splitter = SentenceSplitter(chunk_size=CHUNK_TOKENS, chunk_overlap=CHUNK_OVERLAP)
    passages: list[Passage] = []
    for document in documents:
        file_path = Path(document.metadata.get("file_path", "document"))
        relative = file_path.relative_to(folder) if file_path.is_relative_to(folder) else file_path
        chunks = splitter.split_text(document.text)
        for number, chunk in enumerate(chunks):
            passages.append(Passage(id=f"{relative.as_posix()}#{number}", title=file_path.stem, text=chunk))
    return passages


def check_unique_ids(passages: Sequence[Passage], where: str) -> None:
    """Raise DatasetError when two passages share an id (retrieval results would be ambiguous)."""
    seen: set[str] = set()
    for passage in passages:
        if passage.id in seen:
            raise DatasetError(f"{where}: passage id {passage.id!r} appears more than once")
        seen.add(passage.id)


def fingerprint(passages: Sequence[Passage]) -> str:
    """sha256 over every passage's id, title and text in order: the key of its indexes."""
    digest = hashlib.sha256()
    for passage in passages:
        for part in (passage.id, passage.title, passage.text):
            digest.update(part.encode("utf-8"))
            digest.update(b"\x00")
    return digest.hexdigest()


def to_nodes(passages: Sequence[Passage]) -> list["TextNode"]:
    """llama-index nodes, one per passage: the node id is the passage id, the title is metadata.

    The title is part of the indexed text (llama-index's EMBED metadata mode includes it).
    """
    from llama_index.core.schema import TextNode  # llama-index loads slowly; only indexing needs it

    return [TextNode(id_=p.id, text=p.text, metadata={"title": p.title}) for p in passages]
