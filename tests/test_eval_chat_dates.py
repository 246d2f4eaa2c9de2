"""benchmarks/eval_chat_dates.py judges a question that names a time by the days inside it,
read with "now" the day after the vault's last one; a question naming none is not asked."""

from __future__ import annotations

from datetime import timedelta

from benchmarks import eval_chat_dates

DAYS = ["2023-04-27", "2023-04-28", "2023-05-02"]
NOW = eval_chat_dates.day_time(DAYS[-1]) + timedelta(days=1)


def test_a_named_day_is_judged_by_that_days_note_in_both_languages() -> None:
    assert eval_chat_dates.days_named("What was my mood on April 28th?", DAYS, NOW) == {
        "2023-04-28"
    }
    assert eval_chat_dates.days_named("在5月2号我的心情怎么样？", DAYS, NOW) == {"2023-05-02"}


def test_a_question_without_a_time_is_left_out_and_an_empty_range_judges_nothing() -> None:
    assert eval_chat_dates.days_named("Which movie did you recommend?", DAYS, NOW) is None
    assert eval_chat_dates.days_named("What did I do on June 3rd?", DAYS, NOW) == set()
