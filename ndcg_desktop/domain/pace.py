"""Judging pace from the audit log: documents graded per annotator and day, seconds per judgment, time left.

The rule, stated wherever a figure is shown (:data:`PACE_RULE`): a judgment is an audit row
``action = "grade"`` that gives a grade (clearing one is not a judgment; imports and undos are not judgments).
How many a person *graded* (per day, and in all) counts distinct items (version, query, document) they gave a
grade that still holds one: a grade undone is no work done, and a grade undone and given again is one item,
not two (issue 36: "Today: 34 graded" counted every key press).
A person's seconds per judgment are the gaps between their consecutive judgments, in time order;
a gap longer than the pause limit (10 minutes by default) is a pause, not work, and is left out, so
the first judgment after a pause is not timed. The median of the kept gaps is the pace; a day's
gaps are those that end on that day (UTC). The time left for a draft is its ungraded items times
the median of every kept gap, all annotators together.

Legend: ``who`` annotator, ``at`` UTC time of the audit row, ``gap`` seconds since the same
person's previous judgment, ``item`` the graded item (version, query, document), ``kept`` the item still
holds a grade.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

PAUSE_SECONDS = 600.0


def pace_rule(pause_s: float = PAUSE_SECONDS) -> str:
    """The rule in one line, printed beside every pace figure."""
    return (
        "seconds per judgment = median gap between a person's consecutive grades; gaps over "
        f"{pause_s / 60:g} min are pauses and left out; time left = ungraded items x the median of all kept gaps"
    )


@dataclass(frozen=True)
class JudgingPace:
    """Pace tables for one audit log.

    ``by_day``: who, day (YYYY-MM-DD, UTC), graded (distinct items graded that still hold a grade), timed
    (gaps kept), median_s.
    ``by_annotator``: who, graded, timed, median_s. ``median_s``: over every kept gap (None if none).
    """

    by_day: pd.DataFrame
    by_annotator: pd.DataFrame
    median_s: float | None
    pause_s: float

    def time_left_s(self, ungraded: int) -> float | None:
        """Seconds the ``ungraded`` items should take at the median pace (None without any timed judgment)."""
        return None if self.median_s is None else ungraded * self.median_s


def judgments(audit: pd.DataFrame) -> pd.DataFrame:
    """The audit rows that are judgments (a grade given), as who, at (UTC timestamps), item, kept, in time order.

    ``audit`` has who, at, action, new_grade, version, query_id, doc_id and still_graded (whether the item holds
    a grade now)."""
    given = audit[(audit["action"] == "grade") & audit["new_grade"].notna()]
    at = pd.to_datetime(given["at"], utc=True, format="ISO8601")
    item = given["version"].astype(str) + "\t" + given["query_id"].astype(str) + "\t" + given["doc_id"].astype(str)
    events = pd.DataFrame(
        {
            "who": given["who"].astype(str).to_numpy(),
            "at": at.to_numpy(),
            "item": item.to_numpy(),
            "kept": given["still_graded"].astype(bool).to_numpy(),
        }
    )
    events["at"] = pd.to_datetime(events["at"], utc=True)
    order = events.sort_values(["who", "at"], kind="stable").reset_index(drop=True)
    return order


def _median(values: pd.Series) -> float | None:
    return float(values.median()) if len(values) else None


def judging_pace(audit: pd.DataFrame, *, pause_s: float = PAUSE_SECONDS) -> JudgingPace:
    """Per annotator and per day: judgments, timed gaps and their median (see the module's rule).

    >>> times = ["2026-11-30T10:00:00+00:00", "2026-11-30T10:00:06+00:00", "2026-11-30T10:00:16+00:00"]
    >>> log = pd.DataFrame({"action": ["grade"] * 3, "new_grade": [1, 2, 0], "who": ["ann"] * 3, "at": times,
    ...     "version": 1, "query_id": "q1", "doc_id": ["d1", "d2", "d1"], "still_graded": True})
    >>> pace = judging_pace(log)
    >>> pace.median_s, int(pace.by_annotator["graded"].iloc[0])  # gaps 6 s and 10 s; d1 graded twice: 2 items
    (8.0, 2)
    """
    events = judgments(audit)
    events["gap"] = events.groupby("who")["at"].diff().dt.total_seconds()
    events["day"] = events["at"].dt.strftime("%Y-%m-%d")
    kept = events["gap"].notna() & (events["gap"] <= pause_s)
    timed = events[kept]
    kept_items = events[events["kept"]]
    days = events[["who", "day"]].drop_duplicates()
    day_items = kept_items.groupby(["who", "day"])["item"].nunique().rename("graded").reset_index()
    by_day = days.merge(day_items, how="left", on=["who", "day"]).sort_values(["who", "day"], kind="stable")
    by_day = by_day.reset_index(drop=True)
    day_gaps = timed.groupby(["who", "day"])["gap"]
    by_day = by_day.merge(day_gaps.size().rename("timed").reset_index(), how="left", on=["who", "day"])
    by_day = by_day.merge(day_gaps.median().rename("median_s").reset_index(), how="left", on=["who", "day"])
    people = events[["who"]].drop_duplicates()
    person_items = kept_items.groupby("who")["item"].nunique().rename("graded").reset_index()
    by_annotator = people.merge(person_items, how="left", on="who").sort_values("who", kind="stable")
    by_annotator = by_annotator.reset_index(drop=True)
    person_gaps = timed.groupby("who")["gap"]
    by_annotator = by_annotator.merge(person_gaps.size().rename("timed").reset_index(), how="left", on="who")
    by_annotator = by_annotator.merge(person_gaps.median().rename("median_s").reset_index(), how="left", on="who")
    for table in (by_day, by_annotator):
        table["graded"] = table["graded"].fillna(0).astype(int)
        table["timed"] = table["timed"].fillna(0).astype(int)
        table["median_s"] = table["median_s"].astype(float)
    return JudgingPace(by_day, by_annotator, _median(timed["gap"]), pause_s)


def duration_parts(seconds: float) -> tuple[str, dict[str, int]]:
    """A duration rounded as people read it, as a unit pattern and its numbers (the window translates
    the pattern): under a minute in seconds, under an hour in minutes, else hours and minutes.

    >>> duration_parts(45), duration_parts(725), duration_parts(12_000)
    (('s', {'s': 45}), ('min', {'min': 12}), ('h min', {'h': 3, 'min': 20}))
    """
    if seconds < 60:
        return "s", {"s": round(seconds)}
    minutes = round(seconds / 60)
    if minutes < 60:
        return "min", {"min": minutes}
    return "h min", {"h": minutes // 60, "min": minutes % 60}


def duration_text(seconds: float) -> str:
    """A duration as people read it: 45 s, 12 min, 3 h 20 min.

    >>> duration_text(45), duration_text(725), duration_text(12_000)
    ('45 s', '12 min', '3 h 20 min')
    """
    unit, n = duration_parts(seconds)
    return {"s": "{s} s", "min": "{min} min", "h min": "{h} h {min} min"}[unit].format(**n)
