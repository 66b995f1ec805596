"""Command-line options shared by ``score`` and ``compare``: the evaluation choices besides K."""

from __future__ import annotations

import argparse
import re
from typing import Any

from ndcg_desktop.domain import EvalSettings, GradeScale, InputError, TiePolicy
from ndcg_desktop.domain.choices import BY_NAME, CHOICES
from ndcg_desktop.domain.chunks import IdMap
from ndcg_desktop.domain.settings import MAX_K
from ndcg_desktop.formats.choices import QRELS_FORMATS, RUN_FORMATS


def positive_int(text: str) -> int:
    if not re.fullmatch(r"\+?[0-9]{1,30}", text.strip()):  # ASCII digits: int() would take "٣" and "1_0"
        raise argparse.ArgumentTypeError(f"K must be a positive integer, not {text[:40]!r}")
    value = int(text)
    if not 1 <= value <= MAX_K:
        raise argparse.ArgumentTypeError(f"K must be a positive integer of at most {MAX_K}, not {value}")
    return value


def add_choice_option(
    parser: argparse.ArgumentParser, name: str, *, help: str | None = None, default: bool = True, **given: Any
) -> None:
    """One evaluation choice of :data:`~ndcg_desktop.domain.choices.CHOICES` as an option: its values, its default
    (``default=False``: none, the caller supplies it) and its help (``help``: a command's own words)."""
    choice = BY_NAME[name]
    if default:
        given["default"] = choice.default.value
    parser.add_argument(choice.option, choices=list(choice.values), help=choice.help if help is None else help, **given)


def add_policy_options(parser: argparse.ArgumentParser) -> None:
    """The evaluation choices besides K, shared by ``score``, ``compare`` and ``diff-pools``."""
    for choice in CHOICES:
        add_choice_option(parser, choice.name, default=choice.enum is not TiePolicy)  # ties: the run's reading
    parser.add_argument("--scale", metavar="LO..HI", help="grade range (default 0..3; a project uses its own)")
    parser.add_argument("--id-map", metavar="SEP", help="cut returned IDs at the first SEP (doc12#3 -> doc12)")
    parser.add_argument(
        "--id-map-file",
        metavar="FILE",
        help="map returned chunk IDs to documents (JSONL or CSV/TSV: chunk_id, doc_id)",
    )
    parser.add_argument("--qrels-format", choices=QRELS_FORMATS, help="force the judgments format")
    parser.add_argument("--run-format", choices=RUN_FORMATS, help="force the run format")
    parser.add_argument(
        "--order",
        choices=("score", "rank", "file"),
        help="how rankings are formed: by score (TREC's default), by the rank column, or as the file lists them",
    )


def id_map_of(args: argparse.Namespace) -> IdMap | None:
    """The ID map the options give: a separator (--id-map), a chunk map file (--id-map-file), or none."""
    if args.id_map_file is not None and args.id_map is not None:
        raise InputError("give --id-map SEP or --id-map-file FILE, not both")
    if args.id_map_file is not None:
        from ndcg_desktop.formats.chunk_map import read_chunk_map

        return read_chunk_map(args.id_map_file)
    return args.id_map  # type: ignore[no-any-return]


def settings_of(args: argparse.Namespace, *, scale: GradeScale, ties: str, id_map: IdMap | None) -> EvalSettings:
    """The settings the options give (the first K when several are given), with ``ties`` and ``id_map`` as defaults."""
    given = id_map_of(args)
    chosen = {choice.name: getattr(args, choice.name) for choice in CHOICES}
    return EvalSettings(
        k=args.k if isinstance(args.k, int) else args.k[0],
        **{**chosen, "ties": args.ties or ties},
        scale=scale,
        id_map=given if given is not None else id_map,
    )
