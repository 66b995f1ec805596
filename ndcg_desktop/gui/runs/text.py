"""The Runs view's settings line in the interface language.

The comparison's own line (``RunsComparison.settings_line``) is the record: the manifest and the captions keep it
word for word. The window shows the same line with its words translated; the nDCG specification in it
(``nDCG@5,10(gain=linear,...)``) is a formula, the same in every language, and so are the statistics' names.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from ndcg_desktop.tasks.comparing import ROUNDED_TO, RunsComparison
from ndcg_desktop.tasks.comparison_notes import FEW_QUERIES, FewQueries, TiesAtK

translate = QCoreApplication.translate


def settings_text(comparison: RunsComparison) -> str:
    """:meth:`RunsComparison.settings_line` in the window's words (in English, the line itself)."""
    ks = ",".join(str(k) for k in comparison.ks)
    spec = comparison.spec()
    stats = comparison.stats
    other = "percentile" if stats.ci_method == "bca" else "bca"
    described = translate(
        "runs",
        "{level} bootstrap CI ({method}; {other} also given), {resamples} resamples, seed {seed}; paired {test} "
        "test on b - a rounded to {rounding}, {correction} correction, alpha {alpha}; queries needed to detect "
        "{detect} at power {power} (per pair, from its own spread)",
    ).format(
        level=f"{stats.confidence:.0%}",
        method=stats.ci_method,
        other=other,
        resamples=stats.resamples,
        seed=stats.seed,
        test=stats.test,
        rounding=f"{ROUNDED_TO:g}",
        correction=stats.correction,
        alpha=f"{stats.alpha:g}",
        detect=f"{stats.detect:g}",
        power=f"{stats.power:g}",
    )
    against = (
        translate("runs", "against {run}").format(run=comparison.baseline)
        if comparison.baseline
        else translate("runs", "all pairs")
    )
    separator = translate("analysis", "; ", "separator between problems")
    parts = [f"nDCG@{ks}({spec}); {described}{separator}{against}"]
    if comparison.bound_note:
        parts.append(comparison.bound_note)  # the command line's note (the window's runs come with a scale)
    if comparison.choices_note:
        parts.append(
            translate("runs", "choices per run: {runs}").format(
                runs=comparison.choices_note.removeprefix("choices per run: ")
            )
        )
    return translate("analysis", "; ", "separator between problems").join(parts)


def few_queries_text(found: FewQueries) -> str:
    """The warning ``ndcg compare`` prints for pairs compared over fewer than 10 queries, in the window's words."""
    pairs = translate("analysis", ", ", "separator in a list").join(
        translate("runs", "{a} vs {b} ({queries})").format(a=a, b=b, queries=n) for a, b, n in found.pairs
    )
    return translate(
        "runs",
        "Warning: K={k}: compared over fewer than {few} queries: {pairs}; the tests have little power and the "
        "intervals are rough",
    ).format(k=found.k, few=FEW_QUERIES, pairs=pairs)


def ties_text(tie: TiesAtK) -> str:
    """The warning ``ndcg compare`` prints under a runs table whose mean the tie policy changes, in the window's
    words (rule 10)."""
    mean, tie_averaged = tie.figures()  # the decimals that tell them apart, as the command line prints them
    return translate(
        "runs",
        "Warning: K={k} {run}: mean {mean} under the tie policy ({policy}), {tie_averaged} tie-averaged: equal "
        "scores in the top K change it as the policy orders them (a tie straddles K in {ties} of the {queries} "
        "queries of its mean)",
    ).format(
        k=tie.k,
        run=tie.run,
        ties=tie.ties,
        queries=tie.queries,
        policy=tie.policy,
        mean=mean,
        tie_averaged=tie_averaged,
    )


def superscripts_text(comparison: RunsComparison) -> str:
    """:func:`~ndcg_desktop.tasks.comparison_notes.superscripts_note` in the window's words: the letters beside a mean
    come from corrected p-values, unlike ranx's look-alikes."""
    stats = comparison.stats
    if stats.correction == "none":
        text = translate(
            "runs",
            "Superscripts: the runs it beats significantly (paired {test} test, p-values not corrected for multiple "
            "comparisons, below alpha {alpha}, as ranx's)",
        )
    else:
        text = translate(
            "runs",
            "Superscripts: the runs it beats significantly (paired {test} test, p-values {correction}-corrected over "
            "the pairs at each K, below alpha {alpha}; ranx's look-alike superscripts are not corrected)",
        )
    names = {"holm": "Holm", "bh": "Benjamini-Hochberg"}
    correction = names.get(str(stats.correction), str(stats.correction))
    return text.format(test=stats.test, correction=correction, alpha=f"{stats.alpha:g}")
