"""The bottom floor: file primitives every other floor builds on.

Atomic writes and the one temp + fsync they all use (atomic), opening only regular files
(safe_open), replacing a file only if it still holds what was read (checked_replace),
renameat2 (rename_ops), names that fit NAME_MAX (file_names), file and folder modes
(permissions), the cross-process lock (process_lock) and folder helpers (folders). Imports
nothing of pixelmem: settings, the vault, caches and archives all stand on it.
"""
