"""Qt's lazily made types are made ahead, in steps that leave the event loop its turns."""

from __future__ import annotations

import time
from types import ModuleType

from PySide6.QtCore import QTimer

from pixelmem.gui.widgets.type_warmup import TypeWarmup


def _slow_owner(names: list[str], made: list[str], cost_s: float) -> ModuleType:
    """A module whose types each take ``cost_s`` to make (PySide's lazy ones do)."""
    owner = ModuleType("slow_owner")

    def make(name: str) -> object:
        time.sleep(cost_s)
        made.append(name)
        return object()

    owner.__dir__ = lambda: names  # type: ignore[method-assign]
    owner.__getattr__ = make  # type: ignore[method-assign]
    return owner


def test_every_type_is_made_once_in_steps_that_keep_to_the_budget(qtbot) -> None:
    names = [f"Q{i:02}" for i in range(40)] + ["qt_helper", "__version__"]
    made: list[str] = []
    warmup = TypeWarmup(owners=[_slow_owner(names, made, 0.001)], budget_s=0.004)
    with qtbot.waitSignal(warmup.finished, timeout=5000):
        warmup.start()
    assert made == [f"Q{i:02}" for i in range(40)]  # Qt's classes only, each once, in order
    assert warmup.made == 40
    assert 10 <= warmup.steps <= 21  # ~4 a step, never all in one
    assert not warmup.running


def test_the_event_loop_runs_between_steps(qtbot) -> None:
    made: list[str] = []
    warmup = TypeWarmup(owners=[_slow_owner([f"Q{i}" for i in range(30)], made, 0.001)])
    seen: list[int] = []  # how many types were made when another timer ran
    other = QTimer()
    other.setInterval(0)
    other.timeout.connect(lambda: seen.append(len(made)))
    other.start()
    with qtbot.waitSignal(warmup.finished, timeout=5000):
        warmup.start()
    other.stop()
    assert len({n for n in seen if 0 < n < 30}) >= 3  # other work ran mid-warm-up
