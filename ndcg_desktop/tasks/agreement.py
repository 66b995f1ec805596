"""Agreement between annotators, and whether it matters for the systems (issue 15): written once, for both fronts.

The statistics are :func:`ndcg_desktop.scoring.agreement.agreement`. The systems check is Voorhees'
(2000): score every imported run against each annotator's grades and against the consensus (the pool
version's adjudicated grades) and see whether the ordering of the systems moves.

*An annotator's grades* are the frozen version with that annotator's rating in place of the
consensus grade on every item they rated (the same universe of judged documents for everyone, so
every flag and policy is the consensus's and only the grades differ). The means are taken over the
queries in which some item was rated by two or more annotators: elsewhere nobody's grade differs from
the consensus. Each run is scored by the one stored-run path (:func:`tasks.scoring.score_inputs`).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field, replace
from itertools import combinations
from pathlib import Path

import numpy as np
import pandas as pd

from ndcg_desktop.domain import DataTerms, EvalSettings, GradeScale, InputError, Measure, Qrels
from ndcg_desktop.domain.choices import DEFAULT_K
from ndcg_desktop.domain.counts import count, plural
from ndcg_desktop.domain.data import Source
from ndcg_desktop.domain.manifest import JsonObject
from ndcg_desktop.domain.names import is_model
from ndcg_desktop.domain.natural import natural_key
from ndcg_desktop.domain.progress import IsCancelled, Progress
from ndcg_desktop.formats.cells import IMPORTED, plain
from ndcg_desktop.formats.export import export_folder
from ndcg_desktop.scoring.agreement import AgreementReport, GroupFigures, agreement
from ndcg_desktop.scoring.agreement import Figure as Figure  # a figure with its reason when undefined
from ndcg_desktop.store import PoolVersion, Project
from ndcg_desktop.tasks.assessing.injection import PATTERNS, Flagged, flag_items, model_rated_items
from ndcg_desktop.tasks.scoring import NotScored, load_inputs, not_scored, score_inputs

CONSENSUS = "consensus"
# Why no run was compared (SystemsCheck.reason): a draft, no run, no item rated twice, no run scored.
NOT_COMPARED = ("draft", "no_runs", "no_shared_items", "none_scored")


@dataclass
class SystemsCheck:
    """Every run's mean nDCG under each judge (the consensus, then each annotator) and how the orderings agree."""

    judges: tuple[str, ...]  # CONSENSUS, then the annotators
    queries: tuple[str, ...]  # the queries the means are taken over
    means: pd.DataFrame  # run, then one column per judge: mean nDCG over ``queries`` (None: none in the mean)
    per_query: pd.DataFrame  # run, judge, query_id, ndcg, in_mean
    taus: list[tuple[str, str, Figure]]  # Kendall's tau between the orderings under two judges
    refused: dict[str, NotScored] = field(default_factory=dict)  # run -> why it could not be scored
    why: str = ""  # when nothing was compared: why (the command line's sentence)
    reason: str = ""  # the same, for a front to word: one of NOT_COMPARED

    def taus_frame(self) -> pd.DataFrame:
        rows = [
            {"judge_a": a, "judge_b": b, "kendall_tau": tau.value, "undefined": tau.why if tau.value is None else ""}
            for a, b, tau in self.taus
        ]
        return pd.DataFrame(rows, columns=["judge_a", "judge_b", "kendall_tau", "undefined"])


def annotator_qrels(consensus: Qrels, ratings: pd.DataFrame, annotator: str) -> Qrels:
    """The consensus judgments with ``annotator``'s rating in place of the grade on every item they rated.

    Ratings of items outside the version are ignored (they are not in its universe).
    """
    mine = ratings.loc[(ratings["annotator"] == annotator) & ratings["grade"].notna(), ["query_id", "doc_id", "grade"]]
    frame = consensus.frame.merge(mine, on=["query_id", "doc_id"], how="left", suffixes=("", "_rated"))
    rated = frame["grade_rated"].notna()
    frame["grade"] = np.where(rated, frame["grade_rated"].fillna(0), frame["grade"]).astype(np.int64)
    frame = frame.drop(columns="grade_rated")
    text = frame[["query_id", "doc_id", "grade"]].to_csv(sep="\t", header=False, index=False, lineterminator="\n")
    source = Source(
        path=f"{consensus.source.path} graded by {annotator}",
        sha256=hashlib.sha256(text.encode()).hexdigest(),
        format="pool with one annotator's ratings",
    )
    return Qrels(frame=frame, source=source)


