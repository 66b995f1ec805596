"""Pooling strategies as named values: which documents of a query's runs are judged, and in which order.

Four strategies, declared once in :data:`STRATEGIES` (every parameter with its default, bounds and description,
as :data:`ndcg_desktop.domain.choices.CHOICES` declares the evaluation choices): the command line's help, the
window's controls and the docs table are generated from it.

- ``depth``: the depth reference order. Rank 1 of every run in the order the runs were given, then rank 2, and
  so on, each document once (at its first appearance). Without a budget it is depth-k pooling (what
  ``ndcg pool`` adds); at a budget it is that order's prefix.
- ``rrf``: documents ranked by the sum over runs of 1 / (k + rank), k = 60 (Cormack, Clarke and Buettcher,
  SIGIR 2009), the top of that list within the budget; trectools' ``TrecPoolMaker`` "rrf" pool.
- ``rbp``: documents ranked by (1 - p) * p^(rank - 1), p = 0.8 (Moffat and Zobel, TOIS 2008), summed or
  maximised over runs; trectools' "rbp" pool. For ``rrf`` and ``rbp`` ranks are 1-based positions in each
  run's ranking cut at the depth, the contributions are added in the order the runs were given, and equal
  scores are ordered by document ID ascending (plain string comparison): trectools sorts the scores of a
  ``groupby(["query", "docid"])`` (keys ascending) with pandas' stable multi-column sort, so its ties fall the
  same way. trectools scores every rank a run has; here only the ranks within the depth count (the pool
  every strategy chooses from is the depth pool), which is trectools' pool when the depth covers the runs.
- ``maxmean``: the adaptive multi-armed bandit of Losada, Parapar and Barreiro ("Feeling lucky? Multi-armed
  bandits for ordering judgements in pooling-based evaluation", SAC 2016; "Multi-armed bandits for adjudicating
  documents in pooling-based evaluation of information retrieval systems", IP&M 53(5), 2017); see
  :func:`maxmean_next_batch`.

A run's ranking is a sequence of document IDs, best first; a repeated ID counts at its first position only
(depth pooling keeps the first occurrence, rule 5), and the depth counts distinct documents.

>>> runs = [["a", "b", "c"], ["b", "d", "a"], ["e", "a", "f"]]
>>> choose(Strategy.parse("depth"), runs, None, 3)
['a', 'b', 'e', 'd', 'c', 'f']
>>> choose(Strategy.parse("rrf(k=60)"), runs, Budget.parse("2"), 3)
['a', 'b']
"""

from __future__ import annotations

import heapq
import math
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from fractions import Fraction

from ndcg_desktop.domain.choices import QT_TRANSLATE_NOOP
from ndcg_desktop.domain.errors import InputError
from ndcg_desktop.domain.natural import natural_key

Value = int | float | str | None
Rankings = Sequence[Sequence[str]]
# People's grades of judged documents, or an oracle: a document a mapping lacks is non-relevant.
Grades = Mapping[str, int] | Callable[[str], int]

_WHOLE = re.compile(r"[+-]?[0-9]{1,18}")
_DECIMAL = re.compile(r"[+-]?([0-9]{1,30}(\.[0-9]{0,30})?|\.[0-9]{1,30})([eE][+-]?[0-9]{1,3})?")
_NAME = re.compile(r"[a-z][a-z0-9_]*")


