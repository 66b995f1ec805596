"""Qt Charts views of numbers the scoring module computed (nothing is computed here)."""

from __future__ import annotations

import html

import pandas as pd
from PySide6.QtCharts import (
    QBarCategoryAxis,
    QBarSeries,
    QBarSet,
    QCategoryAxis,
    QChart,
    QChartView,
    QLineSeries,
    QScatterSeries,
    QValueAxis,
)
from PySide6.QtCore import QCoreApplication, QMargins, QPointF, Qt
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import QWidget

from ndcg_desktop.gui.themes import is_dark

translate = QCoreApplication.translate  # context: "charts", this module's name, for pyside6-lupdate

RUN_COLOUR = QColor("#1f6fb2")
IDEAL_COLOUR = QColor("#2e8b57")
OTHER_COLOUR = QColor("#d9822b")


class _ChartView(QChartView):
    def __init__(self, title: str, accessible: str, description: str, parent: QWidget | None = None) -> None:
        chart = QChart()
        if is_dark():  # a light chart would glare out of a dark or high-contrast window
            chart.setTheme(QChart.ChartTheme.ChartThemeDark)
        chart.setTitle(title)
        chart.setMargins(QMargins(4, 4, 4, 4))
        chart.legend().setAlignment(Qt.AlignmentFlag.AlignBottom)
        chart.setAnimationOptions(QChart.AnimationOption.NoAnimation)
        super().__init__(chart, parent)
        self.setRenderHint(QPainter.RenderHint.Antialiasing)
        self.setMinimumSize(260, 220)
        self.setAccessibleName(accessible)
        self.setAccessibleDescription(description)  # what the chart shows; each show_*() adds its numbers
        self.description = description

    def _axis(self, title: str, low: float, high: float, alignment: Qt.AlignmentFlag) -> QValueAxis:
        axis = QValueAxis()
        axis.setTitleText(title)
        axis.setRange(low, high)
        self.chart().addAxis(axis, alignment)
        return axis

    def _describe(self, summary: str) -> None:
        """The chart's accessible description: what it shows, then what it shows now."""
        self.setAccessibleDescription(f"{self.description} {summary}" if summary else self.description)


def _line(name: str, colour: QColor, width: int = 2, dashed: bool = False) -> QLineSeries:
    series = QLineSeries()
    series.setName(name)
    pen = QPen(colour, width)
    if dashed:
        pen.setStyle(Qt.PenStyle.DashLine)
    series.setPen(pen)
    series.setPointsVisible(True)
    return series


