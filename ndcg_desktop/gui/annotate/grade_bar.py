"""The grade bar: one button per grade on small scales, a number box on large ones."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QButtonGroup, QHBoxLayout, QPushButton, QSpinBox, QWidget

from ndcg_desktop.domain import GradeScale
from ndcg_desktop.gui.plain import plain_tooltip

translate = QCoreApplication.translate

# Beyond this many grades a row of buttons no longer fits (and thousands of them froze the
# window): the bar becomes a number box and a Grade button.
MAX_GRADE_BUTTONS = 11


class GradeSpinBox(QSpinBox):
    """A number box whose Enter submits (editingFinished would also fire on losing focus)."""

    submitted = Signal(int)

    def type_digit(self, digit: int) -> None:
        """Start typing a grade with ``digit`` (a grading key pressed elsewhere in the workspace)."""
        self.setFocus()
        self.lineEdit().setText(str(digit))
        self.lineEdit().end(False)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.interpretText()
            self.submitted.emit(self.value())
            return
        super().keyPressEvent(event)


class GradeBar(QWidget):
    """Emits ``graded(grade)`` when a grade is chosen with the mouse or the number box."""

    graded = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName(translate("workspace", "Grades"))
        self.layout_ = QHBoxLayout(self)
        self.layout_.setContentsMargins(0, 0, 0, 0)
        self.buttons = QButtonGroup(self)
        self.buttons.setExclusive(True)
        self.buttons.idClicked.connect(self.graded)
        self.spin: GradeSpinBox | None = None
        self._shown: tuple[int, int, tuple[str, ...]] | None = None

    @property
    def uses_buttons(self) -> bool:
        return self.spin is None

    def set_scale(self, scale: GradeScale, labels: list[str]) -> None:
        """Rebuild for a scale and its labels (nothing to do when they are the ones shown)."""
        key = (scale.low, scale.high, tuple(labels))
        if key == self._shown:
            return
        self.clear()
        self._shown = key
        if scale.high - scale.low + 1 <= MAX_GRADE_BUTTONS:
            for grade in range(scale.low, scale.high + 1):
                self._add_button(grade, labels[grade - scale.low] if grade - scale.low < len(labels) else str(grade))
        else:
            self._add_number_box(scale)

    def clear(self) -> None:
        """No grades (a project without a pool); the next set_scale rebuilds."""
        # Hidden and out of the layout at once: deleteLater waits for the event loop, and a modal
        # dialog opened meanwhile would show (and size the window for) both rows.
        for button in self.buttons.buttons():
            self.buttons.removeButton(button)
        while self.layout_.count():
            item = self.layout_.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.hide()
                widget.deleteLater()
        self.spin = None
        self._shown = None

    def _add_button(self, grade: int, label: str) -> None:
        if 0 <= grade <= 9:  # a digit key grades
            text = f"{label}  [{grade}]"  # the label (project data) and its key: no words to translate
            tip = translate("workspace", "Grade the current document {grade} ({label}); key {grade}")
        else:
            text = label
            tip = translate("workspace", "Grade the current document {grade} ({label})")
        button = QPushButton(text)
        button.setCheckable(True)
        button.setToolTip(plain_tooltip(tip.format(grade=grade, label=label)))
        button.setAccessibleName(translate("workspace", "Grade {grade}: {label}").format(grade=grade, label=label))
        button.setAccessibleDescription(tip.format(grade=grade, label=label))
        button.setFocusPolicy(Qt.FocusPolicy.TabFocus)
        self.buttons.addButton(button, grade)
        self.layout_.addWidget(button)

    def _add_number_box(self, scale: GradeScale) -> None:
        self.spin = GradeSpinBox()
        self.spin.setRange(scale.low - 1, scale.high)  # one below the scale reads "—": not graded yet
        self.spin.setSpecialValueText("—")
        self.spin.setMinimumWidth(self.spin.fontMetrics().horizontalAdvance(str(scale.high)) + 60)
        self.spin.setAccessibleName(translate("workspace", "Grade"))
        hint = translate("workspace", "Type a grade from {low} to {high}, then Enter").format(
            low=scale.low, high=scale.high
        )
        self.spin.setToolTip(hint)
        self.spin.setAccessibleDescription(hint)
        self.spin.submitted.connect(self.graded)
        button = QPushButton(translate("workspace", "Grade"))
        button.setAccessibleName(translate("workspace", "Grade the current document"))
        button.setToolTip(hint)
        button.clicked.connect(lambda: self.graded.emit(self.spin.value() if self.spin else 0))
        self.layout_.addWidget(self.spin)
        self.layout_.addWidget(button)
        self.layout_.addStretch(1)

    def show_grade(self, grade: int | None) -> None:
        """Check the current document's grade (none when ungraded)."""
        # An exclusive group ignores unchecking its checked button: lift exclusivity meanwhile.
        self.buttons.setExclusive(False)
        for button in self.buttons.buttons():
            button.setChecked(False)
        self.buttons.setExclusive(True)
        if grade is not None and self.buttons.button(grade) is not None:
            self.buttons.button(grade).setChecked(True)
        if self.spin is not None:
            self.spin.setValue(grade if grade is not None else self.spin.minimum())  # minimum: "—"

    def start_typing(self, digit: int) -> None:
        """A digit key on a large scale: the number box takes it, Enter grades."""
        if self.spin is None:
            return
        self.spin.type_digit(digit)

    def focus_widgets(self) -> list[QWidget]:
        """The bar's controls in Tab order."""
        if self.spin is not None:
            return [self.spin, *[w for w in self.findChildren(QPushButton) if w.isVisibleTo(self)]]
        return list(self.buttons.buttons())
