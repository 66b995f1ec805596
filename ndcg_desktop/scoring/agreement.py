"""Agreement between annotators who graded the same items: weighted kappas, Krippendorff's alpha, leniency.

Pure arithmetic over a ratings table with the columns ``query_id, doc_id, annotator, grade`` (one
row per annotator and item; an item is a (query, document) pair). Only the items rated by two or
more annotators (the *shared* items) enter the agreement figures; each annotator's mean grade is
given over all their ratings and over the shared ones. Everything is computed for the whole table
and for each query.

A figure that is undefined for the data (one rater, no variation, no overlap) is a :class:`Figure`
whose ``value`` is None and whose ``why`` says why in words: never a NaN printed as a number.

scikit-learn (``cohen_kappa_score``) and ``krippendorff`` are imported when a report is computed,
not when this module is imported, so that ``ndcg --version`` stays fast.

Legend: ``a``/``b`` are the two annotators of a pair (``a`` before ``b`` in natural order, ``a``'s
grades are the rows of a confusion matrix); ``g`` is a grade; an *item* is a (query, document) pair.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

import numpy as np
import pandas as pd

from ndcg_desktop.domain.errors import InputError
from ndcg_desktop.domain.natural import natural_key
from ndcg_desktop.domain.progress import Cancelled, IsCancelled, Progress
from ndcg_desktop.domain.settings import GradeScale

RATING_COLUMNS = ("query_id", "doc_id", "annotator", "grade")
ITEM = ["query_id", "doc_id"]


@dataclass(frozen=True)
class Figure:
    """A statistic that may be undefined for the data: then ``value`` is None and ``why`` says why.

    >>> Figure(0.8153875).text(), Figure(None, "no item rated by two or more annotators").text()
    ('0.815', 'undefined: no item rated by two or more annotators')
    """

    value: float | None
    why: str = ""

    def text(self, digits: int = 3) -> str:
        return f"{self.value:.{digits}f}" if self.value is not None else f"undefined: {self.why}"

    def as_json(self) -> float | str:
        """The number, or the reason (a string) where there is none: JSON has no NaN."""
        return self.value if self.value is not None else f"undefined: {self.why}"


@dataclass(frozen=True)
class PairFigures:
    """Two annotators on the items both rated: raw agreement and Cohen's weighted kappas."""

    a: str
    b: str
    items: int  # items both rated
    raw: Figure  # share of those items given the same grade by both
    kappa_linear: Figure
    kappa_quadratic: Figure


@dataclass(frozen=True)
class GroupFigures:
    """The figures of one group of shared items: the whole table (``query_id`` None) or one query."""

    query_id: str | None
    items: int  # items rated by two or more annotators
    ratings: int  # their ratings
    annotators: tuple[str, ...]  # who rated at least one of them
    alpha: Figure  # Krippendorff's alpha, ordinal level, any number of raters
    unanimous: Figure  # share of the items on which every rater gave the same grade
    pairs: tuple[PairFigures, ...]


