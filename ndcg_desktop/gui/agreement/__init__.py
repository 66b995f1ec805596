"""The Agreement view: agreement between annotators and whether it matters for the systems (issue 15)."""

from ndcg_desktop.gui.agreement.view import AgreementView

__all__ = ["AgreementView"]
