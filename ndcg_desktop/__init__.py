"""ndcg-desktop: explicit, reproducible NDCG evaluation against frozen judgment pools."""

__version__ = "0.1.0"
