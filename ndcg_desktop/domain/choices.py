"""The evaluation choices, declared once: each with its enum, its refusing default and every text it is shown with.

Modelled on ir_measures' measure parameters and qutebrowser's command registry: the command line's options
(:mod:`ndcg_desktop.cli.options`), the window's choices and combo boxes, :meth:`Measure.describe` and
the settings line are all generated from :data:`CHOICES`. A choice added here appears in every one of them.

The interface strings are marked for ``pyside6-lupdate`` (context ``analysis``, where the window's earlier
copies of them were translated); the marker below is the identity, so this module stays Qt-free.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from ndcg_desktop.domain.errors import InputError


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:  # noqa: N802 - the name pyside6-lupdate looks for
    """Marks ``text`` for the interface's catalogue; the window translates it where it is shown."""
    return text


class _Choice(StrEnum):
    """A named option; its value is the spelling used on the command line."""

    def __str__(self) -> str:
        return self.value

    @classmethod
    def from_text(cls, text: str, option: str) -> Any:
        for member in cls:
            if member.value == text:
                return member
        allowed = "|".join(m.value for m in cls)
        raise InputError(f"{option} must be one of {allowed}, not {text!r}")


class Gain(_Choice):
    LINEAR = "linear"  # gain = grade (trec_eval)
    EXPONENTIAL = "exponential"  # gain = 2**grade - 1 (Burges et al.)


class UnjudgedPolicy(_Choice):
    REJECT = "reject"
    ZERO = "zero"  # non-relevant, keeps its position: what trec_eval does silently
    CONDENSE = "condense"  # removed, gaps closed: Sakai's condensed lists


class DuplicatePolicy(_Choice):
    REJECT = "reject"
    FIRST = "first"  # keep the best-ranked occurrence


class ZeroIdcgPolicy(_Choice):
    KEEP = "keep"  # scores 0 and stays in the mean
    EXCLUDE = "exclude"


class QuerySet(_Choice):
    POOL = "pool"  # every judged query counts; unanswered ones score 0 (trec_eval -c)
    RUN = "run"  # only the queries the run answered


class UnknownQueryPolicy(_Choice):
    REJECT = "reject"
    IGNORE = "ignore"


class TiePolicy(_Choice):
    DOCID_DESC = "docid-desc"  # trec_eval: equal scores ordered by doc id, descending strcmp
    DOCID_ASC = "docid-asc"
    FILE_ORDER = "file-order"


@dataclass(frozen=True)
class Choice:
    """One evaluation choice: a field of :class:`~ndcg_desktop.domain.settings.EvalSettings` (a policy) or, for
    the tie policy, of :class:`~ndcg_desktop.domain.settings.DataTerms` (how the run is read)."""

    name: str  # the field, the settings text's key (unjudged=zero) and the keyword the Python API takes
    enum: type[_Choice]
    default: _Choice
    refuses: bool  # the default refuses the input until a policy is chosen (rule 5, 6, 9): it is no choice
    help: str  # the command line's help
    label: str  # the window's title for it (translated)
    description: str  # one line: what it decides
    shown: str  # its part of describe(), "{}" standing for the value's word (translated in the window)
    labels: dict[str, str]  # each value's words in the window's choices (translated)
    words: dict[str, str]  # each value's word in describe() (translated in the window)

    @property
    def option(self) -> str:
        """The command line's option: ``--zero-idcg``."""
        return "--" + self.name.replace("_", "-")

    @property
    def values(self) -> tuple[str, ...]:
        return tuple(member.value for member in self.enum)

    @property
    def policies(self) -> tuple[str, ...]:
        """The values that resolve the input (the refusing default is not one)."""
        return tuple(v for v in self.values if not (self.refuses and v == self.default.value))

    def describe(self, value: _Choice) -> str:
        """Its part of :meth:`Measure.describe`: ``zero-IDCG: kept in the mean``."""
        return self.shown.format(self.words[value.value])


