"""Command-line options shared by ``score`` and ``compare``: the evaluation choices besides K."""

from __future__ import annotations

import argparse
import math
import re
from collections.abc import Callable
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
from ndcg_desktop.formats.choices import QRELS_FORMATS, RUN_FORMATS


def _choices(enum: type[Enum]) -> list[str]:
    return [member.value for member in enum]


# A pool version number, a seed: what SQLite and numpy keep in a signed 64-bit integer.
MAX_STORED = 2**63 - 1
_WHOLE = re.compile(r"[+-]?[0-9]+")  # ASCII digits: int() would also take "３", "٣" and "1_0"
_DECIMAL = re.compile(r"[+-]?([0-9]{1,30}(\.[0-9]{0,30})?|\.[0-9]{1,30})([eE][+-]?[0-9]{1,3})?")


def whole(text: str, what: str, low: int, high: int) -> int:
    """``text`` as a whole number from ``low`` to ``high``, or an :class:`InputError` naming ``what``.

    >>> whole("10", "--k", 1, 100), whole(" +3 ", "the grade", 0, 3)
    (10, 3)
    """
    value = text.strip()
    if not _WHOLE.fullmatch(value):
        raise InputError(f"{what} must be a whole number written in ASCII digits, not {text[:40]!r}")
    number = int(value) if len(value) <= 40 else None  # 40 digits are past every bound: no need to convert more
    if number is None or not low <= number <= high:
        raise InputError(f"{what} must be a whole number from {low} to {high}, not {value[:40]}")
    return number


def whole_number(option: str, low: int, high: int = MAX_STORED) -> Callable[[str], int]:
    """The argparse type of an integer option: :func:`whole`, its message naming ``option``."""

    def parse(text: str) -> int:
        try:
            return whole(text, option, low, high)
        except InputError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    parse.__name__ = option  # argparse names the type in some messages
    parse.bounds = (low, high)  # type: ignore[attr-defined]  # how tests find every numeric option
    return parse


def decimal_number(
    option: str, low: float, high: float, *, open_low: bool = False, open_high: bool = False
) -> Callable[[str], float]:
    """The argparse type of a fractional option: a finite decimal between ``low`` and ``high`` (each bound excluded
    when ``open_low`` / ``open_high``), written in ASCII digits."""
    bounds = f"{'above' if open_low else 'from'} {low:g} {'and below' if open_high else 'up to'} {high:g}"

    def parse(text: str) -> float:
        value = text.strip()
        number = float(value) if _DECIMAL.fullmatch(value) else math.nan
        above = number > low if open_low else number >= low
        below = number < high if open_high else number <= high
        if not (above and below):
            raise argparse.ArgumentTypeError(f"{option} must be a decimal number {bounds}, not {text[:40]!r}")
        return number

    parse.__name__ = option
    parse.bounds = (float(low), float(high))  # type: ignore[attr-defined]
    return parse


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