def kendall_tau(x: list[float], y: list[float]) -> Figure:
    """Kendall's tau-b between two orderings of the same runs (scipy), or why it is undefined."""
    if len(x) < 2:
        return Figure(None, "needs two or more scored runs")
    if len(set(x)) == 1 or len(set(y)) == 1:
        return Figure(None, "every run has the same mean under one of the two")
    from scipy.stats import kendalltau  # imported on use: scipy takes a while to import

    value = float(kendalltau(x, y).statistic)
    return Figure(value) if np.isfinite(value) else Figure(None, "tau is undefined for these means")


def check_systems(
    project: Project,
    version: PoolVersion,
    ratings: pd.DataFrame,
    report: AgreementReport,
    base: EvalSettings,
    k: int = DEFAULT_K,
    *,
    progress: Progress | None = None,
    cancelled: IsCancelled | None = None,
) -> SystemsCheck:
    """Score every imported run at ``k`` against the consensus and each annotator's grades of a frozen ``version``.

    ``ratings`` and ``report`` are the version's ratings and their agreement report. A run whose
    scoring is refused (a flag group without a policy in ``base``) is listed in ``refused`` with the
    reason; the others are compared.
    """
    judges = (CONSENSUS, *report.annotators)
    queries = tuple(group.query_id or "" for group in report.per_query)
    runs = [info.name for info in project.runs.all()]
    empty = SystemsCheck(judges, queries, pd.DataFrame(columns=["run", *judges]), _no_per_query(), [])
    if not version.frozen:
        empty.why = f"pool version {version.version} is a draft: systems are compared on a frozen version"
        empty.reason = "draft"
        return empty
    if not runs:
        empty.why, empty.reason = "no run is imported", "no_runs"
        return empty
    if not queries:
        empty.why, empty.reason = "no query has an item rated by two or more annotators", "no_shared_items"
        return empty
    per_query, refused = _score_everything(project, version, ratings, runs, judges, base, k, progress, cancelled)
    scored = [run for run in runs if run not in refused]
    means = _means(per_query, scored, judges, queries)
    taus = [(a, b, _tau(means, a, b)) for a, b in combinations(judges, 2)]
    why = "" if scored else "no run could be scored: " + "; ".join(f"{run}: {msg}" for run, msg in refused.items())
    return SystemsCheck(judges, queries, means, per_query, taus, refused, why, "" if scored else "none_scored")


def _score_everything(
    project: Project,
    version: PoolVersion,
    ratings: pd.DataFrame,
    runs: list[str],
    judges: tuple[str, ...],
    base: EvalSettings,
    k: int,
    progress: Progress | None,
    cancelled: IsCancelled | None,
) -> tuple[pd.DataFrame, dict[str, NotScored]]:
    """Per-query nDCG of every run under every judge (long table), and the runs refused with why."""
    consensus = project.pools.qrels(version.version)
    qrels = {CONSENSUS: consensus} | {name: annotator_qrels(consensus, ratings, name) for name in judges[1:]}
    parts: list[pd.DataFrame] = []
    refused: dict[str, NotScored] = {}
    total, done = len(runs) * len(judges), 0
    for run in runs:
        inputs = load_inputs(project, run, version.version)
        for judge in judges:
            done += 1
            if run in refused:
                continue
            try:
                evaluation = score_inputs(project, replace(inputs, qrels=qrels[judge]), base, k, cancelled=cancelled)
            except InputError as exc:  # the universe is the consensus's for every judge: refused under all
                refused[run] = not_scored(inputs, base, k, exc)
                continue
            table = evaluation.per_query[["query_id", "ndcg", "in_mean"]].copy()
            table.insert(0, "judge", judge)
            table.insert(0, "run", run)
            parts.append(table)
            if progress is not None:
                progress(done, total)
    return (pd.concat(parts, ignore_index=True) if parts else _no_per_query()), refused