class CumulativeChart(_ChartView):
    """Cumulative DCG of the run's top K against cumulative IDCG of the ideal ranking, by position."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(
            translate("charts", "Cumulative gain by position"),
            translate("charts", "Cumulative DCG and IDCG chart"),
            translate(
                "charts",
                "Line chart of the selected query: the run's cumulative DCG and the ideal ranking's "
                "cumulative IDCG at each position up to K; the gap between the lines is what the run lost.",
            ),
            parent,
        )
        self.dcg = _line(translate("charts", "the run (cumulative DCG)"), RUN_COLOUR)
        self.idcg = _line(translate("charts", "ideal (cumulative IDCG)"), IDEAL_COLOUR, dashed=True)
        chart = self.chart()
        chart.addSeries(self.idcg)
        chart.addSeries(self.dcg)
        self.x_axis = self._axis(translate("charts", "position"), 1, 10, Qt.AlignmentFlag.AlignBottom)
        self.x_axis.setLabelFormat("%d")
        self.y_axis = self._axis(translate("charts", "cumulative gain"), 0, 1, Qt.AlignmentFlag.AlignLeft)
        for series in (self.dcg, self.idcg):
            series.attachAxis(self.x_axis)
            series.attachAxis(self.y_axis)

    def show_query(self, positions: pd.DataFrame, ideal: pd.DataFrame, k: int) -> None:
        """``positions``: rank, cumulative_dcg; ``ideal``: rank, cumulative_idcg (both from the scoring module)."""
        self.dcg.replace(
            [QPointF(float(r), float(v)) for r, v in zip(positions["rank"], positions["cumulative_dcg"], strict=True)]
        )
        self.idcg.replace(
            [QPointF(float(r), float(v)) for r, v in zip(ideal["rank"], ideal["cumulative_idcg"], strict=True)]
        )
        top = max([0.0, *positions["cumulative_dcg"].tolist(), *ideal["cumulative_idcg"].tolist()])
        self.x_axis.setRange(1, max(k, 2))
        self.x_axis.setTickCount(min(max(k, 2), 11))
        self.y_axis.setRange(0, top * 1.08 if top > 0 else 1)
        dcg, idcg = positions["cumulative_dcg"], ideal["cumulative_idcg"]
        summary = translate("charts", "At position {k} the run's cumulative DCG is {dcg}; the ideal's is {idcg}.")
        self._describe(
            summary.format(
                k=k,
                dcg=f"{dcg.iloc[-1]:.4f}" if len(dcg) else "0",
                idcg=f"{idcg.iloc[-1]:.4f}" if len(idcg) else "0",
            )
        )


class ScatterChart(_ChartView):
    """Per-query nDCG of one run (x) against another (y); points above the diagonal favour the other."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(
            translate("charts", "Per-query nDCG"),
            translate("charts", "Per-query nDCG scatter plot"),
            translate(
                "charts",
                "One point per query: its nDCG in the run across, in the other run up. Points above "
                "the diagonal are queries the other run scores higher.",
            ),
            parent,
        )
        self.points = QScatterSeries()
        self.points.setMarkerSize(8)
        self.points.setColor(RUN_COLOUR)
        self.points.setBorderColor(RUN_COLOUR.darker(130))
        self.diagonal = _line(translate("charts", "equal"), QColor("#888888"), 1, dashed=True)
        self.diagonal.setPointsVisible(False)
        self.diagonal.replace([QPointF(0, 0), QPointF(1, 1)])
        chart = self.chart()
        chart.addSeries(self.diagonal)
        chart.addSeries(self.points)
        self.x_axis = self._axis(translate("charts", "run"), -0.03, 1.03, Qt.AlignmentFlag.AlignBottom)
        self.y_axis = self._axis(translate("charts", "other run"), -0.03, 1.03, Qt.AlignmentFlag.AlignLeft)
        for axis in (self.x_axis, self.y_axis):  # a margin so points at 0 and 1 are whole; ticks stay on quarters
            axis.setTickType(QValueAxis.TickType.TicksDynamic)
            axis.setTickAnchor(0.0)
            axis.setTickInterval(0.25)
        for series in (self.diagonal, self.points):
            series.attachAxis(self.x_axis)
            series.attachAxis(self.y_axis)

    def show_comparison(self, table: pd.DataFrame, first: str, second: str) -> None:
        """``table``: ndcg_a, ndcg_b per query (``explain.compare``)."""
        self.points.setName(translate("charts", "queries ({count})").format(count=len(table)))
        self.points.replace(
            [QPointF(float(a), float(b)) for a, b in zip(table["ndcg_a"], table["ndcg_b"], strict=True)]
        )
        axis = translate("charts", "{run} nDCG")
        # Qt Charts renders axis titles and legend labels as rich text: run names are escaped.
        self.x_axis.setTitleText(axis.format(run=html.escape(first)))
        self.y_axis.setTitleText(axis.format(run=html.escape(second)))
        summary = translate("charts", "{count} queries: {first} across, {second} up.")
        self._describe(summary.format(count=len(table), first=first, second=second))


