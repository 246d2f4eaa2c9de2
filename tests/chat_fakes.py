"""Chat test helpers on top of ``fake_servers.FakeServer``: a stream that waits for the test.

``GatedServer`` streams the first ``free`` tokens of each answer at once, then holds the rest
until the test calls :meth:`GatedServer.release`. A test can so prove that a token arrived
while the server had not finished, and stop a stream in the middle, without any sleep.
"""

from __future__ import annotations

import threading
from typing import Any

from fake_servers import FakeServer

HOLD_LIMIT = 30.0  # a forgotten release() fails a test instead of hanging it


class GatedServer(FakeServer):
    def __init__(self, *, free: int = 1, **kwargs: Any) -> None:
        # Any token delay makes the server call _wait() before each token; the gate does the rest.
        kwargs.setdefault("token_delay", 1e-6)
        super().__init__(**kwargs)
        self.free = free
        self.gate = threading.Event()
        self.held = threading.Event()  # set while a token is being held back
        self._waits = 0
        self._gate_lock = threading.Lock()

    def release(self) -> None:
        """Let every held and future token through."""
        self.gate.set()

    def rearm(self, free: int | None = None) -> None:
        """Hold the next answer again after its first ``free`` tokens."""
        with self._gate_lock:
            self._waits = 0
            self.free = self.free if free is None else free
            self.gate.clear()
            self.held.clear()

    def _wait(self, seconds: float) -> None:
        with self._gate_lock:
            self._waits += 1
            hold = self._waits > self.free
        if not hold:
            return
        self.held.set()
        waited = 0.0
        while not self.gate.wait(0.02) and not self._stopping.is_set() and waited < HOLD_LIMIT:
            waited += 0.02
        self.held.clear()


__all__ = ["GatedServer"]