def _no_per_query() -> pd.DataFrame:
    return pd.DataFrame(columns=["run", "judge", "query_id", "ndcg", "in_mean"])


def _means(per_query: pd.DataFrame, runs: list[str], judges: tuple[str, ...], queries: tuple[str, ...]) -> pd.DataFrame:
    """Mean nDCG of each run under each judge over ``queries`` (rows not in the mean left out; None when none)."""
    counted = per_query[per_query["query_id"].isin(queries) & per_query["in_mean"].astype(bool)]
    table = counted.groupby(["run", "judge"])["ndcg"].mean().unstack("judge")
    table = table.reindex(index=runs, columns=list(judges))
    out = table.astype(object).where(table.notna(), None).rename_axis(index="run", columns=None).reset_index()
    return out


def _tau(means: pd.DataFrame, a: str, b: str) -> Figure:
    both = means[means[a].notna() & means[b].notna()]
    return kendall_tau([float(v) for v in both[a]], [float(v) for v in both[b]])


# Two annotators identical on every item both rated are warned about as a likely duplicate (one file imported twice,
# one person under two names) only from this many shared items: over one or a few items, two honest people agree
# entirely by chance (two who give the same grade on 60% of items do so on all of 10 with probability 0.6^10 < 1%).
DUPLICATE_MIN_ITEMS = 10


@dataclass(frozen=True)
class Duplicate:
    """Two annotators who gave the same grade on every one of the ``items`` (at least :data:`DUPLICATE_MIN_ITEMS`)
    both rated: one file imported twice, or one person under two names. Their ratings would count twice."""

    a: str
    b: str
    items: int


@dataclass(frozen=True)
class WithoutDuplicates:
    """The overall figures with one annotator of each :class:`Duplicate` left out (``left_out``)."""

    left_out: tuple[str, ...]
    overall: GroupFigures
    remaining: tuple[str, ...] = ()  # every annotator but those left out (``overall.annotators``: those who share)


def find_duplicates(report: AgreementReport) -> tuple[Duplicate, ...]:
    """The pairs of ``report`` with raw agreement exactly 1 on at least :data:`DUPLICATE_MIN_ITEMS` shared items, in
    the report's order (fewer identical items are no evidence of a duplicate)."""
    return tuple(
        Duplicate(p.a, p.b, p.items)
        for p in report.overall.pairs
        if p.items >= DUPLICATE_MIN_ITEMS and p.raw.value == 1.0
    )


def left_out(report: AgreementReport, duplicates: tuple[Duplicate, ...]) -> tuple[str, ...]:
    """Who is left out to count each group of identical annotators once: all but one of each group.

    Kept is the one with the most ratings (it loses nothing of the others' on their shared items), on a tie a
    person rather than a file's import credit (``import:NAME``), then the first in natural order.

    >>> r = agreement(pd.DataFrame({"query_id": ["q"] * 20, "doc_id": [f"d{i // 2}" for i in range(20)],
    ...     "annotator": ["ana", "import:ana.qrels"] * 10, "grade": [i // 2 % 4 for i in range(20)]}), GradeScale(0, 3))
    >>> left_out(r, find_duplicates(r))
    ('import:ana.qrels',)
    """
    group = {name: name for d in duplicates for name in (d.a, d.b)}  # union-find over the identical pairs

    def root(name: str) -> str:
        while group[name] != name:
            name = group[name]
        return name

    for d in duplicates:
        group[root(d.a)] = root(d.b)
    counts = dict(zip(report.leniency["annotator"], report.leniency["ratings"], strict=True))
    members: dict[str, list[str]] = {}
    for name in group:
        members.setdefault(root(name), []).append(name)
    out: list[str] = []
    for names in members.values():
        kept = min(names, key=lambda n: (-int(counts.get(n, 0)), n.casefold().startswith(IMPORTED), natural_key(n)))
        out += [n for n in names if n != kept]
    return tuple(sorted(out, key=natural_key))


