"""Every file dialog of the window, started in the open project's folder (one place, not one per view).

Without a project the dialogs start where the user last chose a file, else in the home folder.
An export folder may be a new one: typed into the folder dialog, it is made when the dialog is
accepted (Qt's own dialog says "Directory not found" instead), as *Create New Folder* would; the
export itself refuses a folder that holds other files (formats.export), so the dialog never needs to.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QFileDialog, QMessageBox, QWidget

translate = QCoreApplication.translate

_last: list[Path] = []  # the folder of the last file or folder chosen in this session


def project_folder(widget: QWidget | None) -> Path | None:
    """The folder of the project open in ``widget``'s window (dialogs: their parent's window)."""
    while widget is not None:
        project = getattr(widget, "project", None)
        path = getattr(project, "path", None)
        if path is not None:
            return Path(path).resolve().parent
        widget = widget.parentWidget()
    return None


def start_folder(widget: QWidget | None) -> Path:
    """Where a dialog opened from ``widget`` starts: the project's folder, else the last one used, else home."""
    return project_folder(widget) or (_last[-1] if _last else Path.home())


def _chosen(path: str, folder: bool = False) -> str | None:
    if not path:
        return None
    _last[:] = [Path(path) if folder else Path(path).parent]
    return path


def open_file(parent: QWidget, title: str, filters: str) -> str | None:
    """One existing file, or None if the user cancelled."""
    return _chosen(QFileDialog.getOpenFileName(parent, title, str(start_folder(parent)), filters)[0])


def open_files(parent: QWidget, title: str, filters: str) -> list[str]:
    """Existing files (none if the user cancelled)."""
    paths = QFileDialog.getOpenFileNames(parent, title, str(start_folder(parent)), filters)[0]
    if paths:
        _chosen(paths[0])
    return list(paths)


def save_file(parent: QWidget, title: str, name: str, filters: str) -> tuple[str | None, str]:
    """A file to write, suggested as ``name`` in the start folder; with the filter the user chose."""
    path, chosen = QFileDialog.getSaveFileName(parent, title, str(start_folder(parent) / name), filters)
    return _chosen(path), chosen


class FolderDialog(QFileDialog):
    """Chooses a folder; a name typed that does not exist yet is made on *Choose*, not refused."""

    def __init__(self, parent: QWidget | None, title: str, start: str) -> None:
        super().__init__(parent, title, start)
        self.setFileMode(QFileDialog.FileMode.Directory)
        self.setOption(QFileDialog.Option.ShowDirsOnly, True)

    def accept(self) -> None:
        chosen = self.selectedFiles()
        if chosen and not Path(chosen[0]).exists():
            try:
                Path(chosen[0]).mkdir(parents=True)
            except OSError as exc:
                QMessageBox.warning(
                    self,
                    self.windowTitle(),
                    translate("file_dialogs", "Cannot make the folder {folder}: {reason}").format(
                        folder=chosen[0], reason=exc.strerror or exc
                    ),
                )
                return
        super().accept()


def folder(parent: QWidget, title: str) -> str | None:
    """A folder, existing or new (typed, or made with *Create New Folder*); None if the user cancelled."""
    dialog = FolderDialog(parent, title, str(start_folder(parent)))
    if dialog.exec() != QFileDialog.DialogCode.Accepted or not dialog.selectedFiles():
        return None
    return _chosen(dialog.selectedFiles()[0], folder=True)
