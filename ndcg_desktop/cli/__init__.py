"""The ``ndcg`` command line."""
