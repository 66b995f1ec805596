"""Evaluation settings: every choice that changes a number, named, validated, printable.

The user's policies (:class:`EvalSettings`) and what the data owns (:class:`DataTerms`) are two values, joined once
(:meth:`EvalSettings.under`) into the :class:`Measure` a kernel scores under. Modelled on ir_measures' measure
objects: its text form round-trips through :meth:`Measure.parse`, printed into every report and export.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any

from ndcg_desktop.domain.choices import CHOICES, DEFAULT_K, DEFAULT_SCALE, POLICY_CHOICES, _Choice
from ndcg_desktop.domain.choices import DuplicatePolicy as DuplicatePolicy
from ndcg_desktop.domain.choices import Gain as Gain
from ndcg_desktop.domain.choices import QuerySet as QuerySet
from ndcg_desktop.domain.choices import TiePolicy as TiePolicy
from ndcg_desktop.domain.choices import UnjudgedPolicy as UnjudgedPolicy
from ndcg_desktop.domain.choices import UnknownQueryPolicy as UnknownQueryPolicy
from ndcg_desktop.domain.choices import ZeroIdcgPolicy as ZeroIdcgPolicy
from ndcg_desktop.domain.chunks import ChunkMap, IdMap, describe_id_map
from ndcg_desktop.domain.errors import InputError

MAX_GRADES = 101  # grades in a scale (0..100 at most): one key and one button per grade
MAX_GRADE = 100  # |grade| at most: exponential gain 2^100 - 1 stays finite over any sum of documents
MAX_K = 2**31 - 1  # the largest cutoff K (positions are counted in 32 bits)
PER_RUN = "per run"  # a part of the reading that differs between the runs one line is about


@dataclass(frozen=True)
class GradeScale:
    """The inclusive integer range of grades a judgment may take.

    >>> GradeScale.parse("0..3")
    GradeScale(low=0, high=3)
    """

    low: int = DEFAULT_SCALE[0]
    high: int = DEFAULT_SCALE[1]

    def __post_init__(self) -> None:
        if self.low > self.high:
            raise InputError(f"grade scale {self.low}..{self.high} is empty: the low end is above the high end")

    def __str__(self) -> str:
        return f"{self.low}..{self.high}"

    @classmethod
    def parse(cls, text: str) -> GradeScale:
        """A scale from its text, ASCII digits only, at most :data:`MAX_GRADES` grades wide."""
        match = re.fullmatch(r"\s*(-?[0-9]{1,20})\s*\.\.\s*(-?[0-9]{1,20})\s*", text[:100])
        if not match:
            raise InputError(f"grade scale must look like LO..HI (for example 0..3), not {text[:40]!r}")
        scale = cls(int(match.group(1)), int(match.group(2)))
        if scale.low < -MAX_GRADE or scale.high > MAX_GRADE:  # 2^1024 is inf in floats, and inf / inf is NaN
            raise InputError(f"grade scale {scale}: grades must lie between -{MAX_GRADE} and {MAX_GRADE}")
        if scale.high - scale.low + 1 > MAX_GRADES:
            raise InputError(
                f"grade scale {scale} has {scale.high - scale.low + 1} grades; at most {MAX_GRADES} are allowed"
            )
        return scale


# Default grade labels by the number of grades from 0 ("not relevant") up; each front translates them.
LABEL_LADDERS: dict[int, tuple[str, ...]] = {
    1: ("Not relevant",),
    2: ("Not relevant", "Relevant"),
    3: ("Not relevant", "Relevant", "Highly relevant"),
    4: ("Not relevant", "Related", "Highly relevant", "Perfect"),
    5: ("Not relevant", "Marginally relevant", "Related", "Highly relevant", "Perfect"),
}
NUMBERED_LABEL = "Grade {grade}"  # a grade no ladder names (below 0, or under the top of a long scale)


def grade_label(grade: int | None, labels: Sequence[str], low: int) -> str:
    """A grade as every view shows it: with its label on a scale starting at ``low``; '—' when ungraded.

    >>> grade_label(2, ["Not relevant", "Related", "Highly relevant", "Perfect"], 0), grade_label(None, [], 0)
    ('2 · Highly relevant', '—')
    """
    if grade is None:
        return "—"
    i = grade - low
    label = labels[i] if 0 <= i < len(labels) else ""
    return f"{grade} · {label}" if label else str(grade)


def default_labels(scale: GradeScale) -> list[str]:
    """The labels a new project's grades get unless the user names them.

    A label follows its grade's gain: the ladder is always counted from 0, so "Not relevant" names grade 0 alone
    (the one grade that earns nothing and is never found) and a scale starting above 0 takes the ladder's upper
    rungs (1..3 is grades 1..3 of 0..3). Grades below 0, and the grades under the top of a scale whose count from
    0 has no ladder, are numbered.

    >>> default_labels(GradeScale(0, 4))
    ['Not relevant', 'Marginally relevant', 'Related', 'Highly relevant', 'Perfect']
    >>> default_labels(GradeScale(-1, 1))
    ['Grade -1', 'Not relevant', 'Relevant']
    >>> default_labels(GradeScale(0, 6))[::3]
    ['Not relevant', 'Grade 3', 'Perfect']
    >>> default_labels(GradeScale(1, 3)), default_labels(GradeScale(1, 5))[::2]
    (['Related', 'Highly relevant', 'Perfect'], ['Grade 1', 'Grade 3', 'Perfect'])
    """
    ladder = LABEL_LADDERS.get(scale.high + 1)  # grades 0..high
    labels = []
    for grade in range(scale.low, scale.high + 1):
        if grade < 0:
            labels.append(NUMBERED_LABEL.format(grade=grade))
        elif ladder is not None:
            labels.append(ladder[grade])
        elif grade in (0, scale.high):
            labels.append("Not relevant" if grade == 0 else "Perfect")
        else:
            labels.append(NUMBERED_LABEL.format(grade=grade))
    return labels


class Cutoffs(tuple[int, ...]):
    """The cut-offs K of one scoring, each a positive integer (rule 12) at most :data:`MAX_K`, each once, in the
    order given: checked here, where a front takes them, and handed unchanged to the kernel.

    >>> Cutoffs((5, 10)), Cutoffs.parse("10, 5"), Cutoffs()
    ((5, 10), (10, 5), (10,))
    """

    def __new__(cls, ks: Iterable[int] = (DEFAULT_K,)) -> Cutoffs:
        values = tuple(ks)
        if not values or len(set(values)) != len(values):
            raise InputError("give each cutoff once, and at least one")
        for k in values:
            if isinstance(k, bool) or not isinstance(k, int) or k < 1:
                raise InputError(f"the cutoff K must be a positive integer, not {k!r}")
            if k > MAX_K:
                raise InputError(f"the cutoff K must be at most {MAX_K}, not {k}")
        return super().__new__(cls, values)

    @classmethod
    def parse(cls, text: str, *, option: str = "--k") -> Cutoffs:
        """``"5,10,20"`` as (5, 10, 20); messages name the field as ``option`` (``--k``, the window's ``K``)."""
        ks: list[int] = []
        for part in text.split(","):
            part = part.strip()
            if not part.isascii() or not part.isdigit() or int(part) < 1:
                raise InputError(
                    f"{option} takes positive whole numbers separated by commas (5,10,20), not {text[:60]!r}"
                )
            if int(part) in ks:
                raise InputError(f"{option} names {part} twice")
            ks.append(int(part))
        return cls(ks)


@dataclass(frozen=True)
class DataTerms:
    """What the data owns, not the user: the judgments' grade scale and how the run is read (its tie policy and ID
    map). Taken once from the data (a frozen version's scale, a stored run's reading, the options that say how to
    read files) and joined with the policies by :meth:`EvalSettings.under`, nowhere else.

    >>> DataTerms(GradeScale(0, 2)).with_scale(GradeScale(0, 4))
    DataTerms(scale=GradeScale(low=0, high=4), ties=<TiePolicy.DOCID_DESC: 'docid-desc'>, id_map=None)
    """

    scale: GradeScale = field(default_factory=GradeScale)
    ties: TiePolicy = TiePolicy.DOCID_DESC
    id_map: IdMap | None = None  # a separator (cut each returned ID at its first one) or a chunk map file

    def __post_init__(self) -> None:
        if self.id_map is not None and self.id_map == "":
            raise InputError("the ID map separator must not be empty")
        if isinstance(self.id_map, dict):
            object.__setattr__(self, "id_map", ChunkMap.from_dict(self.id_map))
        if not isinstance(self.ties, TiePolicy):
            object.__setattr__(self, "ties", TiePolicy.from_text(str(self.ties), "ties"))
        if isinstance(self.scale, str):
            object.__setattr__(self, "scale", GradeScale.parse(self.scale))

    def with_scale(self, scale: GradeScale) -> DataTerms:
        """The same reading of the run, judged on ``scale`` (a pool version's own)."""
        return replace(self, scale=scale)

    def id_map_part(self) -> str | None:
        """The ID map as the settings text names it, None without one.

        >>> DataTerms(id_map="#").id_map_part()
        'id_map="#"'
        """
        if isinstance(self.id_map, ChunkMap):  # named by its hash and file name: "<sha256> <name>"
            return f"id_map_file={json.dumps(self.id_map.sha256 + ' ' + self.id_map.source)}"
        return None if self.id_map is None else f"id_map={json.dumps(self.id_map)}"


@dataclass(frozen=True)
class EvalSettings:
    """Every policy that decides an NDCG figure besides the data itself and the cut-off K: the user's choices.

    The defaults refuse to guess: unjudged documents, duplicates and unknown queries are
    errors until a policy is chosen. K travels apart (:class:`Cutoffs`): one scoring runs at several.
    What the data owns (:class:`DataTerms`) joins them in :meth:`under`, as the :class:`Measure` a kernel scores.

    >>> EvalSettings(unjudged="zero").unjudged
    <UnjudgedPolicy.ZERO: 'zero'>
    """

    gain: Gain = Gain.LINEAR
    unjudged: UnjudgedPolicy = UnjudgedPolicy.REJECT
    duplicates: DuplicatePolicy = DuplicatePolicy.REJECT
    zero_idcg: ZeroIdcgPolicy = ZeroIdcgPolicy.KEEP
    queries: QuerySet = QuerySet.POOL
    unknown_queries: UnknownQueryPolicy = UnknownQueryPolicy.REJECT

    def __post_init__(self) -> None:
        for name, kind in _POLICY_TYPES.items():
            value = getattr(self, name)
            if not isinstance(value, kind):
                object.__setattr__(self, name, kind.from_text(str(value), name))

    @property
    def discount(self) -> str:
        """The discount is fixed: 1/log2(rank + 1), as in trec_eval and Jarvelin and Kekalainen."""
        return "log2"

    def with_(self, **changes: Any) -> EvalSettings:
        return replace(self, **changes)

    def under(self, terms: DataTerms) -> Measure:
        """These policies on data that owns ``terms``: the one place where what the data owns joins the policies,
        so no use case sets a scale, tie policy or ID map and then replaces it.

        >>> EvalSettings().under(DataTerms(GradeScale(0, 2), id_map="#")).spec()[-21:]
        'scale=0..2,id_map="#"'
        """
        return Measure(self, terms)


@dataclass(frozen=True)
class Measure:
    """nDCG under these policies on data with these terms: what a kernel scores under, and its text, printed into
    every report and export and round-tripping through :meth:`parse` (after ir_measures' measure objects).

    >>> m = EvalSettings(unjudged=UnjudgedPolicy.ZERO).under(DataTerms())
    >>> m.to_text(5)
    'nDCG@5(gain=linear,unjudged=zero,duplicates=reject,zero_idcg=keep,queries=pool,unknown_queries=reject,ties=docid-desc,scale=0..3)'
    >>> Measure.parse(m.to_text(5)) == (m, 5)
    True
    """

    policies: EvalSettings = field(default_factory=EvalSettings)
    terms: DataTerms = field(default_factory=DataTerms)

    def choice(self, name: str) -> _Choice:
        """The value of one choice of the table: a policy, or the tie policy of the run's reading."""
        return getattr(self.policies if name in _POLICY_TYPES else self.terms, name)  # type: ignore[no-any-return]

    def with_(self, **changes: Any) -> Measure:
        """The same data terms under changed policies."""
        return replace(self, policies=self.policies.with_(**changes))

    def spec(self, per_run: frozenset[str] = frozenset()) -> str:
        """The settings line without its measure: what follows ``nDCG@K(`` in :meth:`to_text`, one K or several.

        ``per_run``: the parts of the reading (``ties``, ``id_map``) that differ between the runs a line is about;
        each says ``per run`` (the runs' own are named beside the line), never one run's as if it were all's.

        >>> EvalSettings().under(DataTerms(id_map="#")).spec(frozenset({"ties", "id_map"}))[-38:]
        'ties=per run,scale=0..3,id_map=per run'
        """
        parts = [
            f"{choice.name}={PER_RUN if choice.name in per_run else self.choice(choice.name)}" for choice in CHOICES
        ]
        parts.append(f"scale={self.terms.scale}")
        id_map = f"id_map={PER_RUN}" if "id_map" in per_run else self.terms.id_map_part()
        if id_map is not None:
            parts.append(id_map)
        return ",".join(parts)

    def to_text(self, k: int) -> str:
        """The measure at ``k``, as every export names it: ``nDCG@10(gain=linear,...)``."""
        return f"nDCG@{k}({self.spec()})"

    @classmethod
    def parse(cls, text: str) -> tuple[Measure, int]:
        """The measure and the K of a :meth:`to_text` line."""
        match = re.fullmatch(r"nDCG@(\d+)\((.*)\)", text.strip())
        if not match:
            raise InputError(f"not an evaluation setting: {text!r}")
        (k,) = Cutoffs((int(match.group(1)),))
        policies: dict[str, Any] = {}
        terms: dict[str, Any] = {}
        for key, raw in re.findall(r'(\w+)=("(?:[^"\\]|\\.)*"|[^,]*)', match.group(2)):
            if key == "scale":
                terms[key] = GradeScale.parse(raw)
            elif key == "ties":
                terms[key] = TiePolicy.from_text(raw, key)
            elif key == "id_map":
                terms[key] = json.loads(raw)
            elif key == "id_map_file":
                digest, _, name = str(json.loads(raw)).partition(" ")
                terms["id_map"] = ChunkMap(name, digest, loaded=False)
            elif key in _POLICY_TYPES:
                policies[key] = _POLICY_TYPES[key].from_text(raw, key)
            else:
                raise InputError(f"unknown evaluation setting {key!r} in {text!r}")
        return cls(EvalSettings(**policies), DataTerms(**terms)), k

    def describe(self, k: int) -> str:
        """One readable line for reports, e.g. ``nDCG@10, linear gain, unjudged: zero, ...``."""
        parts = [f"nDCG@{k}", *(choice.describe(self.choice(choice.name)) for choice in CHOICES)]
        parts.insert(2, f"{self.policies.discount} discount")  # fixed, said with the gain: the measure's own two parts
        text = ", ".join([*parts, f"scale {self.terms.scale}"])
        if self.terms.id_map is not None:
            text += f", {describe_id_map(self.terms.id_map)}"
        return text

    def as_dict(self, k: int) -> dict[str, Any]:
        """The manifest's ``settings``: K first, then every policy and term, the discount and the text."""
        # the order every manifest has had: K, the policies, then the run's ties, the scale and the ID map
        data: dict[str, Any] = {"k": k, **{f.name: getattr(self.policies, f.name) for f in fields(self.policies)}}
        data |= {"ties": self.terms.ties, "scale": str(self.terms.scale), "id_map": self.terms.id_map}
        for key, value in data.items():
            if isinstance(value, _Choice):
                data[key] = value.value
        if isinstance(self.terms.id_map, ChunkMap):
            data["id_map"] = self.terms.id_map.reference()  # named by file and hash; the pairs stay with the run
        data["discount"] = self.policies.discount
        data["text"] = self.to_text(k)
        return data


_POLICY_TYPES: dict[str, type[_Choice]] = {choice.name: choice.enum for choice in POLICY_CHOICES}