def without_duplicates(ratings: pd.DataFrame, report: AgreementReport, scale: GradeScale) -> WithoutDuplicates | None:
    """The overall figures with :func:`left_out` removed, or None when no two annotators are identical."""
    duplicates = find_duplicates(report)
    if not duplicates:
        return None
    gone = left_out(report, duplicates)
    kept = ratings[~ratings["annotator"].isin(gone)]
    remaining = tuple(name for name in report.annotators if name not in gone)
    return WithoutDuplicates(gone, agreement(kept, scale, per_query=False).overall, remaining)


@dataclass(frozen=True)
class ModelAgreement:
    """Rule 18: a model's agreement is its own line, never part of the people's headline. ``with_people``: the
    overall figures of the people's ratings and this model's (Krippendorff's alpha over them all, its items)."""

    name: str
    with_people: GroupFigures


def people_figures(ratings: pd.DataFrame, report: AgreementReport, scale: GradeScale) -> GroupFigures:
    """The headline figures: over the people's ratings only (a model's are left out: rule 18)."""
    if not any(map(is_model, report.annotators)):
        return report.overall
    people = ratings[~ratings["annotator"].map(is_model).astype(bool)]
    return agreement(people, scale, per_query=False).overall


def model_figures(ratings: pd.DataFrame, report: AgreementReport, scale: GradeScale) -> tuple[ModelAgreement, ...]:
    """Each model's own line: its ratings with the people's (the other models left out), in name order."""
    models = [name for name in report.annotators if is_model(name)]
    found = []
    for name in models:
        kept = ratings[~ratings["annotator"].isin([m for m in models if m != name])]
        found.append(ModelAgreement(name, agreement(kept, scale, per_query=False).overall))
    return tuple(found)


# Below this many shared items a kappa or an alpha is shown with a caveat: over one item it can only be 0 or 1 (or
# undefined), and over a handful it moves by a whole category with one rating.
FEW_SHARED_ITEMS = 10
# Kendall's tau between orderings of n runs takes only n(n-1)/2 + 1 values: with 2 runs 1 or -1, with 3 four values.
FEW_RUNS_FOR_TAU = 3


@dataclass(frozen=True)
class Caveat:
    """One thing to keep in mind reading the figures, with the numbers each front words it with. ``kind``:
    ``few_items`` (the people's alpha and the kappas rest on ``items`` shared items), ``few_pair_items`` (the kappas
    of ``pairs``, each (a, b, shared items), rest on few), ``few_model_items`` (model ``who``'s alpha with the people
    rests on ``items``), ``few_items_without`` (the figures without the duplicates ``who`` rest on ``items``),
    ``few_runs`` (Kendall's tau orders only ``runs`` runs), ``flagged_texts`` (``items`` of the ``of`` items a model
    rated have a document or topic text that addresses the grader, the first ``first``: tasks.assessing.injection)."""

    kind: str
    items: int = 0
    pairs: tuple[tuple[str, str, int], ...] = ()
    runs: int = 0
    who: str = ""  # few_model_items: the model; few_items_without: who was left out (", " between names)
    of: int = 0  # flagged_texts: the items a model rated, all checked
    first: tuple[str, ...] = ()  # flagged_texts: query, doc, field, pattern

    @property
    def tau_values(self) -> int:
        """How many values Kendall's tau can take over ``runs`` runs."""
        return self.runs * (self.runs - 1) // 2 + 1

    def text(self) -> str:
        """The sentence ``ndcg agreement`` prints (after ``caveat:``) and the manifest records."""
        if self.kind == "few_items":
            return (
                f"alpha and the kappas rest on {count(self.items, 'item')} rated by two or "
                f"more annotators (fewer than {FEW_SHARED_ITEMS}): over so few items they say little about agreement "
                "(over one, they can only be 0, 1 or undefined)"
            )
        if self.kind == "few_pair_items":
            few = ", ".join(f"{a} - {b} ({n})" for a, b, n in self.pairs)
            return f"the kappas of {few} rest on fewer than {FEW_SHARED_ITEMS} shared items"
        if self.kind == "few_model_items":
            return (
                f"{self.who}'s alpha with the people rests on {count(self.items, 'item')} "
                f"(fewer than {FEW_SHARED_ITEMS}): it says little about how far the model agrees with them"
            )
        if self.kind == "flagged_texts":
            return (
                f"{self.items} of the {count(self.of, 'item')} a model rated "
                f"{plural(self.items, 'has', 'have')} a document "
                f"or topic text that addresses the grader (the first: query {self.first[0]}, document {self.first[1]}, "
                f"{self.first[2]} matches {self.first[3]}; ndcg agreement lists every one): the model "
                "may have obeyed the text; read them before trusting its grades"
            )
        if self.kind == "few_items_without":
            return (
                f"the figures without {self.who} rest on {count(self.items, 'item')} rated by "
                f"two or more (fewer than {FEW_SHARED_ITEMS})"
            )
        return (
            f"Kendall's tau orders only {count(self.runs, 'run')}, so it takes one of {self.tau_values} values "
            f"({'1 or -1' if self.runs == 2 else '1, 1/3, -1/3 or -1'}): it says whether their order changes, "
            "little more"
        )