CHOICES: tuple[Choice, ...] = (
    Choice(
        "gain",
        Gain,
        Gain.LINEAR,
        refuses=False,
        help="linear: grade; exponential: 2^grade-1",
        label=QT_TRANSLATE_NOOP("analysis", "Gain"),
        description="the gain of a grade: the grade itself (trec_eval) or 2^grade - 1 (Burges et al.)",
        shown=QT_TRANSLATE_NOOP("analysis", "{} gain"),
        labels={
            "linear": QT_TRANSLATE_NOOP("analysis", "linear gain"),
            "exponential": QT_TRANSLATE_NOOP("analysis", "exponential gain"),
        },
        words={
            "linear": QT_TRANSLATE_NOOP("analysis", "linear"),
            "exponential": QT_TRANSLATE_NOOP("analysis", "exponential"),
        },
    ),
    Choice(
        "unjudged",
        UnjudgedPolicy,
        UnjudgedPolicy.REJECT,
        refuses=True,
        help="returned documents without a judgment: reject (default), zero (non-relevant, keeps position), "
        "condense (removed, gaps closed)",
        label=QT_TRANSLATE_NOOP("analysis", "Unjudged documents"),
        description="what a returned document the pool has not judged counts as (rule 6)",
        shown=QT_TRANSLATE_NOOP("analysis", "unjudged: {}"),
        labels={
            "reject": QT_TRANSLATE_NOOP("analysis", "refuse the run (reject)"),
            "zero": QT_TRANSLATE_NOOP("analysis", "count as non-relevant (keeps its position)"),
            "condense": QT_TRANSLATE_NOOP("analysis", "condense (remove, close the gaps)"),
        },
        words={
            "reject": QT_TRANSLATE_NOOP("analysis", "reject"),
            "zero": QT_TRANSLATE_NOOP("analysis", "zero"),
            "condense": QT_TRANSLATE_NOOP("analysis", "condense"),
        },
    ),
    Choice(
        "duplicates",
        DuplicatePolicy,
        DuplicatePolicy.REJECT,
        refuses=True,
        help="a document twice for one query: reject (default) or keep the first",
        label=QT_TRANSLATE_NOOP("analysis", "Duplicate documents"),
        description="what a document returned twice for one query does (rule 5)",
        shown=QT_TRANSLATE_NOOP("analysis", "duplicates: {}"),
        labels={
            "reject": QT_TRANSLATE_NOOP("analysis", "refuse the run (reject)"),
            "first": QT_TRANSLATE_NOOP("analysis", "keep the first"),
        },
        words={"reject": QT_TRANSLATE_NOOP("analysis", "reject"), "first": QT_TRANSLATE_NOOP("analysis", "first")},
    ),
    Choice(
        "zero_idcg",
        ZeroIdcgPolicy,
        ZeroIdcgPolicy.KEEP,
        refuses=False,
        help="queries with no relevant document: keep (score 0, in the mean) or exclude",
        label=QT_TRANSLATE_NOOP("analysis", "Queries with zero IDCG"),
        description="whether a query with no relevant document scores 0 in the mean or is left out (rule 7)",
        shown=QT_TRANSLATE_NOOP("analysis", "zero-IDCG: {}"),
        labels={
            "keep": QT_TRANSLATE_NOOP("analysis", "zero-IDCG: score 0, in the mean"),
            "exclude": QT_TRANSLATE_NOOP("analysis", "zero-IDCG: excluded"),
        },
        words={
            "keep": QT_TRANSLATE_NOOP("analysis", "kept in the mean"),
            "exclude": QT_TRANSLATE_NOOP("analysis", "excluded"),
        },
    ),
    Choice(
        "queries",
        QuerySet,
        QuerySet.POOL,
        refuses=False,
        help="pool: every judged query counts, unanswered score 0; run: only answered queries",
        label=QT_TRANSLATE_NOOP("analysis", "Pool queries without a ranking"),
        description="which queries count: every query of the pool (unanswered ones score 0) or the answered ones "
        "(rule 9)",
        shown=QT_TRANSLATE_NOOP("analysis", "queries: {}"),
        labels={
            "pool": QT_TRANSLATE_NOOP("analysis", "score them 0 (every pool query counts)"),
            "run": QT_TRANSLATE_NOOP("analysis", "score only answered queries"),
        },
        words={"pool": QT_TRANSLATE_NOOP("analysis", "pool"), "run": QT_TRANSLATE_NOOP("analysis", "run")},
    ),
    Choice(
        "unknown_queries",
        UnknownQueryPolicy,
        UnknownQueryPolicy.REJECT,
        refuses=True,
        help="run queries with no judgments: reject (default) or ignore (listed)",
        label=QT_TRANSLATE_NOOP("analysis", "Run queries not in the pool"),
        description="what a query of the run that the pool does not have does (rule 9)",
        shown=QT_TRANSLATE_NOOP("analysis", "unknown queries: {}"),
        labels={
            "reject": QT_TRANSLATE_NOOP("analysis", "refuse the run (reject)"),
            "ignore": QT_TRANSLATE_NOOP("analysis", "ignore them (listed)"),
        },
        words={"reject": QT_TRANSLATE_NOOP("analysis", "reject"), "ignore": QT_TRANSLATE_NOOP("analysis", "ignore")},
    ),
    Choice(
        "ties",
        TiePolicy,
        TiePolicy.DOCID_DESC,
        refuses=False,
        help="order of equal scores: docid-desc (trec_eval, the default), docid-asc, file-order",
        label=QT_TRANSLATE_NOOP("analysis", "Ties"),
        description="the order of documents with equal scores (rule 10)",
        shown=QT_TRANSLATE_NOOP("analysis", "ties: {}"),
        labels={
            "docid-desc": QT_TRANSLATE_NOOP("analysis", "Doc ID descending (trec_eval)"),
            "docid-asc": QT_TRANSLATE_NOOP("analysis", "Doc ID ascending"),
            "file-order": QT_TRANSLATE_NOOP("analysis", "File order"),
        },
        words={
            "docid-desc": QT_TRANSLATE_NOOP("analysis", "docid-desc"),
            "docid-asc": QT_TRANSLATE_NOOP("analysis", "docid-asc"),
            "file-order": QT_TRANSLATE_NOOP("analysis", "file-order"),
        },
    ),
)

BY_NAME: dict[str, Choice] = {choice.name: choice for choice in CHOICES}
# The policies: every choice but the tie policy, which is how a run is read (its DataTerms), set with the reading.
POLICY_CHOICES: tuple[Choice, ...] = tuple(choice for choice in CHOICES if choice.name != "ties")
# What every front starts at besides the choices above: nDCG@10 (TREC DL's and BEIR's headline cutoff) on grades
# 0..3 (TREC's graded qrels); a project and its versions carry their own scale.
DEFAULT_K = 10
DEFAULT_SCALE = (0, 3)  # low, high: GradeScale()
# The choices a run's check counts and the window resolves run by run, in the order it lists them (the
# others, gain, zero-IDCG and ties, are set once for a view, or by the run's reading).
FLAG_GROUPS: tuple[Choice, ...] = tuple(BY_NAME[n] for n in ("unjudged", "duplicates", "unknown_queries", "queries"))
