"""The Chinese word cut built a slice of jieba's dictionary at a time: the same cuts as
rjieba's own one-call load, which holds the GIL 0.1-0.2 s (a frozen window)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from pixelmem.core.index import word_cut
from pixelmem.core.index.relevance import ANCHOR_TEXTS

rjieba = pytest.importorskip("rjieba")

SENTENCES = [
    *(text for text in ANCHOR_TEXTS if not text.isascii()),
    "莫洛托夫计划发生在哪一年？",
    "如何为我的账户开启两步验证",
    "把笔记发布成网站，再绑定自己的域名",
    "周六早上去香山爬山，带上水和午饭。",
    "他用Python写了一个脚本，把PDF转成Markdown。",
]


def test_the_cut_is_rjiebas_own(monkeypatch) -> None:
    steps = []
    monkeypatch.setattr(word_cut, "step_aside", lambda: steps.append(1) or False)
    cut = word_cut.segmenter_in_steps()
    assert cut is not None
    assert [cut(s) for s in SENTENCES] == [rjieba.cut(s) for s in SENTENCES]
    assert len(steps) >= 40  # ~349k words, a slice of 8,192 between two steps aside


def test_building_it_does_not_run_rjiebas_package() -> None:
    """``import rjieba`` builds its own segmenter at once (the long hold): the stepped build
    loads only the extension, and a later import reuses it."""
    code = (
        "import sys\n"
        "from pixelmem.core.index.word_cut import load_in_steps, word_cut\n"
        "assert load_in_steps()\n"
        "assert 'rjieba' not in sys.modules\n"
        "print(word_cut()('周末去公园散步'))\n"
        "import rjieba\n"
        "print(rjieba.cut('周末去公园散步'))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    first, second = done.stdout.splitlines()
    assert first == second == str(rjieba.cut("周末去公园散步"))
