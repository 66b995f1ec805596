"""PyInstaller entry script of the ``ndcg`` command line (the same as the console-scripts entry point)."""

from ndcg_desktop.cli.main import entry_point

if __name__ == "__main__":
    entry_point()
