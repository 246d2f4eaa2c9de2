"""benchmarks/explain_hidden.py's table: hidden right answers counted per language and kind of
question (naming a date or not), the medians of their evidence against the shown ones, and the
undated hidden questions listed with it."""

from __future__ import annotations

from benchmarks import explain_hidden


def row(query: str, score: float, *, first: bool = True, dated: bool = False, margin=0.1) -> dict:
    features = dict.fromkeys(explain_hidden.FEATURES, 0.5)
    features.update(margin=margin, loo=None)
    parts = {"same": score, "meaning": score / 2}
    return {**features, "query": query, "text": f"q {query}", "score": score, "first": first,
            "dated": dated, "parts": parts}  # fmt: skip


def test_hidden_are_counted_per_language_and_kind_with_their_medians() -> None:
    rows = [
        row("en-a0", 0.3, margin=0.1),
        row("en-a1", 0.4, margin=0.3),
        row("en-a2", 0.9, margin=2.0),
        row("en-a3", 0.2, first=False),  # a wrong note first: not hidden, not shown
        row("en-a4", 0.2, dated=True),
        row("cn-b0", 0.8, margin=1.5),
    ]
    lines = explain_hidden.summary(rows, 0.5)
    assert lines[0].startswith("cn undated: 1 questions, 0 hidden")
    undated = next(i for i, line in enumerate(lines) if line.startswith("en undated"))
    assert "4 questions, 2 hidden (right first, < 0.5), 1 shown" in lines[undated]
    assert "{'same': 2}" in lines[undated]
    margin = next(line for line in lines[undated:] if line.strip().startswith("margin"))
    assert margin.split() == ["margin", "hidden", "0.200", "shown", "2.000"]
    loo = next(line for line in lines[undated:] if line.strip().startswith("loo"))
    assert loo.split() == ["loo", "hidden", "-", "shown", "-"]
    assert any(line.startswith("en dated: 1 questions, 1 hidden") for line in lines)


def test_only_undated_hidden_questions_are_listed() -> None:
    rows = [row("en-a0", 0.3), row("en-a1", 0.3, dated=True), row("en-a2", 0.7)]
    listed = explain_hidden.examples(rows, 0.5)
    assert len(listed) == 1
    assert listed[0].startswith("  0.300  q en-a0")