def find_caveats(
    report: AgreementReport,
    systems: SystemsCheck,
    *,
    people: GroupFigures | None = None,
    models: tuple[ModelAgreement, ...] = (),
    deduplicated: WithoutDuplicates | None = None,
    flagged: tuple[Flagged, ...] = (),
    model_items: int = 0,
) -> list[Caveat]:
    """What to keep in mind reading the figures: too few shared items for a kappa or an alpha (the people's headline,
    a pair's, a model's line, the figures without a duplicate), too few runs for Kendall's tau, items a model rated
    whose text addresses the grader (``flagged`` of ``model_items``). One each, in the order the figures are printed
    (:func:`caveats` words them). ``people``: the headline figures (default: the report's)."""
    found = []
    if flagged:
        f = flagged[0]
        first = (f.query_id, f.doc_id, f.field, f.pattern)
        found.append(Caveat("flagged_texts", items=len(flagged), of=model_items, first=first))
    overall = report.overall
    headline = people if people is not None else overall
    if 0 < headline.items < FEW_SHARED_ITEMS:
        found.append(Caveat("few_items", items=headline.items))
    found += [
        Caveat("few_model_items", items=m.with_people.items, who=m.name)
        for m in models
        if 0 < m.with_people.items < FEW_SHARED_ITEMS
    ]
    if deduplicated is not None and 0 < deduplicated.overall.items < FEW_SHARED_ITEMS:
        found.append(
            Caveat("few_items_without", items=deduplicated.overall.items, who=", ".join(deduplicated.left_out))
        )
    few = tuple((p.a, p.b, p.items) for p in overall.pairs if 0 < p.items < FEW_SHARED_ITEMS)
    if few and (len(few) < len(overall.pairs) or headline.items >= FEW_SHARED_ITEMS):  # else the first says it
        found.append(Caveat("few_pair_items", pairs=few))
    runs = len(systems.means)  # the runs scored
    if systems.taus and not systems.why and 2 <= runs <= FEW_RUNS_FOR_TAU:
        found.append(Caveat("few_runs", runs=runs))
    return found


def duplicate_text(d: Duplicate) -> str:
    """The warning ``ndcg agreement`` prints for two identical annotators, with how many items it rests on."""
    return (
        f"{plain(d.a)} and {plain(d.b)} gave the same grade on every one of the {count(d.items, 'item')} both "
        "rated (at "
        f"least {DUPLICATE_MIN_ITEMS}: one file imported twice, or one person under two names?); the figures above "
        "count those ratings twice"
    )


def without_text(dedup: WithoutDuplicates) -> str:
    """The figures without the duplicates, naming who remains (not only who still shares an item)."""
    gone = ", ".join(map(plain, dedup.left_out))
    remain = ", ".join(map(plain, dedup.remaining)) or "nobody"
    overall = dedup.overall
    if not overall.items:
        verb = "remains" if len(dedup.remaining) == 1 else "remain"
        return f"without {gone}: {remain} {verb}, with no item rated by two or more"
    return (
        f"without {gone}: alpha {overall.alpha.text(4)}, unanimous {overall.unanimous.text(4)} ({remain}: "
        f"{count(len(overall.annotators), 'annotator')} sharing {count(overall.items, 'item')})"
    )