@dataclass(frozen=True)
class Parameter:
    """One parameter of a strategy: its type, default, bounds and words."""

    name: str
    kind: type  # int, float or str (one of ``choices``)
    default: Value  # None: none given (``depth``'s k: the depth itself)
    description: str  # one line: what it decides (the command line's help, the docs table)
    label: str  # the window's title for it (translated)
    low: float | None = None
    high: float | None = None
    open_low: bool = False  # ``low`` itself excluded
    open_high: bool = False
    choices: tuple[str, ...] = ()

    def bounds(self) -> str:
        """Its allowed values in words: ``above 0 and below 1``, ``sum|max``."""
        if self.choices:
            return "|".join(self.choices)
        low = "" if self.low is None else f"{'above' if self.open_low else 'from'} {self.low:g}"
        high = "" if self.high is None else f"{'below' if self.open_high else 'up to'} {self.high:g}"
        return " and ".join(part for part in (low, high) if part)

    def check(self, value: Value, strategy: str) -> Value:
        """``value`` if it is one this parameter takes, else an :class:`InputError` naming it."""
        if value is None and self.default is None:
            return None
        what = f"{strategy}'s {self.name}"
        if self.kind is str:
            if not isinstance(value, str) or value not in self.choices:
                raise InputError(f"{what} must be one of {self.bounds()}, not {value!r}")
            return value
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise InputError(f"{what} must be a number ({self.bounds()}), not {value!r}")
        if self.kind is int and (not float(value).is_integer()):
            raise InputError(f"{what} must be a whole number ({self.bounds()}), not {value!r}")
        number: int | float = int(value) if self.kind is int else float(value)
        above = self.low is None or (number > self.low if self.open_low else number >= self.low)
        below = self.high is None or (number < self.high if self.open_high else number <= self.high)
        if not (math.isfinite(number) and above and below):
            raise InputError(f"{what} must be a number {self.bounds()}, not {value!r}")
        return number

    def parse(self, text: str, strategy: str) -> Value:
        """The value written as ``text`` (ASCII digits for numbers)."""
        text = text.strip()
        if self.kind is str:
            return self.check(text, strategy)
        pattern = _WHOLE if self.kind is int else _DECIMAL
        if not pattern.fullmatch(text):
            kind = "whole number" if self.kind is int else "decimal number"
            raise InputError(f"{strategy}'s {self.name} must be a {kind} ({self.bounds()}), not {text[:40]!r}")
        return self.check(int(text) if self.kind is int else float(text), strategy)

    def format(self, value: Value) -> str:
        """The value's text, which :meth:`parse` reads back to the same value."""
        return repr(value) if isinstance(value, float) else str(value)


@dataclass(frozen=True)
class StrategySpec:
    """A strategy's declaration: its name, words, parameters and whether it needs grades as it goes."""

    name: str
    label: str  # the window's name for it (translated)
    description: str  # one line for the command line's help and the docs
    adaptive: bool  # chooses from grades given so far (people's only: rule 20)
    parameters: tuple[Parameter, ...]
    source: str  # where the definition comes from

    def parameter(self, name: str) -> Parameter:
        for parameter in self.parameters:
            if parameter.name == name:
                return parameter
        known = ", ".join(p.name for p in self.parameters) or "none"
        raise InputError(f"strategy {self.name} has no parameter {name!r} (its parameters: {known})")


STRATEGIES: tuple[StrategySpec, ...] = (
    StrategySpec(
        "depth",
        QT_TRANSLATE_NOOP("pooling", "Depth (top K of every run)"),
        "rank 1 of every run in the order given, then rank 2, and so on, each document once; a budget takes "
        "that order's prefix",
        adaptive=False,
        parameters=(
            Parameter(
                "k",
                int,
                None,
                "documents per run (default: the pool's depth)",
                QT_TRANSLATE_NOOP("pooling", "Documents per run"),
                low=1,
            ),
        ),
        source="depth-k pooling (Sparck Jones and van Rijsbergen 1975; TREC)",
    ),
    StrategySpec(
        "rrf",
        QT_TRANSLATE_NOOP("pooling", "Reciprocal rank fusion"),
        "documents by the sum over runs of 1/(k + rank), the top of that list within the budget",
        adaptive=False,
        parameters=(
            Parameter(
                "k",
                int,
                60,
                "the constant added to each rank (Cormack et al. 2009: 60)",
                QT_TRANSLATE_NOOP("pooling", "Rank constant k"),
                low=0,
            ),
        ),
        source="Cormack, Clarke and Buettcher, SIGIR 2009; trectools TrecPoolMaker(strategy='rrf')",
    ),
    StrategySpec(
        "rbp",
        QT_TRANSLATE_NOOP("pooling", "Rank-biased precision"),
        "documents by (1 - p)·p^(rank - 1), summed or maximised over runs, the top within the budget",
        adaptive=False,
        parameters=(
            Parameter(
                "p",
                float,
                0.8,
                "the persistence: the chance of looking one rank further",
                QT_TRANSLATE_NOOP("pooling", "Persistence p"),
                low=0,
                high=1,
                open_low=True,
                open_high=True,
            ),
            Parameter(
                "aggregate",
                str,
                "sum",
                "how the runs' weights of a document combine: sum or max",
                QT_TRANSLATE_NOOP("pooling", "Over runs"),
                choices=("sum", "max"),
            ),
        ),
        source="Moffat and Zobel, TOIS 2008; trectools TrecPoolMaker(strategy='rbp')",
    ),
    StrategySpec(
        "maxmean",
        QT_TRANSLATE_NOOP("pooling", "MaxMean (adaptive bandit)"),
        "each run an arm; the next document from the run with the highest (relevant + 1)/(seen + 2), judged "
        "documents free",
        adaptive=True,
        parameters=(),
        source="Losada, Parapar and Barreiro, SAC 2016 and IP&M 53(5) 2017",
    ),
)
BY_NAME: dict[str, StrategySpec] = {spec.name: spec for spec in STRATEGIES}


