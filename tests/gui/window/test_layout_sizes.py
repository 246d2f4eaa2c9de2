"""At 800×600 and 1920×1080, in English and Chinese, with every dock tab raised in turn: the
window keeps its size and no visible widget is clipped or outside the window.

"Clipped" is judged generically over every visible widget: it must lie inside its parent (a
scroll area's contents excepted: scrolling is their job) and inside the window, and be at
least as wide as its minimum size hint (a button cut to "Se" fails). Widgets a person cannot
see (in a dock tab that is covered) are left out, as Qt leaves them stacked there.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from layout_check import layout_problems, settle
from PySide6.QtCore import QPoint, QRect
from PySide6.QtGui import QFont, QFontDatabase

from pixelmem.gui import i18n

SIZES = [(800, 600), (1920, 1080)]


@pytest.fixture(autouse=True)
def _english_afterwards(qapp) -> Iterator[None]:
    yield
    i18n.install_translator("en")


def _each_tab(window) -> Iterator[str]:
    """Raise each dock tab in turn (Search, Chat, Map; Memories, Inbox)."""
    for dock in (window.search_dock, window.chat_dock, window.map_dock):
        dock.raise_()
        for other in (window.list_dock, window.inbox_dock):
            other.raise_()
            yield f"{dock.objectName()}+{other.objectName()}"


@pytest.fixture(params=["default font", "Noto Sans CJK SC"])
def app_font(request, qapp) -> Iterator[None]:
    """The platform's default font, and the CJK font a Chinese desktop uses (wider Latin)."""
    if request.param != "default font":
        if request.param not in QFontDatabase.families():
            pytest.skip(f"{request.param} is not installed")
        before = qapp.font()
        qapp.setFont(QFont(request.param, 10))
        yield
        qapp.setFont(before)
    else:
        yield


@pytest.mark.parametrize("language", ["en", "zh_CN"])
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_nothing_is_clipped_or_outside(qtbot, app_font, window, language, size) -> None:
    i18n.install_translator(language)
    window.resize(*size)
    window.show()
    qtbot.waitExposed(window)
    window.open_memory(window.list_model.memories()[0].id)
    for tabs in _each_tab(window):
        settle(qtbot)
        assert (window.width(), window.height()) == size, f"{tabs}: the window was resized"
        problems = layout_problems(window)
        assert problems == [], f"{language} {size} {tabs}:\n" + "\n".join(problems)


def test_a_long_file_name_never_widens_the_window(qtbot, window) -> None:
    window.resize(800, 600)
    window.show()
    qtbot.waitExposed(window)
    memory = window.list_model.memories()[0]
    long_name = "a-very-long-file-name-" * 8 + ".md"
    moved = memory.path.with_name(long_name)
    memory.path.rename(moved)
    with qtbot.waitSignal(window.bus.memory_updated, timeout=5000):
        window.session.apply_paths([memory.path, moved])
    fresh = next(m for m in window.list_model.memories() if m.path == moved)
    window.open_memory(fresh.id)
    settle(qtbot)
    assert window.width() == 800
    footer = window.editor.form.meta_label
    assert footer.is_elided() and "…" in footer.shown_text()
    assert layout_problems(window) == []


def test_the_chat_send_button_is_reachable_at_800x600(qtbot, window) -> None:
    window.resize(800, 600)
    window.show()
    qtbot.waitExposed(window)
    window.chat_dock.raise_()
    settle(qtbot)
    send = window.chat_dock.body.send_button
    placed = QRect(send.mapTo(window, QPoint(0, 0)), send.size())
    assert window.rect().contains(placed) and send.width() >= send.minimumSizeHint().width()
