"""PyInstaller entry script of the ``ndcg-desktop`` window (the same as the gui-scripts entry point)."""

from ndcg_desktop.gui.app import entry_point

if __name__ == "__main__":
    entry_point()