def _spec(name: str) -> StrategySpec:
    spec = BY_NAME.get(name)
    if spec is None:
        known = ", ".join(BY_NAME)
        raise InputError(f"unknown pooling strategy {name[:40]!r}: it must be one of {known}")
    return spec


@dataclass(frozen=True)
class Strategy:
    """A pooling strategy with every parameter's value: one frozen value, its text form round-trips.

    Two strategies with the same values are equal, whichever were written out:

    >>> s = Strategy.parse("rbp(aggregate=max)")
    >>> str(s), s["p"], Strategy.parse(str(s)) == s
    ('rbp(p=0.8,aggregate=max)', 0.8, True)
    >>> str(Strategy.of("rrf")), str(Strategy.parse("maxmean")), str(Strategy.parse("depth(k=10)"))
    ('rrf(k=60)', 'maxmean()', 'depth(k=10)')
    """

    name: str
    values: tuple[tuple[str, Value], ...]  # every parameter of the spec, in its order

    def __post_init__(self) -> None:
        spec = _spec(self.name)
        given = dict(self.values)
        if [n for n, _ in self.values] != [p.name for p in spec.parameters]:
            for name in given:
                spec.parameter(name)  # an unknown name is refused by name
            raise InputError(f"strategy {self.name}: every parameter must be given once, in its order")
        checked = tuple((p.name, p.check(given[p.name], self.name)) for p in spec.parameters)
        object.__setattr__(self, "values", checked)

    @classmethod
    def of(cls, name: str, **values: Value) -> Strategy:
        """The strategy ``name`` with ``values``, every other parameter at its default."""
        spec = _spec(name)
        for key in values:
            spec.parameter(key)
        return cls(name, tuple((p.name, values.get(p.name, p.default)) for p in spec.parameters))

    @classmethod
    def parse(cls, text: str) -> Strategy:
        """A strategy from ``name`` or ``name(key=value,...)``; parameters left out take their defaults."""
        match = re.fullmatch(r"\s*([A-Za-z0-9_]+)\s*(?:\((.*)\))?\s*", text[:400], flags=re.DOTALL)
        if match is None or len(text) > 400:
            raise InputError(f"a pooling strategy must look like name or name(key=value,...), not {text[:40]!r}")
        name, inside = match.group(1), match.group(2)
        spec = _spec(name)
        values: dict[str, Value] = {}
        for part in (inside or "").split(","):
            if not part.strip():
                if inside is not None and inside.strip() and not part.strip():
                    raise InputError(f"strategy {name}: an empty parameter in {text[:60]!r}")
                continue
            key, equals, raw = part.partition("=")
            key = key.strip()
            if not equals:
                raise InputError(f"strategy {name}: a parameter must be written key=value, not {part.strip()[:40]!r}")
            parameter = spec.parameter(key)
            if key in values:
                raise InputError(f"strategy {name}: parameter {key} is given twice")
            values[key] = parameter.parse(raw, name)
        return cls.of(name, **values)

    def __str__(self) -> str:
        spec = self.spec
        shown = [f"{n}={spec.parameter(n).format(v)}" for n, v in self.values if v is not None]
        return f"{self.name}({','.join(shown)})"

    def __getitem__(self, name: str) -> Value:
        self.spec.parameter(name)
        return dict(self.values)[name]

    @property
    def spec(self) -> StrategySpec:
        return _spec(self.name)

    @property
    def adaptive(self) -> bool:
        return self.spec.adaptive


