"""Qt's own strings that Qt's catalogue for a language lacks, translated in ours (context: Qt's class).

Qt 6.11's qtbase_zh_CN has no "&Look in:" or "Files of &type:" (its file dialog's labels): Qt asks
every installed catalogue, so ours fills the gap. tests/gui/test_translation.py finds any other.
"""

from __future__ import annotations

from ndcg_desktop.gui.i18n import QT_TRANSLATE_NOOP

QT_STRINGS = (
    QT_TRANSLATE_NOOP("QFileDialog", "&Look in:"),
    QT_TRANSLATE_NOOP("QFileDialog", "Files of &type:"),
)
