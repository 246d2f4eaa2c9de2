"""The desktop app (PySide6). The only package that imports Qt; it drives ``pixelmem.core``.

Start at :mod:`app` (``run_app``) and :mod:`main_window`. Background work goes through
:mod:`workers` and :mod:`session`; views listen to the one :class:`bus.MemoryBus`.
"""