def parse_strategies(text: str) -> tuple[Strategy, ...]:
    """Strategies separated by commas outside parentheses: ``depth,rbp(p=0.9,aggregate=max),maxmean``.

    >>> [str(s) for s in parse_strategies("depth, rrf")]
    ['depth()', 'rrf(k=60)']
    """
    parts, depth, current = [], 0, ""
    for char in text:
        depth += (char == "(") - (char == ")")
        if char == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += char
    parts.append(current)
    strategies = tuple(Strategy.parse(part) for part in parts if part.strip())
    if not strategies:
        raise InputError(f"no pooling strategy in {text[:40]!r}: give one or more of {', '.join(BY_NAME)}")
    repeated = sorted({str(s) for s in strategies if strategies.count(s) > 1})
    if repeated:
        raise InputError(f"pooling strategy {repeated[0]} is given twice")
    return strategies


def strategies_help() -> str:
    """Every strategy with its parameters, defaults and descriptions: the command line's help and the docs."""
    lines = []
    for spec in STRATEGIES:
        params = "; ".join(
            f"{p.name}: {p.description}" + ("" if p.default is None else f", default {p.format(p.default)}")
            for p in spec.parameters
        )
        lines.append(f"{spec.name}: {spec.description}" + (f" ({params})" if params else ""))
    return "; ".join(lines)


@dataclass(frozen=True)
class Budget:
    """How many documents a strategy may choose: per query or in total, a number or a share of the depth pool.

    Text forms: ``10`` (10 per query), ``10%`` (a tenth of each query's depth pool, rounded down), ``total:500``
    (500 over all queries), ``total:10%`` (a tenth of all queries' depth pools together, rounded down).

    A total is divided among the queries by :func:`per_query_budgets` in equal shares, max-min fair: a query
    whose depth pool is no larger than an equal share of what is left gets its whole pool, and the rest is
    shared again among the others; once every remaining pool is larger than the share, each of those queries
    gets floor(rest / queries), and the first rest mod queries of them in natural order one more. A total
    above all the pools together judges every pool whole.

    >>> Budget.parse("10%").for_query(37), str(Budget.parse("total:12.50%")), Budget.parse("25").for_query(7)
    (3, 'total:12.5%', 7)
    """

    count: int | None = None
    percent: Decimal | None = None  # exact, so 29% of 100 is 29 (floating point would give 28)
    total: bool = False

    def __post_init__(self) -> None:
        if (self.count is None) == (self.percent is None):
            raise InputError("a budget is either a number of documents or a share of the depth pool")
        if self.count is not None and self.count < 1:
            raise InputError(f"a budget must be at least 1 document, not {self.count}")
        if self.percent is not None and not Decimal(0) < self.percent <= Decimal(100):
            raise InputError(f"a budget's share must be above 0% and at most 100%, not {self.percent}%")

    @classmethod
    def parse(cls, text: str) -> Budget:
        """A budget from its text form (see the class)."""
        value = text.strip()
        total = value.startswith("total:")
        if total:
            value = value[len("total:") :].strip()
        if value.endswith("%"):
            number = value[:-1].strip()
            if not _DECIMAL.fullmatch(number):
                raise InputError(f"a budget's share must be a decimal number of percent, not {text[:40]!r}")
            try:
                return cls(percent=Decimal(number), total=total)
            except InvalidOperation:
                raise InputError(f"a budget's share must be a decimal number of percent, not {text[:40]!r}") from None
        if not _WHOLE.fullmatch(value):
            raise InputError(
                f"a budget must be a number of documents, a share such as 10%, or total:N, not {text[:40]!r}"
            )
        return cls(count=int(value), total=total)

    def __str__(self) -> str:
        amount = str(self.count) if self.count is not None else f"{_plain(self.percent)}%"
        return f"total:{amount}" if self.total else amount

    @property
    def share(self) -> float | None:
        """The share of the depth pool as a fraction (0.1 for 10%), None for a number of documents."""
        return None if self.percent is None else float(Fraction(self.percent) / 100)

    def of(self, pool_size: int) -> int:
        """The budget's documents out of ``pool_size``: its number (at most the pool), or its share rounded down."""
        if self.count is not None:
            return min(self.count, pool_size)
        assert self.percent is not None
        return math.floor(Fraction(self.percent) * pool_size / 100)

    def for_query(self, pool_size: int) -> int:
        """A per-query budget for a query whose depth pool holds ``pool_size`` documents."""
        if self.total:
            raise InputError(f"budget {self} is a total: divide it among the queries first (per_query_budgets)")
        return self.of(pool_size)


