"""Provenance by content: the files that change a run's results, each named in the manifest's
`inputs` by its path and sha256, so `--resume` and `factprobe merge` can refuse a file that was
edited since (the same path is not the same input).

The files: `--dataset LOADER:PATH`, `--prompt-file`, `--judge-prompt-file`, `--answers`, every
`--plugin` given as a file, the corpus of `--retriever NAME:PATH` when a strategy retrieves, the id
files of `--only-ids` and `--exclude-ids` (which questions are asked) and the `--media` folder (what
the model is shown). A folder is digested over its files (hidden ones left out): their relative
paths and contents, each file's sha256 remembered by its stat in the cache directory so that an
unchanged file is not read again (factprobe.eval.store.file_digests).
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from factprobe.eval.config.options import OptionError, flag_of
from factprobe.eval.config.run_config import RunConfig
from factprobe.eval.run.checks import retriever_spec, retrieving
from factprobe.eval.store.file_digests import FileDigests
from factprobe.eval.store.json_store import file_sha256

Entry = dict[str, str]
SHOWN = 12   # hex digits of a digest shown in a message
FILE_OPTIONS = ("prompt_file", "judge_prompt_file", "answers", "only_ids", "exclude_ids", "media")
# inputs first recorded after the others: a manifest written before them lacks them, and is not
# held to them (its config already records the option, compared by --resume and merge)
LATER = frozenset({"only_ids", "exclude_ids", "media"})


class InputChanged(OptionError):
    """An input file whose content differs from the one the run recorded; the message names its option."""


def content_sha256(path: Path) -> str:
    """sha256 of a file's content, or of a folder's files (relative path and content of each,
    in sorted order, hidden files left out; a file unchanged since it was last digested is not read
    again: FileDigests)."""
    if path.is_file():
        return file_sha256(path)
    digest = hashlib.sha256()
    files = sorted(p for p in path.rglob("*") if p.is_file()
                   and not any(part.startswith(".") for part in p.relative_to(path).parts))
    known = FileDigests()
    for file in files:
        digest.update(f"{file.relative_to(path).as_posix()}\x00{known.sha256(file)}\n".encode())
    known.save(path)
    return digest.hexdigest()


def input_paths(config: RunConfig) -> dict[str, list[Path]]:
    """The input files of `config` by option name (a list: --plugin may name several)."""
    paths: dict[str, list[Path]] = {}
    dataset = config.dataset.partition(":")[2]
    if dataset:
        paths["dataset"] = [Path(dataset)]
    for name in FILE_OPTIONS:
        value = getattr(config, name)
        if value is not None:
            paths[name] = [value]
    plugins = [Path(plugin) for plugin in config.plugins if plugin.endswith(".py") or Path(plugin).is_file()]
    if plugins:
        paths["plugins"] = plugins
    corpus = retriever_spec(config).path
    if corpus is not None and retrieving(config):
        paths["retriever"] = [corpus]
    return paths


def entry(name: str, path: Path) -> Entry:
    """`{path, sha256}` of one input file; OptionError naming its option when it cannot be read."""
    resolved = path.expanduser()
    if not resolved.exists():
        raise OptionError(f"{flag_of(name)} {path}: no such file or folder")
    try:
        return {"path": str(path), "sha256": content_sha256(resolved)}
    except OSError as exc:
        raise OptionError(f"{flag_of(name)} {path}: cannot be read ({exc})") from None


def input_digests(config: RunConfig) -> dict[str, Any]:
    """The manifest's `inputs`: `{option: {path, sha256}}`, `plugins` a list of such entries."""
    digests: dict[str, Any] = {}
    for name, paths in input_paths(config).items():
        entries = [entry(name, path) for path in paths]
        digests[name] = entries if name == "plugins" else entries[0]
    return digests


def as_list(value: Any) -> list[Entry]:
    """An `inputs` value as a list of entries (none for a missing one)."""
    if value is None:
        return []
    return list(value) if isinstance(value, list) else [value]


def input_differences(before: dict[str, Any], after: dict[str, Any],
                      sides: tuple[str, str]) -> list[tuple[str, str]]:
    """(flag, what differs) for each option whose input files differ between two `inputs`
    sections, with the digests on each side (`sides`: how each is named, e.g. "in the manifest", "now").
    An input of LATER is compared only when both sections record it."""
    found = []
    names = (before.keys() | after.keys()) - {name for name in LATER if name not in before or name not in after}
    for name in sorted(names):
        old, new = as_list(before.get(name)), as_list(after.get(name))
        if [e.get("sha256") for e in old] == [e.get("sha256") for e in new]:
            continue
        if [e.get("path") for e in old] != [e.get("path") for e in new]:
            found.append((flag_of(name), f"it names other files ({', '.join(e['path'] for e in old) or 'none'} "
                                         f"{sides[0]}, {', '.join(e['path'] for e in new) or 'none'} {sides[1]})"))
            continue
        a, b = next((a, b) for a, b in zip(old, new) if a.get("sha256") != b.get("sha256"))
        found.append((f"{flag_of(name)} {b['path']}", f"its content differs (sha256 {str(a.get('sha256'))[:SHOWN]}… "
                                                      f"{sides[0]}, {str(b.get('sha256'))[:SHOWN]}… {sides[1]})"))
    return found


def check_inputs(manifest: dict[str, Any], config: RunConfig, where: Path) -> None:
    """InputChanged when an input file of the run in `where` differs from the one its manifest
    records (a manifest without `inputs`, written before they were recorded, is not checked)."""
    recorded = manifest.get("inputs")
    if not isinstance(recorded, dict):
        return
    changed = input_differences(recorded, input_digests(config), ("in the manifest", "now"))
    if changed:
        what = "; ".join(f"{flag} changed since the run in {where} started: {detail}" for flag, detail in changed)
        raise InputChanged(f"{what}. Resuming would mix results of two inputs: restore the file, or start "
                           f"a new run with another --out.")