def caveats(report: AgreementReport, systems: SystemsCheck) -> list[str]:
    """:func:`find_caveats` in ``ndcg agreement``'s words, one sentence each.

    >>> # one item rated by ana and ben: "alpha and the kappas rest on 1 item rated by two or more annotators ..."
    """
    return [caveat.text() for caveat in find_caveats(report, systems)]


@dataclass
class AgreementResult:
    """The agreement of a pool version's ratings, and (for a frozen version) the systems check."""

    version: PoolVersion
    report: AgreementReport
    systems: SystemsCheck
    settings: Measure  # the policies on the version's scale (each run scored with its own reading)
    k: int  # the cutoff the systems check scored at
    duplicates: tuple[Duplicate, ...] = ()
    deduplicated: WithoutDuplicates | None = None  # the figures counting each group of identical annotators once
    people: GroupFigures | None = None  # the headline: the people's ratings only (None: the report's overall)
    models: tuple[ModelAgreement, ...] = ()  # each model's own line (rule 18)
    flagged: tuple[Flagged, ...] = ()  # items a model rated whose text addresses the grader (issue 33 item 5)
    model_items: int = 0  # the items a model rated: those the detector read

    @property
    def headline(self) -> GroupFigures:
        """The figures the summary leads with: the people's (a model's agreement is its own line, rule 18)."""
        return self.people if self.people is not None else self.report.overall

    def people_names(self) -> tuple[str, ...]:
        return tuple(name for name in self.report.annotators if not is_model(name))

    def caveats(self) -> list[Caveat]:
        """Every caveat of this result: the one list the command line prints, the window shows and the manifest
        records (:func:`find_caveats`)."""
        return find_caveats(
            self.report,
            self.systems,
            people=self.headline,
            models=self.models,
            deduplicated=self.deduplicated,
            flagged=self.flagged,
            model_items=self.model_items,
        )

    def flagged_json(self) -> JsonObject:
        """The items a model rated whose document or topic text the detector flags, JSON-ready."""
        return {
            "detector": "tasks.assessing.injection: case-insensitive patterns, the first that matches named; "
            "conservative (misses paraphrases, other languages, encodings)",
            "patterns": {name: what for name, (what, _) in PATTERNS.items()},
            "items_checked": self.model_items,
            "items": [f.as_json() for f in self.flagged],
        }

    def warnings(self) -> list[str]:
        """One line per pair of identical annotators, then the figures without the duplicates (CLI and manifest;
        the window words the same values)."""
        lines = [duplicate_text(d) for d in self.duplicates]
        if self.deduplicated is not None:
            lines.append(without_text(self.deduplicated))
        return lines

    def duplicates_json(self) -> JsonObject:
        """The identical pairs and the figures without them, JSON-ready (``without_duplicates`` None if none)."""
        dedup = self.deduplicated
        return {
            "pairs": [{"a": d.a, "b": d.b, "items": d.items} for d in self.duplicates],
            "without_duplicates": None
            if dedup is None
            else {
                "left_out": list(dedup.left_out),
                "annotators": list(dedup.remaining),
                "annotators_sharing": list(dedup.overall.annotators),
                "shared_items": dedup.overall.items,
                "alpha_ordinal": dedup.overall.alpha.as_json(),
                "unanimous": dedup.overall.unanimous.as_json(),
            },
        }

    def manifest(self) -> JsonObject:
        """Rule 13 for the agreement export: what was compared, how, and with which tool."""
        from ndcg_desktop import __version__

        overall = self.headline
        return {
            "tool": {"name": "ndcg-desktop", "version": __version__},
            "pool_version": self.version.version,
            "pool_state": self.version.state,
            "pool_hash": self.version.hash,
            "scale": f"{self.report.grades[0]}..{self.report.grades[-1]}",
            "annotators": list(self.report.annotators),
            "rated_items": self.report.rated_items,
            "query_id": "an empty query_id in a table stands for all queries",
            "headline": "the people's ratings only: a model's agreement is its own entry under models (rule 18)",
            "people": list(self.people_names()),
            "shared_items": overall.items,
            "alpha_ordinal": overall.alpha.as_json(),
            "unanimous": overall.unanimous.as_json(),
            "models": {
                m.name: {
                    "shared_items": m.with_people.items,
                    "alpha_ordinal_with_people": m.with_people.alpha.as_json(),
                }
                for m in self.models
            },
            "duplicates": self.duplicates_json(),
            "flagged_texts": self.flagged_json(),
            "kappa": "Cohen's, linear and quadratic weights over the whole scale (scikit-learn cohen_kappa_score)",
            "alpha": "Krippendorff's alpha, ordinal level (krippendorff package)",
            "caveats": [caveat.text() for caveat in self.caveats()],
            "systems": {
                "settings": self.settings.as_dict(self.k),
                "judges": list(self.systems.judges),
                "queries": len(self.systems.queries),
                "runs_refused": {run: str(why) for run, why in self.systems.refused.items()},
                "not_compared": self.systems.why,
                "annotator_grades": "the pool version with the annotator's rating in place of the consensus "
                "grade on every item they rated (Voorhees 2000)",
            },
        }


