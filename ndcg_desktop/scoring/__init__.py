"""Pure NDCG arithmetic over plain data: no files, no Qt, no project store."""

from ndcg_desktop.domain.progress import Cancelled
from ndcg_desktop.scoring.dcg import discounts, gain_values
from ndcg_desktop.scoring.ndcg import Evaluation, evaluate

__all__ = ["Cancelled", "Evaluation", "discounts", "evaluate", "gain_values"]