@dataclass
class AgreementReport:
    """Agreement of a ratings table (see :func:`agreement`)."""

    grades: tuple[int, ...]  # the scale, every grade from low to high
    annotators: tuple[str, ...]  # everyone with a rating, natural order
    rated_items: int  # items with at least one rating
    overall: GroupFigures
    per_query: tuple[GroupFigures, ...]  # queries with at least one shared item, natural order
    leniency: pd.DataFrame  # annotator, ratings, mean_grade, shared_ratings, mean_grade_shared
    leniency_by_query: pd.DataFrame  # query_id, annotator, shared_ratings, mean_grade_shared
    confusion: pd.DataFrame  # query_id ("" = all queries), annotator_a, annotator_b, grade_a, grade_b, items

    def matrix(self, a: str, b: str, query_id: str | None = None) -> np.ndarray:
        """The confusion matrix of a pair (rows: ``a``'s grade, columns: ``b``'s), over one query or all.

        ``a`` and ``b`` may be given in either order; the matrix is oriented as asked.
        """
        first, second = sorted((a, b), key=natural_key)
        rows = self.confusion[
            (self.confusion["query_id"] == (query_id or ""))
            & (self.confusion["annotator_a"] == first)
            & (self.confusion["annotator_b"] == second)
        ]
        low, n = self.grades[0], len(self.grades)
        out = np.zeros((n, n), dtype=np.int64)
        np.add.at(out, (rows["grade_a"].to_numpy() - low, rows["grade_b"].to_numpy() - low), rows["items"].to_numpy())
        return out if (first, second) == (a, b) else out.T

    def summary(self) -> dict[str, object]:
        """The overall figures for a manifest (JSON-ready: an undefined figure is its reason, never NaN)."""
        overall = self.overall
        return {
            "annotators": list(self.annotators),
            "rated_items": self.rated_items,
            "shared_items": overall.items,
            "alpha_ordinal": overall.alpha.as_json(),
            "unanimous": overall.unanimous.as_json(),
            "pairs": [
                {
                    "annotators": [pair.a, pair.b],
                    "items": pair.items,
                    "raw_agreement": pair.raw.as_json(),
                    "kappa_linear": pair.kappa_linear.as_json(),
                    "kappa_quadratic": pair.kappa_quadratic.as_json(),
                }
                for pair in overall.pairs
            ],
        }

    def pairs_frame(self) -> pd.DataFrame:
        """One row per pair, overall and per query (``query_id`` "" for all queries), figures or None."""
        rows = [
            {
                "query_id": group.query_id or "",
                "annotator_a": pair.a,
                "annotator_b": pair.b,
                "items": pair.items,
                "raw_agreement": pair.raw.value,
                "kappa_linear": pair.kappa_linear.value,
                "kappa_quadratic": pair.kappa_quadratic.value,
                "undefined": "; ".join(
                    f"{name}: {fig.why}"
                    for name, fig in (
                        ("raw", pair.raw),
                        ("linear", pair.kappa_linear),
                        ("quadratic", pair.kappa_quadratic),
                    )
                    if fig.value is None
                ),
            }
            for group in (self.overall, *self.per_query)
            for pair in group.pairs
        ]
        columns = [
            "query_id",
            "annotator_a",
            "annotator_b",
            "items",
            "raw_agreement",
            "kappa_linear",
            "kappa_quadratic",
        ]
        return pd.DataFrame(rows, columns=[*columns, "undefined"])

    def groups_frame(self) -> pd.DataFrame:
        """One row for all queries ("") and one per query: shared items, alpha, unanimous share."""
        rows = [
            {
                "query_id": group.query_id or "",
                "shared_items": group.items,
                "ratings": group.ratings,
                "annotators": len(group.annotators),
                "alpha_ordinal": group.alpha.value,
                "unanimous": group.unanimous.value,
                "undefined": "; ".join(
                    f"{name}: {fig.why}"
                    for name, fig in (("alpha", group.alpha), ("unanimous", group.unanimous))
                    if fig.value is None
                ),
            }
            for group in (self.overall, *self.per_query)
        ]
        columns = ["query_id", "shared_items", "ratings", "annotators", "alpha_ordinal", "unanimous", "undefined"]
        return pd.DataFrame(rows, columns=columns)


def agreement(
    ratings: pd.DataFrame,
    scale: GradeScale,
    *,
    per_query: bool = True,
    progress: Progress | None = None,
    cancelled: IsCancelled | None = None,
) -> AgreementReport:
    """Agreement between annotators, overall and per query, on the items rated by two or more of them.

    Per pair of annotators: raw agreement and Cohen's kappa with linear and quadratic weights (both
    over the whole ``scale``, so that grades 0 and 3 are three steps apart even when 1 and 2 are
    never used). For any number of raters: Krippendorff's alpha at the ordinal level, and the share
    of items on which all raters agree. Each annotator's mean grade shows who grades high or low.
    ``per_query=False`` computes the figures over all queries only (``per_query`` is then empty).

    >>> r = pd.DataFrame({"query_id": ["q1"] * 4, "doc_id": ["d1", "d1", "d2", "d2"],
    ...                   "annotator": ["ana", "ben"] * 2, "grade": [3, 3, 0, 1]})
    >>> report = agreement(r, GradeScale(0, 3))
    >>> report.overall.items, report.overall.pairs[0].raw.text(), report.overall.unanimous.value
    (2, '0.500', 0.5)
    """
    frame = _checked(ratings, scale)
    grades = tuple(range(scale.low, scale.high + 1))
    annotators = tuple(sorted(frame["annotator"].unique().tolist(), key=natural_key))
    shared = _shared(frame)
    items = _Items.of(shared, annotators, scale.low, len(grades))
    total = len(items.queries) + 1 if per_query else 1  # per_query False: the overall figures only (manifests)
    groups: list[GroupFigures] = []
    for done in range(total):
        if cancelled is not None and cancelled():
            raise Cancelled()
        if done == 0:  # all queries: every pair of annotators, those who never met included
            groups.append(items.group(None, slice(None), grades, every_pair=True))
        else:
            q = done - 1
            span = slice(items.start[q], items.start[q + 1])
            groups.append(items.group(items.queries[q], span, grades, every_pair=False))
        if progress is not None:
            progress(done + 1, total)
    return AgreementReport(
        grades=grades,
        annotators=annotators,
        rated_items=int(frame[ITEM].drop_duplicates().shape[0]),
        overall=groups[0],
        per_query=tuple(groups[1:]),
        leniency=_leniency(frame, shared, annotators),
        leniency_by_query=_leniency_by_query(shared),
        confusion=items.confusion(grades),
    )