AGREEMENT_FILES = (
    "agreement.csv",
    "pairs.csv",
    "confusion.csv",
    "leniency.csv",
    "leniency_by_query.csv",
    "systems_means.csv",
    "systems_per_query.csv",
    "systems_tau.csv",
    "manifest.json",
)


def agreement_tables(result: AgreementResult) -> dict[str, pd.DataFrame]:
    """Every table of an agreement result, by file name; ``query_id`` "" stands for all queries."""
    report, systems = result.report, result.systems
    return {
        "agreement.csv": report.groups_frame(),
        "pairs.csv": report.pairs_frame(),
        "confusion.csv": report.confusion,
        "leniency.csv": report.leniency,
        "leniency_by_query.csv": report.leniency_by_query,
        "systems_means.csv": systems.means,
        "systems_per_query.csv": systems.per_query,
        "systems_tau.csv": systems.taus_frame(),
    }


def export_agreement(result: AgreementResult, folder: str | Path) -> list[Path]:
    """Write the agreement tables as CSV with ``manifest.json`` into ``folder``, whole or not at all.

    The same checked, atomic writer as a score's export (``formats.export.export_folder``): text
    cells neutralised for spreadsheets, an earlier agreement export replaced whole, any other
    folder content refused.
    """
    return export_folder(agreement_tables(result), result.manifest(), folder, AGREEMENT_FILES)


def compute_agreement(
    project: Project,
    version: PoolVersion,
    ratings: pd.DataFrame,
    base: EvalSettings,
    k: int = DEFAULT_K,
    *,
    progress: Progress | None = None,
    cancelled: IsCancelled | None = None,
) -> AgreementResult:
    """The agreement report of ``ratings`` (a version's ratings table) and the systems check at ``k``."""
    report = agreement(ratings, version.scale, cancelled=cancelled)
    dedup = without_duplicates(ratings, report, version.scale)
    systems = check_systems(project, version, ratings, report, base, k, progress=progress, cancelled=cancelled)
    settings = base.under(DataTerms(version.scale))
    people = people_figures(ratings, report, version.scale)
    models = model_figures(ratings, report, version.scale)
    rated_by_models = model_rated_items(ratings)
    flagged = flag_items(project, rated_by_models)
    return AgreementResult(
        version,
        report,
        systems,
        settings,
        k,
        find_duplicates(report),
        dedup,
        people,
        models,
        flagged,
        len(rated_by_models),
    )


def load_agreement(
    project: Project,
    version: int | None,
    base: EvalSettings,
    k: int = DEFAULT_K,
    *,
    progress: Progress | None = None,
    cancelled: IsCancelled | None = None,
) -> AgreementResult:
    """The agreement of a pool version's ratings (``version`` None: the draft, else the latest frozen one).

    >>> # ndcg agreement p.ndcgproj --version 2 --unjudged zero is, in code:
    >>> # load_agreement(Project.open(p, read_only=True), 2, EvalSettings(unjudged="zero"))
    """
    from ndcg_desktop.tasks.teams import ratings_table

    chosen = (
        project.pools.version(version)
        if version is not None
        else project.pools.draft() or project.pools.latest_frozen()
    )
    if chosen is None:
        raise InputError("has no pool version yet", path=project.path)
    ratings = ratings_table(project, chosen.version)
    return compute_agreement(project, chosen, ratings, base, k, progress=progress, cancelled=cancelled)
