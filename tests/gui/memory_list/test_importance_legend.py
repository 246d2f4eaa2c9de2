"""The importance dots have a legend: the filter's entries carry the dots, its tooltip and
each row's tooltip say what they mean, in the current language."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor

from pixelmem.gui import i18n
from pixelmem.gui.widgets.colors import importance_color


def test_the_filter_shows_each_dot_and_the_legend(qtbot, window) -> None:
    combo = window.list_panel.importance_combo
    levels = [combo.itemData(i) for i in range(combo.count())]
    assert levels == ["", "high", "medium", "low"]
    for index in range(1, combo.count()):
        image = combo.itemIcon(index).pixmap(20, 20).toImage()
        centre = image.pixelColor(image.width() // 2, image.height() // 2)
        wanted = importance_color(window.palette(), levels[index])
        assert centre.rgb() == QColor(wanted).rgb()
    tip = combo.toolTip()
    assert "importance" in tip and all(word in tip for word in ("High", "Medium", "Low"))


def test_a_row_tooltip_names_title_and_importance(qtbot, window) -> None:
    model = window.list_model
    row = next(r for r in range(model.rowCount()) if model.memory_at(r).importance == "high")
    tip = model.data(model.index(row), Qt.ItemDataRole.ToolTipRole)
    assert tip.startswith(model.memory_at(row).title) and tip.endswith("Importance: High")
    try:
        i18n.install_translator("zh_CN")
        tip = model.data(model.index(row), Qt.ItemDataRole.ToolTipRole)
        assert tip.endswith("重要性：高")
    finally:
        i18n.install_translator("en")