def _checked(ratings: pd.DataFrame, scale: GradeScale) -> pd.DataFrame:
    """The ratings with a grade, grades as integers inside ``scale``, one per annotator and item."""
    missing = [c for c in RATING_COLUMNS if c not in ratings.columns]
    if missing:
        raise InputError(f"the ratings table lacks the column(s) {', '.join(missing)}")
    frame = ratings.loc[ratings["grade"].notna(), list(RATING_COLUMNS)].copy()  # an ungraded item is no rating
    grade = pd.to_numeric(frame["grade"], errors="coerce")
    bad = grade.isna() | (grade != np.floor(grade)) | (grade < scale.low) | (grade > scale.high)
    if bad.any():
        row = frame[bad].iloc[0]
        raise InputError(
            f"grade {row['grade']} of {row['annotator']} for {row['query_id']}/{row['doc_id']} "
            f"is not an integer in the scale {scale}"
        )
    frame["grade"] = grade.astype(np.int64)
    twice = frame.duplicated(["query_id", "doc_id", "annotator"])
    if twice.any():
        row = frame[twice].iloc[0]
        raise InputError(f"{row['annotator']} has two ratings for {row['query_id']}/{row['doc_id']}")
    for column in ("query_id", "doc_id", "annotator"):
        frame[column] = frame[column].astype(str)
    return frame.reset_index(drop=True)


def _shared(frame: pd.DataFrame) -> pd.DataFrame:
    """The ratings of items rated by two or more annotators."""
    raters = frame.groupby(ITEM, sort=False)["annotator"].transform("size")
    return frame[raters >= 2].reset_index(drop=True)


