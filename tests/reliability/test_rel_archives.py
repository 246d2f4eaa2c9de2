"""Property: a hostile archive never writes outside the restore folder and never ends in an
exception other than a BackupError (issue 18)."""

from __future__ import annotations

import hashlib
import io
import json
import random
import tarfile
from pathlib import Path

from pixelmem.core.archive.backup import MANIFEST_NAME, BackupError, restore_backup

CASES = 200
NAMES = [
    "a.md",
    "sub/b.md",
    "../escape.md",
    "../../escape.md",
    "/abs.md",
    "sub/../../escape.md",
    "./c.md",
    "",
    "C:/win.md",
    "x\x00.md",
    "deep/" * 40 + "d.md",
    "\\\\server\\share.md",
]
TYPES = [tarfile.REGTYPE, tarfile.SYMTYPE, tarfile.LNKTYPE, tarfile.DIRTYPE, tarfile.FIFOTYPE]


def _archive(rng: random.Random, path: Path) -> None:
    files: dict[str, bytes] = {}
    with tarfile.open(path, "w:gz") as tar:
        for _ in range(rng.randint(1, 5)):
            name = rng.choice(NAMES)
            data = rng.randbytes(rng.randint(0, 50))
            info = tarfile.TarInfo("vault/" + name if rng.random() < 0.8 else name)
            info.type = rng.choice(TYPES) if rng.random() < 0.3 else tarfile.REGTYPE
            if info.type in (tarfile.SYMTYPE, tarfile.LNKTYPE):
                info.linkname = rng.choice(["../../outside", "/etc/passwd", "a.md"])
                tar.addfile(info)
                continue
            info.size = len(data) if info.type == tarfile.REGTYPE else 0
            tar.addfile(info, io.BytesIO(data) if info.type == tarfile.REGTYPE else None)
            if info.type == tarfile.REGTYPE:
                files[name] = data
        entries = [
            {
                "path": rng.choice([name, rng.choice(NAMES)]),
                "size": len(data),
                "sha256": hashlib.sha256(data).hexdigest(),
                "mtime_ns": rng.choice([0, -1, 10**30, 1_700_000_000_000_000_000]),
            }
            for name, data in files.items()
        ]
        manifest = json.dumps({"format": "pixelmem-backup", "version": 1, "files": entries})
        info = tarfile.TarInfo(MANIFEST_NAME)
        info.size = len(manifest.encode())
        tar.addfile(info, io.BytesIO(manifest.encode()))


def _tree(root: Path) -> set[str]:
    return {str(p) for p in root.rglob("*")}


def test_hostile_archives_write_nothing_outside(tmp_path: Path) -> None:
    rng = random.Random(32)
    outside = tmp_path / "outside"
    outside.mkdir()
    before = _tree(tmp_path)
    restored = 0
    allowed: set[str] = set()  # every destination so far, and the folders made above them
    for case in range(CASES):
        archive = tmp_path / f"a{case}.tar.gz"
        _archive(rng, archive)
        dest = outside / "d" / str(case) / "x" / "y"
        try:
            restore_backup(archive, dest)
            restored += 1
        except BackupError:
            pass
        archive.unlink()
        allowed.update({str(parent) for parent in dest.parents} - before)
        allowed.add(str(dest))
        after = {
            p
            for p in _tree(tmp_path)
            if p not in allowed
            and not any(p.startswith(d + "/") for d in allowed if d.endswith("/x/y"))
        }
        assert after == before, sorted(after - before)
    assert restored > 0
