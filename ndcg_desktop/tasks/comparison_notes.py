"""What a comparison of runs says beside its tables: the notes of its settings line (each run's choices and
reading where they differ, the bound's grade when no scale was given, a residual scoring), what the superscript
letters mean, and its warnings (a tie policy that changes a mean, rule 10; pairs compared over few queries).

Plain words from plain values, so :mod:`ndcg_desktop.tasks.comparing` and every front word them alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd

from ndcg_desktop.domain import GradeScale, Measure
from ndcg_desktop.domain.counts import count
from ndcg_desktop.domain.manifest import JsonObject
from ndcg_desktop.scoring.stats import Correction, StatsSettings

FEW_QUERIES = 10  # a comparison over fewer queries than this is warned about: little power, rough intervals


def unscaled_bound_note(scale: GradeScale, top_grade: int) -> str:
    """What the settings line adds when no scale was given: the grades were checked against the default scale
    its ``scale=`` names, and the upper bound gave unjudged documents the highest grade of the judgments.

    One sentence that says both, so ``scale=0..3`` beside "grade 2" is not read as a contradiction.

    >>> print(unscaled_bound_note(GradeScale(0, 3), 2))  # doctest: +NORMALIZE_WHITESPACE
    no scale given: grades checked against the default scale 0..3; upper bound: unjudged as grade 2,
    the highest grade in the judgments (not the default scale's top, 3)
    """
    top = "the default scale's top" if top_grade == scale.high else f"not the default scale's top, {scale.high}"
    return (
        f"no scale given: grades checked against the default scale {scale}; upper bound: unjudged as grade "
        f"{top_grade}, the highest grade in the judgments ({top})"
    )


def reading_differs(measures: Sequence[Measure]) -> frozenset[str]:
    """The parts of the runs' reading (``ties``, ``id_map``) that are not the same for every run."""
    differ = set()
    if len({m.terms.ties for m in measures}) > 1:
        differ.add("ties")
    if any(m.terms.id_map != measures[0].terms.id_map for m in measures):
        differ.add("id_map")
    return frozenset(differ)


def choices_note(settings: dict[str, Measure]) -> str:
    """Empty when every run was resolved and read alike; else each run's choices (the line's own are the first
    run's) where the runs were resolved differently, and each run's reading (ties, ID map) where they were imported
    with different ones (the line says ``per run`` there: :meth:`RunsComparison.spec`).

    >>> from ndcg_desktop.domain import DataTerms, EvalSettings
    >>> zero, condense = (EvalSettings(unjudged=u).under(DataTerms()) for u in ("zero", "condense"))
    >>> choices_note({"a": zero, "b": zero})
    ''
    >>> choices_note({"a": zero, "b": condense})[:45]
    'choices per run: a: unjudged=zero, duplicates'
    >>> choices_note({"a": zero, "b": EvalSettings(unjudged="zero").under(DataTerms(ties="file-order", id_map="#"))})
    'choices per run: a: ties=docid-desc, no ID map; b: ties=file-order, id_map="#"'
    """
    measures = list(settings.values())
    differ = reading_differs(measures)
    policies_alike = all(m.policies == measures[0].policies for m in measures)

    def words(m: Measure) -> str:
        p = m.policies
        parts = []
        if not policies_alike:
            parts.append(
                f"unjudged={p.unjudged}, duplicates={p.duplicates}, unknown_queries={p.unknown_queries}, "
                f"queries={p.queries}"
            )
        if "ties" in differ:
            parts.append(f"ties={m.terms.ties}")
        if "id_map" in differ:
            parts.append(m.terms.id_map_part() or "no ID map")
        return ", ".join(parts)

    texts = {name: words(m) for name, m in settings.items()}
    if len(set(texts.values())) <= 1:
        return ""
    return "choices per run: " + "; ".join(f"{name}: {text}" for name, text in texts.items())


@dataclass(frozen=True)
class TiesAtK:
    """Rule 10 at cut-off ``k``: ``run``'s mean under the tie policy (``mean``) differs from the tie-averaged one
    (McSherry and Najork 2008): equal scores in its top K, in ``ties`` of the ``queries`` of its mean across K."""

    k: int
    run: str
    ties: int
    queries: int
    mean: float
    tie_averaged: float
    policy: str

    def figures(self) -> tuple[str, str]:
        """The two means as the warning shows them: at the fewest decimals (at least 4, at most 12) at which they
        read differently, so that it never claims a difference between two equal-looking numbers."""
        for places in range(4, 13):
            mean, tie_averaged = f"{self.mean:.{places}f}", f"{self.tie_averaged:.{places}f}"
            if mean != tie_averaged:
                break
        return mean, tie_averaged

    def text(self) -> str:
        """The warning ``ndcg compare`` prints and the manifest records."""
        mean, tie_averaged = self.figures()
        return (
            f"K={self.k} {self.run}: mean {mean} under the tie policy ({self.policy}), "
            f"{tie_averaged} tie-averaged: equal scores in the top K change it as the policy orders them "
            f"(a tie straddles K in {self.ties} of the {count(self.queries, 'query')} of its mean)"
        )


_CORRECTED = {Correction.HOLM: "Holm-corrected", Correction.BH: "Benjamini-Hochberg-corrected"}


def superscripts_note(stats: StatsSettings) -> str:
    """What a run's superscript letters mean, said where they are shown (the tables' heading, the captions).

    ranx's reports print the same letters from uncorrected p-values: a reader who knows them must be told.

    >>> print(superscripts_note(StatsSettings()))  # doctest: +NORMALIZE_WHITESPACE
    superscripts: the runs it beats significantly (paired t test, p-values Holm-corrected over the pairs at each K,
    below alpha 0.05; ranx's look-alike superscripts are not corrected)
    """
    how = _CORRECTED.get(stats.correction)
    corrected_p = (
        f"p-values {how} over the pairs at each K" if how else "p-values not corrected for multiple comparisons"
    )
    after = "; ranx's look-alike superscripts are not corrected" if how else ", as ranx's"
    return (
        f"superscripts: the runs it beats significantly (paired {stats.test} test, {corrected_p}, below alpha "
        f"{stats.alpha:g}{after})"
    )


def residual_note(manifest: JsonObject) -> str:
    """``residual from pool version 1 (sha256 …): 40 judgments removed``, for a manifest scored residually; else ""."""
    residual = manifest.get("residual")
    if not isinstance(residual, dict):
        return ""
    return (
        f"residual from pool version {residual['from_version']} (sha256 {str(residual['from_hash'])[:12]}…): "
        f"{count(residual['judgments_removed'], 'judgment')} removed, {residual['judgments_left']} left; "
        "documents removed "
        "from each run in the manifest"
    )


@dataclass(frozen=True)
class FewQueries:
    """At cut-off ``k``, the pairs (a, b, queries) compared over fewer than :data:`FEW_QUERIES` queries."""

    k: int
    pairs: tuple[tuple[str, str, int], ...]

    def text(self) -> str:
        """The warning ``ndcg compare`` prints and the manifest records."""
        listed = ", ".join(f"{a} vs {b} ({n})" for a, b, n in self.pairs)
        return (
            f"K={self.k}: compared over fewer than {FEW_QUERIES} queries: {listed}; the tests have little power "
            "and the intervals are rough"
        )


def find_few_queries(pairs: pd.DataFrame) -> list[FewQueries]:
    """Per cut-off, the pairs compared over fewer than :data:`FEW_QUERIES` queries (none: no entry)."""
    out = []
    for k, at in pairs.groupby("k", sort=False):
        few = at[at["queries"] < FEW_QUERIES]
        if len(few):
            listed = zip(few["a"], few["b"], few["queries"], strict=True)
            out.append(FewQueries(int(k), tuple((str(a), str(b), int(n)) for a, b, n in listed)))
    return out


def few_queries(pairs: pd.DataFrame) -> list[str]:
    """A warning per cut-off where a pair is compared over fewer than :data:`FEW_QUERIES` queries."""
    return [found.text() for found in find_few_queries(pairs)]
