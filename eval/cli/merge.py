"""`factprobe merge DIR DIR … --out DIR`: the shards of one run (`factprobe run --shard I/N`) as one
run directory (factprobe.eval.run.merge)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from rich.console import Console


def cmd_merge(args: argparse.Namespace, console: Console) -> int:
    from factprobe.eval.run.merge import merge_runs

    return merge_runs(args.dirs, args.out, console)


def add_merge_command(sub: Any) -> None:
    """Register `merge` on the CLI's subparsers."""
    merge = sub.add_parser("merge", help="the shards of one run (run --shard I/N) as one run directory")
    merge.add_argument("dirs", type=Path, nargs="+", metavar="DIR", help="every shard's run directory")
    merge.add_argument("--out", type=Path, required=True, help="the merged run directory (new)")
    merge.set_defaults(handler=cmd_merge)
