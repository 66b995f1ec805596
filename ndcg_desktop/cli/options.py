"""Command-line options shared by ``score`` and ``compare``: the evaluation choices, and K."""

from __future__ import annotations

import argparse
import math
import re
from collections.abc import Callable
from typing import Any

from ndcg_desktop.domain import Cutoffs, DataTerms, EvalSettings, GradeScale, InputError, TiePolicy
from ndcg_desktop.domain.choices import BY_NAME, CHOICES, DEFAULT_K, POLICY_CHOICES
from ndcg_desktop.domain.chunks import IdMap
from ndcg_desktop.domain.errors import GradeOutsideScale
from ndcg_desktop.domain.reading import ReadingAsked
from ndcg_desktop.domain.settings import MAX_K
from ndcg_desktop.formats.choices import QRELS_FORMATS, RUN_FORMATS

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


def add_choice_option(
    parser: argparse.ArgumentParser, name: str, *, help: str | None = None, default: bool = True, **given: Any
) -> None:
    """One evaluation choice of :data:`~ndcg_desktop.domain.choices.CHOICES` as an option: its values, its default
    (``default=False``: none, the caller supplies it) and its help (``help``: a command's own words)."""
    choice = BY_NAME[name]
    if default:
        given["default"] = choice.default.value
    parser.add_argument(choice.option, choices=list(choice.values), help=choice.help if help is None else help, **given)


def add_k_option(parser: argparse.ArgumentParser, help: str = "cutoff K (default {})") -> None:
    """``--k``: one cutoff, checked by the parser (``help``'s ``{}`` is the default, from the table of choices)."""
    parser.add_argument("--k", type=whole_number("--k", 1, MAX_K), default=DEFAULT_K, help=help.format(DEFAULT_K))


def cutoffs_of(args: argparse.Namespace) -> Cutoffs:
    """``--k 5,10,20`` (``ndcg compare``) as the cut-offs, checked once here; ``args`` keeps the text given."""
    return Cutoffs.parse(args.k)


def add_policy_options(parser: argparse.ArgumentParser) -> None:
    """The evaluation choices besides K, shared by ``score``, ``compare`` and ``diff-pools``."""
    for choice in CHOICES:
        add_choice_option(parser, choice.name, default=choice.enum is not TiePolicy)  # ties: the run's reading
    parser.add_argument(
        "--scale", metavar="LO..HI", help=f"grade range (default {GradeScale()}; a project uses its own)"
    )
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


def settings_of(args: argparse.Namespace) -> EvalSettings:
    """The policies the options give (each choice but the tie policy, which is how a run is read: :func:`terms_of`)."""
    given = {choice.name: getattr(args, choice.name) for choice in POLICY_CHOICES}  # text: EvalSettings validates it
    return EvalSettings(**{name: value for name, value in given.items() if value is not None})


def terms_of(args: argparse.Namespace) -> DataTerms:
    """What files do not say themselves, as the options say to read them: the scale (``--scale``, else the
    default), the tie policy (``--ties``, else the default) and the ID map (``--id-map``, ``--id-map-file``, else
    none). A stored run and a pool version bring their own, which the use case takes."""
    scale = GradeScale.parse(args.scale) if getattr(args, "scale", None) else GradeScale()
    id_map = id_map_of(args)
    given = {"ties": args.ties} if getattr(args, "ties", None) is not None else {}  # text: DataTerms validates it
    return DataTerms(scale, id_map=id_map, **given)


def reading_asked(args: argparse.Namespace) -> ReadingAsked:
    """The reading the options ask of stored runs (``--order``, ``--ties``, ``--id-map``/``--id-map-file``, None
    where a command has not the option or it was not given): a run's own changes nothing, another is refused."""
    id_map = id_map_of(args) if hasattr(args, "id_map") else None
    return ReadingAsked(getattr(args, "order", None), getattr(args, "ties", None), id_map)


def given_scale_named(error: InputError, args: argparse.Namespace) -> InputError:
    """``error`` with a remedy true of the command given: judgments read on the scale ``--scale`` gave (a stored
    run's scale is its version's, so only files get here) need a wider one, not the option again.

    >>> error = GradeOutsideScale(4, GradeScale(0, 3), path="q.txt", line=2, hint="choose --scale LO..HI")
    >>> str(given_scale_named(error, argparse.Namespace(scale="0..3")))
    "q.txt:2: grade 4 is outside the scale 0..3; your --scale 0..3 does not cover grade 4; give the judgments' \
scale with --scale LO..HI"
    """
    if not isinstance(error, GradeOutsideScale) or not getattr(args, "scale", None):
        return error
    covered = f"your --scale {error.scale} does not cover grade {error.grade}"
    hint = covered + "; give the judgments' scale with --scale LO..HI"
    return InputError(error.message, path=error.path, line=error.line, hint=hint)


def add_iteration_option(parser: argparse.ArgumentParser, help: str) -> None:
    """``--iteration VALUE`` (repeatable): the judgments of a version whose qrels iteration column (a round,
    TREC-COVID's 0.5, 1, 1.5 ...) was VALUE, exactly as written."""
    parser.add_argument(
        "--iteration", action="append", metavar="VALUE", help=help + " (as written in the qrels; repeat for several)"
    )