@dataclass
class _Items:
    """The shared items as arrays, ordered by query (natural order) and document: row ``i`` is one item."""

    queries: list[str]  # distinct query IDs of the shared items, natural order
    start: np.ndarray  # row where each query's items start, and one past the last row (len(queries) + 1)
    annotators: tuple[str, ...]
    grade: np.ndarray  # items x annotators: the annotator's grade, or -1 where they did not rate the item
    counts: np.ndarray  # items x grades: how many annotators gave the item each grade (scale order)
    low: int  # the scale's lowest grade: grade index 0

    @classmethod
    def of(cls, shared: pd.DataFrame, annotators: tuple[str, ...], low: int, n_grades: int) -> _Items:
        order = _natural_rows(shared.assign(row=np.arange(len(shared))), ITEM)["row"].to_numpy()
        shared = shared.iloc[order]
        item, keys = pd.MultiIndex.from_frame(shared[ITEM]).factorize()
        queries = [str(q) for q in keys.get_level_values(0)]
        first = np.flatnonzero(np.r_[True, np.array(queries[1:], dtype=object) != np.array(queries[:-1], dtype=object)])
        who = pd.Categorical(shared["annotator"], categories=list(annotators)).codes
        grade_index = shared["grade"].to_numpy(np.int64) - low
        table = np.full((len(keys), len(annotators)), -1, dtype=np.int64)
        table[item, who] = grade_index
        counts = np.zeros((len(keys), n_grades), dtype=np.int64)
        np.add.at(counts, (item, grade_index), 1)
        starts = np.r_[first, len(keys)] if len(keys) else np.zeros(1, dtype=np.int64)
        return cls([queries[i] for i in first] if len(keys) else [], starts, annotators, table, counts, low)

    def group(self, query_id: str | None, rows: slice, grades: tuple[int, ...], *, every_pair: bool) -> GroupFigures:
        """The figures of the items in ``rows``: pairs that share an item there, or ``every_pair``."""
        table, counts = self.grade[rows], self.counts[rows]
        rated = table >= 0
        present = tuple(name for name, column in zip(self.annotators, rated.T, strict=True) if column.any())
        pairs = []
        for i, j in combinations(range(len(self.annotators)), 2):
            both = rated[:, i] & rated[:, j]
            if both.any() or every_pair:
                ga, gb = table[both, i] + self.low, table[both, j] + self.low
                pairs.append(_pair(self.annotators[i], self.annotators[j], ga, gb, grades))
        n = len(table)
        return GroupFigures(
            query_id=query_id,
            items=n,
            ratings=int(rated.sum()),
            annotators=present,
            alpha=ordinal_alpha(counts, grades),
            unanimous=Figure(float(((counts > 0).sum(axis=1) == 1).mean())) if n else Figure(None, NO_SHARED),
            pairs=tuple(pairs),
        )

    def confusion(self, grades: tuple[int, ...]) -> pd.DataFrame:
        """Long confusion table: every cell for all queries (``query_id`` ""), the non-empty cells per query."""
        g, nq = len(grades), len(self.queries)
        query_of = np.repeat(np.arange(nq), np.diff(self.start)) if nq else np.zeros(0, dtype=np.int64)
        parts = []
        for i, j in combinations(range(len(self.annotators)), 2):
            both = (self.grade[:, i] >= 0) & (self.grade[:, j] >= 0)
            cell = (query_of[both] * g + self.grade[both, i]) * g + self.grade[both, j]
            per_query = np.bincount(cell, minlength=nq * g * g).reshape(nq, g * g)
            overall = per_query.sum(axis=0)
            q, c = np.nonzero(per_query)
            parts.append(
                pd.DataFrame(
                    {
                        "query_id": [""] * (g * g) + [self.queries[k] for k in q],
                        "annotator_a": self.annotators[i],
                        "annotator_b": self.annotators[j],
                        "cell": np.r_[np.arange(g * g), c],
                        "items": np.r_[overall, per_query[q, c]],
                    }
                )
            )
        columns = ["query_id", "annotator_a", "annotator_b", "grade_a", "grade_b", "items"]
        if not parts:
            return pd.DataFrame({c: pd.Series(dtype=object if c.startswith(("q", "a")) else np.int64) for c in columns})
        table = pd.concat(parts, ignore_index=True)
        table["grade_a"] = table["cell"] // g + self.low
        table["grade_b"] = table["cell"] % g + self.low
        overall_first = table["query_id"] == ""
        table = pd.concat([table[overall_first], table[~overall_first]], ignore_index=True)  # queries stay in order
        return table[columns].astype({"grade_a": np.int64, "grade_b": np.int64, "items": np.int64})


NO_SHARED = "no item rated by two or more annotators"


def _pair(a: str, b: str, ga: np.ndarray, gb: np.ndarray, grades: tuple[int, ...]) -> PairFigures:
    """Raw agreement and weighted kappas of two annotators' grades for the same items (``ga[i]``, ``gb[i]``)."""
    n = len(ga)
    if not n:
        why = f"no item rated by both {a} and {b}"
        return PairFigures(a, b, 0, Figure(None, why), Figure(None, why), Figure(None, why))
    raw = Figure(float(np.mean(ga == gb)))
    return PairFigures(
        a, b, n, raw, weighted_kappa(ga, gb, grades, "linear"), weighted_kappa(ga, gb, grades, "quadratic")
    )