def _plain(number: Decimal | None) -> str:
    assert number is not None
    text = format(number.normalize(), "f")
    return text


def per_query_budgets(budget: Budget, pool_sizes: Mapping[str, int]) -> dict[str, int]:
    """Each query's number of documents under ``budget``, by query in natural order (see :class:`Budget`).

    >>> per_query_budgets(Budget.parse("total:10"), {"q2": 2, "q1": 9, "q10": 9})
    {'q1': 4, 'q2': 2, 'q10': 4}
    """
    ids = sorted(pool_sizes, key=natural_key)
    if not budget.total:
        return {q: budget.for_query(pool_sizes[q]) for q in ids}
    whole = sum(pool_sizes.values())
    remaining = min(budget.of(whole), whole)
    given = dict.fromkeys(ids, 0)
    open_ids = [q for q in ids if pool_sizes[q] > 0]
    while open_ids:
        level = remaining // len(open_ids)
        small = [q for q in open_ids if pool_sizes[q] <= level]
        if not small:  # every open pool holds more than an equal share: equal shares, the first ones one more
            extra = remaining - level * len(open_ids)
            for i, q in enumerate(open_ids):
                given[q] = level + (1 if i < extra else 0)
            break
        for q in small:  # these pools are used up; the rest is shared again
            given[q] = pool_sizes[q]
            remaining -= pool_sizes[q]
        open_ids = [q for q in open_ids if pool_sizes[q] > level]
    return given


# -- the depth pool and its reference order ------------------------------------------------------------------


def _distinct(ranking: Sequence[str], depth: int) -> Iterator[str]:
    """The first ``depth`` distinct IDs of a ranking (a repeat counts at its first position only)."""
    seen: set[str] = set()
    for doc in ranking:
        if len(seen) >= depth:
            return
        if doc not in seen:
            seen.add(doc)
            yield doc


def _cut(rankings: Rankings, depth: int) -> list[list[str]]:
    if depth < 1:
        raise InputError(f"the pool depth must be a positive integer, not {depth}")
    return [list(_distinct(ranking, depth)) for ranking in rankings]


def depth_order(rankings: Rankings, depth: int) -> list[str]:
    """The depth reference order: rank 1 of every run in the order given, then rank 2, ..., each document once.

    Its whole length is the query's depth pool (what ``ndcg pool --depth`` adds).

    >>> depth_order([["a", "b"], ["b", "c"], ["d"]], 2)
    ['a', 'b', 'd', 'c']
    """
    return _round_robin(_cut(rankings, depth))


def _round_robin(cut: list[list[str]]) -> list[str]:
    order: dict[str, None] = {}
    for position in range(max((len(r) for r in cut), default=0)):
        for ranking in cut:
            if position < len(ranking):
                order.setdefault(ranking[position], None)
    return list(order)


def pool_size(rankings: Rankings, depth: int) -> int:
    """The number of distinct documents in the top ``depth`` of the rankings: what a share of a budget is of."""
    return len({doc for ranking in _cut(rankings, depth) for doc in ranking})


# -- fused orders: rrf and rbp -------------------------------------------------------------------------------


