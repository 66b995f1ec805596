"""The Runs view's settings line in the interface language.

The comparison's own line (``RunsComparison.settings_line``) is the record: the manifest and the captions keep it
word for word. The window shows the same line with its words translated; the nDCG specification in it
(``nDCG@5,10(gain=linear,...)``) is a formula, the same in every language, and so are the statistics' names.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from ndcg_desktop.tasks.comparing import FEW_QUERIES, FewQueries, RunsComparison

translate = QCoreApplication.translate


def settings_text(comparison: RunsComparison) -> str:
    """:meth:`RunsComparison.settings_line` in the window's words (in English, the line itself)."""
    ks = ",".join(str(k) for k in comparison.ks)
    spec = comparison.settings.to_text().split("(", 1)[1]
    stats = comparison.stats
    other = "percentile" if stats.ci_method == "bca" else "bca"
    described = translate(
        "runs",
        "{level} bootstrap CI ({method}; {other} also given), {resamples} resamples, seed {seed}; paired {test} "
        "test, {correction} correction, alpha {alpha}; queries needed to detect {detect} at power {power} (per "
        "pair, from its own spread)",
    ).format(
        level=f"{stats.confidence:.0%}",
        method=stats.ci_method,
        other=other,
        resamples=stats.resamples,
        seed=stats.seed,
        test=stats.test,
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
    parts = [f"nDCG@{ks}({spec}; {described}{separator}{against}"]
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