def weighted_kappa(ga: np.ndarray, gb: np.ndarray, grades: Sequence[int], weights: str) -> Figure:
    """Cohen's kappa of two raters' grades for the same items, ``weights`` "linear" or "quadratic".

    The weights run over the whole scale ``grades`` (scikit-learn weighs by the position in
    ``labels``), so a disagreement of 0 against 3 weighs three steps whether or not 1 and 2 occur.
    Undefined (no chance disagreement to compare with) when both raters gave one and the same grade
    to every item.

    >>> weighted_kappa(np.array([0, 1, 2, 3]), np.array([0, 1, 2, 2]), range(4), "linear").text(4)
    '0.7778'
    >>> weighted_kappa(np.array([2, 2]), np.array([2, 2]), range(4), "linear").why
    'both gave grade 2 to every item: kappa is undefined without variation'
    """
    if not len(ga):
        return Figure(None, "no item rated by both")
    if np.all(ga == ga[0]) and np.all(gb == ga[0]):
        return Figure(None, f"both gave grade {int(ga[0])} to every item: kappa is undefined without variation")
    from sklearn import config_context
    from sklearn.metrics import cohen_kappa_score  # about 1 s to import: only when agreement is computed

    # Validated inputs (integer arrays of one length, labels the scale): skip scikit-learn's per-call checks,
    # most of the cost of a call when a report computes one per query and pair.
    with warnings.catch_warnings(), config_context(skip_parameter_validation=True):
        warnings.simplefilter("ignore")  # the undefined case is caught above; a NaN below is reported, not warned
        value = float(cohen_kappa_score(ga, gb, labels=list(grades), weights=weights))
    return Figure(value) if np.isfinite(value) else Figure(None, "kappa is undefined for these grades")


def ordinal_alpha(value_counts: np.ndarray, grades: Sequence[int]) -> Figure:
    """Krippendorff's alpha at the ordinal level from the number of raters giving each item each grade.

    ``value_counts`` has one row per item and one column per grade of the scale (``grades``).
    Items with fewer than two ratings pair with nothing and are left out. Undefined when no item
    has two ratings, and when every such rating is the same grade (no expected disagreement: 0/0).

    >>> ordinal_alpha(np.array([[0, 2, 0, 0], [0, 0, 1, 1]]), range(4)).text()  # grades {1, 1} and {2, 3}
    '0.833'
    """
    counts = np.asarray(value_counts)
    counts = counts[counts.sum(axis=1) >= 2]
    if not len(counts):
        return Figure(None, NO_SHARED)
    used = np.flatnonzero(counts.sum(axis=0))
    if len(used) == 1:
        return Figure(None, f"every rating is grade {list(grades)[used[0]]}: alpha is undefined without variation")
    import krippendorff  # imported on use, like scikit-learn

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        value = float(
            krippendorff.alpha(
                value_counts=counts.astype(np.float64), value_domain=list(grades), level_of_measurement="ordinal"
            )
        )
    return Figure(value) if np.isfinite(value) else Figure(None, "alpha is undefined for these grades")


def _leniency(frame: pd.DataFrame, shared: pd.DataFrame, annotators: tuple[str, ...]) -> pd.DataFrame:
    """Each annotator's number of ratings and mean grade, over all their ratings and over the shared items."""
    everything = frame.groupby("annotator")["grade"].agg(ratings="size", mean_grade="mean")
    on_shared = shared.groupby("annotator")["grade"].agg(shared_ratings="size", mean_grade_shared="mean")
    table = everything.join(on_shared, how="left").reindex(list(annotators))
    table["shared_ratings"] = table["shared_ratings"].fillna(0).astype(np.int64)
    table["mean_grade_shared"] = table["mean_grade_shared"].astype(object).where(table["shared_ratings"] > 0, None)
    return table.rename_axis("annotator").reset_index()


def _leniency_by_query(shared: pd.DataFrame) -> pd.DataFrame:
    table = (
        shared.groupby(["query_id", "annotator"])["grade"]
        .agg(shared_ratings="size", mean_grade_shared="mean")
        .reset_index()
    )
    return _natural_rows(table, ["query_id", "annotator"])


def _natural_rows(table: pd.DataFrame, by: list[str]) -> pd.DataFrame:
    """``table`` sorted by the text columns ``by`` in natural order (q2 before q10), stably."""
    if not len(table):
        return table.reset_index(drop=True)
    return table.sort_values(by, key=lambda col: col.map(natural_key), kind="stable").reset_index(drop=True)