def fused_scores(strategy: Strategy, rankings: Rankings, depth: int) -> dict[str, float]:
    """Each document's rrf or rbp score over the rankings cut at ``depth`` (rank 1-based, runs in order given).

    >>> fused_scores(Strategy.of("rrf", k=1), [["a", "b"], ["b"]], 2) == {"a": 1 / 2, "b": 1 / 3 + 1 / 2}
    True
    """
    cut = _cut(rankings, depth)
    scores: dict[str, float] = {}
    if strategy.name == "rrf":
        k = strategy["k"]
        assert isinstance(k, int)
        for ranking in cut:
            for rank, doc in enumerate(ranking, start=1):
                scores[doc] = scores.get(doc, 0.0) + 1.0 / (k + rank)
        return scores
    if strategy.name != "rbp":
        raise InputError(f"strategy {strategy.name} has no fused score (rrf and rbp have)")
    p, aggregate = strategy["p"], strategy["aggregate"]
    assert isinstance(p, float)
    for ranking in cut:
        for rank, doc in enumerate(ranking, start=1):
            weight = (1.0 - p) * p ** (rank - 1)
            if doc not in scores:
                scores[doc] = weight
            elif aggregate == "sum":
                scores[doc] += weight
            else:
                scores[doc] = max(scores[doc], weight)
    return scores


def _fused_order(strategy: Strategy, rankings: Rankings, depth: int) -> list[str]:
    scores = fused_scores(strategy, rankings, depth)
    # trectools: score descending, equal scores by document ID ascending (see the module's docstring)
    return sorted(scores, key=lambda doc: (-scores[doc], doc))


# -- MaxMean ---------------------------------------------------------------------------------------------------


class _Arm:
    """A run as a bandit arm: a pointer into its ranking within the depth, and what it has observed."""

    __slots__ = ("ranking", "depth", "position", "taken", "seen", "relevant", "observed")

    def __init__(self, ranking: Sequence[str], depth: int) -> None:
        self.ranking, self.depth = ranking, depth
        self.position = 0  # the next index into ``ranking``
        self.taken = 0  # distinct documents passed
        self.seen: set[str] = set()
        self.relevant = 0
        self.observed = 0

    def next_document(self) -> str | None:
        """The arm's next distinct document within the depth (the pointer moves past it), or None."""
        ranking = self.ranking
        while self.taken < self.depth and self.position < len(ranking):
            doc = ranking[self.position]
            self.position += 1
            if doc not in self.seen:
                self.seen.add(doc)
                self.taken += 1
                return doc
        return None

    def exhausted(self) -> bool:
        return self.taken >= self.depth or self.position >= len(self.ranking)

    def mean(self) -> float:
        """The mean of the Beta(1 + relevant, 1 + non-relevant) posterior: (relevant + 1) / (observed + 2).

        Division is correctly rounded, so equal fractions give equal floats and ties stay ties.
        """
        return (self.relevant + 1) / (self.observed + 2)


def _maxmean(
    rankings: Rankings, depth: int, known: dict[str, int], limit: int, reveal: Callable[[str], int] | None
) -> list[str]:
    """Sequential MaxMean from the start. ``known``: judged documents (free observations; in oracle mode each
    revealed grade joins it). ``reveal`` None: batch mode, an unjudged document joins the result without an
    observation; else oracle mode, it is judged (one of ``limit``) and observed. Stops at ``limit`` documents."""
    if depth < 1:
        raise InputError(f"the pool depth must be a positive integer, not {depth}")
    arms = [_Arm(ranking, depth) for ranking in rankings]
    # max mean first, ties by the order the runs were given: a heap of (-mean, index)
    heap = [(-0.5, i) for i, arm in enumerate(arms) if not arm.exhausted()]
    chosen: dict[str, None] = {}
    while heap and len(chosen) < limit:
        _, i = heap[0]
        arm = arms[i]
        doc = arm.next_document()
        if doc is not None:
            grade = known.get(doc)
            if grade is None and doc not in chosen:
                chosen[doc] = None
                if reveal is not None:
                    grade = known[doc] = reveal(doc)
            if grade is not None:
                arm.observed += 1
                arm.relevant += grade > 0
        if doc is None or arm.exhausted():
            heapq.heappop(heap)
        else:
            heapq.heapreplace(heap, (-arm.mean(), i))
    return list(chosen)


