"""Command-line options shared by ``score`` and ``compare``: the evaluation choices besides K."""

from __future__ import annotations

import argparse
import re
from enum import Enum

from ndcg_desktop.domain import (
    DuplicatePolicy,
    EvalSettings,
    Gain,
    GradeScale,
    InputError,
    QuerySet,
    TiePolicy,
    UnjudgedPolicy,
    UnknownQueryPolicy,
    ZeroIdcgPolicy,
)
from ndcg_desktop.domain.chunks import IdMap
from ndcg_desktop.domain.settings import MAX_K
from ndcg_desktop.formats.choices import QRELS_FORMATS, RUN_FORMATS


def _choices(enum: type[Enum]) -> list[str]:
    return [member.value for member in enum]


def positive_int(text: str) -> int:
    if not re.fullmatch(r"\+?[0-9]{1,30}", text.strip()):  # ASCII digits: int() would take "٣" and "1_0"
        raise argparse.ArgumentTypeError(f"K must be a positive integer, not {text[:40]!r}")
    value = int(text)
    if not 1 <= value <= MAX_K:
        raise argparse.ArgumentTypeError(f"K must be a positive integer of at most {MAX_K}, not {value}")
    return value


def add_policy_options(parser: argparse.ArgumentParser) -> None:
    """The evaluation choices besides K, shared by ``score``, ``compare`` and ``diff-pools``."""
    parser.add_argument(
        "--gain", choices=_choices(Gain), default="linear", help="linear: grade; exponential: 2^grade-1"
    )
    parser.add_argument(
        "--unjudged",
        choices=_choices(UnjudgedPolicy),
        default="reject",
        help="returned documents without a judgment: reject (default), zero (non-relevant, keeps position), "
        "condense (removed, gaps closed)",
    )
    parser.add_argument(
        "--duplicates",
        choices=_choices(DuplicatePolicy),
        default="reject",
        help="a document twice for one query: reject (default) or keep the first",
    )
    parser.add_argument(
        "--zero-idcg",
        choices=_choices(ZeroIdcgPolicy),
        default="keep",
        help="queries with no relevant document: keep (score 0, in the mean) or exclude",
    )
    parser.add_argument(
        "--queries",
        choices=_choices(QuerySet),
        default="pool",
        help="pool: every judged query counts, unanswered score 0; run: only answered queries",
    )
    parser.add_argument(
        "--unknown-queries",
        choices=_choices(UnknownQueryPolicy),
        default="reject",
        help="run queries with no judgments: reject (default) or ignore (listed)",
    )
    parser.add_argument(
        "--ties",
        choices=_choices(TiePolicy),
        help="order of equal scores: docid-desc (trec_eval, the default), docid-asc, file-order",
    )
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
    return EvalSettings(
        k=args.k if isinstance(args.k, int) else args.k[0],
        gain=Gain(args.gain),
        unjudged=UnjudgedPolicy(args.unjudged),
        duplicates=DuplicatePolicy(args.duplicates),
        zero_idcg=ZeroIdcgPolicy(args.zero_idcg),
        queries=QuerySet(args.queries),
        unknown_queries=UnknownQueryPolicy(args.unknown_queries),
        ties=TiePolicy(args.ties or ties),
        scale=scale,
        id_map=given if given is not None else id_map,
    )
