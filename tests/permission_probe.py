"""Whether the kernel refuses this process what file modes refuse (not as plain root)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest


def _permissions_enforced() -> bool:
    """Whether this process is refused a write to a read-only file: not as plain root (CI
    runs the permission tests a second time as root without CAP_DAC_OVERRIDE: .ci/run)."""
    if os.name != "posix":
        return False
    with tempfile.TemporaryDirectory() as folder:
        probe = Path(folder) / "probe"
        probe.write_text("")
        probe.chmod(0o444)
        try:
            with probe.open("a"):
                return False
        except PermissionError:
            return True


PERMISSIONS_ENFORCED = _permissions_enforced()
# For tests that need the kernel to refuse what the file modes refuse (e.g. a read-only folder).
needs_permissions = pytest.mark.skipif(
    not PERMISSIONS_ENFORCED, reason="this process ignores file permissions (root)"
)