def maxmean_next_batch(rankings: Rankings, grades: Mapping[str, int], batch_size: int, depth: int) -> list[str]:
    """The next ``batch_size`` documents to judge for one query under MaxMean, given people's grades so far.

    Sequential MaxMean (Losada, Parapar and Barreiro, SAC 2016; IP&M 53(5), 2017) is run from the start with
    ``grades`` as a free oracle. Each run is an arm holding a pointer into its ranking within ``depth``. The
    next arm is the one with the highest (relevant seen + 1) / (seen + 2), the mean of a Beta(1, 1) prior
    updated by what it has seen (relevant: grade > 0), ties broken by the order the runs were given; its next
    document is taken:

    - a document already judged (in ``grades``) costs nothing and counts as that arm's observation with its
      known grade;
    - a document not yet judged joins the batch and advances its arm's pointer without an observation (its
      grade is unknown until the batch is graded);
    - a document already in the batch, reached by another arm, also advances without an observation.

    It stops when the batch is full or no arm has documents left. With ``batch_size`` 1, grading each
    returned document and asking again is exactly sequential MaxMean; :func:`choose` with an oracle gives
    the same order.

    >>> runs = [["a", "b", "c"], ["d", "e"]]
    >>> maxmean_next_batch(runs, {}, 2, 3)  # nothing seen: run 1 wins every tie
    ['a', 'b']
    >>> maxmean_next_batch(runs, {"a": 0}, 2, 3)  # run 1: 1/3 after a miss, run 2: 1/2
    ['d', 'e']
    """
    if batch_size < 1:
        raise InputError(f"the batch size must be a positive integer, not {batch_size}")
    return _maxmean(rankings, depth, dict(grades), batch_size, None)


def _oracle(grades: Grades | None, strategy: Strategy) -> Callable[[str], int]:
    if grades is None:
        raise InputError(f"strategy {strategy} is adaptive: it needs the grades of the documents it chooses")
    if callable(grades):
        return grades
    table = grades
    return lambda doc: table.get(doc, 0)  # a document the oracle lacks is non-relevant


def choose(
    strategy: Strategy,
    rankings: Rankings,
    budget: Budget | int | None,
    depth: int,
    grades: Grades | None = None,
) -> list[str]:
    """The documents ``strategy`` chooses for one query, in the order it chooses them.

    ``rankings``: one sequence of document IDs per run, in the order the runs were given. ``budget``: a
    per-query :class:`Budget`, a number of documents, or None (the whole depth pool); a total budget is divided
    by :func:`per_query_budgets` first. ``depth``: only each run's top ``depth`` documents are candidates.
    ``grades`` (only adaptive strategies read it): the oracle, a mapping (a document it lacks is non-relevant)
    or a function from document ID to grade; each document MaxMean chooses is judged by it.

    Every strategy's order is budget-free: a budget takes its prefix.

    >>> runs = [["a", "b", "c"], ["d", "e", "f"]]
    >>> choose(Strategy.of("maxmean"), runs, 3, 3, {"a": 1})  # a relevant: run 1 again; b a miss: 1/2 ties 1/2
    ['a', 'b', 'c']
    >>> choose(Strategy.of("maxmean"), runs, 3, 3, {"b": 1})  # a a miss (1/3): run 2 (1/2), d a miss: run 1
    ['a', 'd', 'b']
    """
    if depth < 1:
        raise InputError(f"the pool depth must be a positive integer, not {depth}")
    if isinstance(budget, Budget):
        limit = budget.for_query(pool_size(rankings, depth))
    elif budget is None:
        limit = pool_size(rankings, depth)
    else:
        if budget < 0:
            raise InputError(f"a budget must be at least 0 documents, not {budget}")
        limit = budget
    if strategy.name == "depth":
        k = strategy["k"]
        assert k is None or isinstance(k, int)
        return depth_order(rankings, depth if k is None else min(k, depth))[:limit]
    if strategy.name in ("rrf", "rbp"):
        return _fused_order(strategy, rankings, depth)[:limit]
    if strategy.name == "maxmean":
        return _maxmean(rankings, depth, {}, limit, _oracle(grades, strategy))
    raise InputError(f"strategy {strategy.name} cannot choose documents here")  # pragma: no cover - the table