class HistogramChart(_ChartView):
    """How many queries fall in each nDCG bin, one bar set per run."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(
            translate("charts", "Queries by nDCG"),
            translate("charts", "Histogram of per-query nDCG"),
            translate("charts", "Bar chart: how many queries fall in each nDCG bin, one bar colour per run."),
            parent,
        )
        self.series = QBarSeries()
        self.chart().addSeries(self.series)
        self.x_axis = QBarCategoryAxis()
        self.x_axis.setTitleText(translate("charts", "nDCG (each bar: from this value to the next)"))
        self.chart().addAxis(self.x_axis, Qt.AlignmentFlag.AlignBottom)
        self.series.attachAxis(self.x_axis)
        self.y_axis = self._axis(translate("charts", "queries"), 0, 1, Qt.AlignmentFlag.AlignLeft)
        self.y_axis.setLabelFormat("%d")
        self.series.attachAxis(self.y_axis)

    def show_histograms(self, histograms: list[tuple[str, pd.DataFrame]]) -> None:
        """``histograms``: (run name, ``explain.histogram`` table) per run, same bins."""
        self.series.clear()
        for (name, table), colour in zip(histograms, (RUN_COLOUR, OTHER_COLOUR), strict=False):
            bars = QBarSet(html.escape(name))  # legend labels are rich text
            bars.setColor(colour)
            bars.append([float(n) for n in table["queries"]])
            self.series.append(bars)
        if histograms:
            edges = histograms[0][1]
            self.x_axis.setCategories([f"{lo:.1f}" for lo in edges["low"]])
            top = max(int(t["queries"].max()) for _, t in histograms)
            self.y_axis.setRange(0, max(top, 4))
            self.y_axis.applyNiceNumbers()
        runs = translate("charts", ", ", "list separator").join(name for name, _ in histograms)
        self._describe(translate("charts", "Runs shown: {runs}.").format(runs=runs) if histograms else "")

    def counts(self) -> list[list[float]]:
        return [[bars.at(i) for i in range(bars.count())] for bars in self.series.barSets()]


class IntervalChart(_ChartView):
    """Each run's mean (a dot) with its confidence interval (a whisker), at one K; the numbers come from stats."""

    CAP = 0.12  # half the width of a whisker's caps, in runs

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(
            translate("charts", "Means and confidence intervals"),
            translate("charts", "Interval plot of the runs"),
            translate(
                "charts",
                "One column per run: the dot is its mean nDCG over the queries, the whisker its bootstrap "
                "confidence interval. Runs whose whiskers do not overlap differ clearly; the paired tests decide.",
            ),
            parent,
        )
        self.means = QScatterSeries()
        self.means.setMarkerSize(10)
        self.means.setColor(RUN_COLOUR)
        self.means.setBorderColor(RUN_COLOUR.darker(130))
        self.whiskers: list[QLineSeries] = []
        self.chart().addSeries(self.means)
        self.x_axis = QCategoryAxis()
        self.x_axis.setLabelsPosition(QCategoryAxis.AxisLabelsPosition.AxisLabelsPositionCenter)
        self.chart().addAxis(self.x_axis, Qt.AlignmentFlag.AlignBottom)
        self.y_axis = self._axis(translate("charts", "mean nDCG"), 0, 1, Qt.AlignmentFlag.AlignLeft)
        for axis in (self.x_axis, self.y_axis):
            self.means.attachAxis(axis)
        self.chart().legend().hide()

    def show_intervals(self, runs: list[tuple[str, float, float, float]], k: int, level: str) -> None:
        """``runs``: (label, mean, low, high) in the table's order; ``level`` names the interval ("95%")."""
        chart = self.chart()
        for series in self.whiskers:
            chart.removeSeries(series)
        self.whiskers = []
        for label in self.x_axis.categoriesLabels():
            self.x_axis.remove(label)
        self.x_axis.setStartValue(-0.5)
        self.means.replace([QPointF(float(i), float(mean)) for i, (_, mean, _, _) in enumerate(runs)])
        for i, (label, _, low, high) in enumerate(runs):
            whisker = _line("", RUN_COLOUR, 2)
            whisker.setPointsVisible(False)
            c = self.CAP
            whisker.replace(
                [QPointF(i - c, low), QPointF(i + c, low), QPointF(i, low)]
                + [QPointF(i, high), QPointF(i - c, high), QPointF(i + c, high)]
            )
            chart.addSeries(whisker)
            whisker.attachAxis(self.x_axis)
            whisker.attachAxis(self.y_axis)
            self.whiskers.append(whisker)
            self.x_axis.append(html.escape(label), i + 0.5)  # axis labels are rich text: run names escaped
        self.x_axis.setRange(-0.5, max(len(runs), 1) - 0.5)
        self.x_axis.setLabelsAngle(-45 if len(runs) > 6 else 0)  # twenty runs' names still fit
        values = [v for _, _, low, high in runs for v in (low, high) if v == v]
        low_end = min(values, default=0.0)
        high_end = max(values, default=1.0)
        pad = max((high_end - low_end) * 0.1, 0.02)
        self.y_axis.setRange(max(0.0, low_end - pad), min(1.0, high_end + pad))
        self.y_axis.applyNiceNumbers()
        title = translate("charts", "nDCG@{k}: means and {level} confidence intervals").format(k=k, level=level)
        chart.setTitle(title if runs else "")  # nothing compared: no title claims intervals
        listing = translate("charts", "; ", "between runs").join(
            translate("charts", "{run} {mean} [{low}, {high}]").format(
                run=label, mean=f"{mean:.4f}", low=f"{low:.4f}", high=f"{high:.4f}"
            )
            for label, mean, low, high in runs
        )
        self._describe(listing)


def points(series: QLineSeries | QScatterSeries) -> list[tuple[float, float]]:
    """A series' points as plain tuples (tests and accessibility text)."""
    return [(p.x(), p.y()) for p in series.points()]


__all__ = ["CumulativeChart", "HistogramChart", "IntervalChart", "ScatterChart", "points"]
