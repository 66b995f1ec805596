"""The Annotate tab: queries, a query's pool, the document, the grade bar, the guidelines."""

from ndcg_desktop.gui.annotate.workspace import Workspace

__all__ = ["Workspace"]
