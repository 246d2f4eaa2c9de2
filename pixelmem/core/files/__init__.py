"""The bottom floor: file primitives every other floor builds on.

Atomic writes (atomic), opening only regular files (safe_open), replacing a file only if it
still holds what was read (checked_replace), renameat2 (rename_ops), the cross-process lock and
folder helpers (folders). Imports nothing of pixelmem but ``core.errors``: settings, the vault,
caches and archives all stand on it.
"""
