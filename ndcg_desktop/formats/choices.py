"""The formats and orders the readers accept, by name: what the command line offers as choices.

Kept apart from the readers so that building the argument parser imports neither numpy nor pyarrow.
"""

from __future__ import annotations

from ndcg_desktop.domain.data import OrderKind

RUN_FORMATS = ("trec", "csv", "tsv", "jsonl")
QRELS_FORMATS = ("trec", "csv", "tsv")
ORDER_CHOICES = {"score": OrderKind.SCORE, "rank": OrderKind.RANK, "file": OrderKind.LIST}  # --order
