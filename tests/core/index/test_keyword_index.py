"""Tokenizer rules and the BM25 keyword index."""

from __future__ import annotations

import math

import numpy as np
import pytest

from pixelmem.core.index import keyword_index
from pixelmem.core.index.keyword_index import KeywordIndex
from pixelmem.core.index.query import highlight_terms
from pixelmem.core.index.scripts import CJK_RUN
from pixelmem.core.index.text_tokens import normalise, query_terms, stem_of, tokenize, word_stems

# -- tokenizer ---------------------------------------------------------------------------------


def test_mixed_chinese_and_english() -> None:
    tokens = tokenize("用Python写数据库")
    expected = ["python", "~python", "用", "写", "数", "据", "库", "写数", "数据", "据库"]
    assert sorted(tokens) == sorted(expected)
    assert "用python" not in tokens  # a Latin word never swallows the CJK next to it


def test_cjk_runs_give_unigrams_and_bigrams_per_run() -> None:
    assert tokenize("长城，缆车") == ["长", "城", "长城", "缆", "车", "缆车"]
    assert set(tokenize("東京タワー")) >= {"東京", "タワ", "ワー", "タ"}
    assert set(tokenize("한국어 텍스트")) >= {"한국", "국어", "텍스", "스트"}


def test_full_width_and_compatibility_forms_are_normalised() -> None:
    assert tokenize("ＧＰＴ４ Ｈｅｌｌｏ") == ["gpt4", "hello", "~hello"]
    assert set(tokenize("ｶﾀｶﾅ")) == {"カ", "タ", "ナ", "カタ", "タカ", "カナ"}
    assert tokenize("ﬁle") == ["file", "~file"]
    assert normalise("ＡＢＣ") == "abc"


def test_compounds_are_kept_whole_and_split() -> None:
    assert sorted(tokenize("GPT-4o")) == ["4o", "gpt", "gpt-4o"]
    assert sorted(tokenize("C++ and C#")) == ["and", "c", "c", "c#", "c++"]  # stopword: no stem
    assert sorted(tokenize("user_ids v1.2")) == ["2", "ids", "user", "user_ids", "v1", "v1.2"]
    assert "bob@example.com" in tokenize("mail bob@example.com.")
    assert tokenize("issue#42") == ["issue", "42", "~issu"]


def test_case_punctuation_emoji_and_camel_case() -> None:
    assert tokenize("Hello, WORLD!!! 😀 — ok?") == ["hello", "world", "ok", "~hello", "~world"]
    assert tokenize("JavaScript") == ["javascript", "~javascript"]  # camelCase is not split
    assert tokenize("don’t stop") == ["don", "t", "stop", "~don", "~stop"]
    assert tokenize("") == [] and tokenize("  ,.;  ") == []


def test_letters_with_combining_marks_stay_one_word() -> None:
    assert tokenize("हिन्दी café naïve") == ["हिन्दी", "café", "naïve"]


def test_query_terms_drop_stopwords_and_duplicates() -> None:
    assert query_terms("What is the Zorblax-7, the Zorblax-7?") == ["zorblax-7", "zorblax", "7"]
    assert query_terms("running books") == ["running", "books", "~run", "~book"]
    assert query_terms("the of and") == []


def test_highlight_terms_prefers_long_cjk_substrings() -> None:
    text = "我们的数据库很大，索引也多。GPT-4o model"
    expected = ("gpt-4o", "gpt", "4o", "数据库", "索引")
    assert highlight_terms("数据库索引 GPT-4o the", text) == expected
    assert highlight_terms("长", "长城") == ("长",)  # a one-character query run still counts
    assert highlight_terms("长x", "城") == ()
    assert highlight_terms("长", "城") == ()
    long_query = "我们去了慕田峪长城" * 30  # a pasted paragraph: still one pass, same parts
    assert highlight_terms(long_query, "慕田峪长城很美") == ("慕田峪长城",)


# -- BM25 --------------------------------------------------------------------------------------

DOCS = [
    "the cat sat on the mat",
    "dogs and cats living together",
    "Met Dr. Okonkwo-Ferreira to review the XK-4471 budget",
    "the cat and the dog and the cat again",
    "长城旅行：我们去了慕田峪长城，缆车很方便",
]


@pytest.fixture(scope="module")
def index() -> KeywordIndex:
    return KeywordIndex.build(DOCS)


def test_exact_rare_term_ranks_first(index: KeywordIndex) -> None:
    idx, scores = index.score("XK-4471")
    assert idx.tolist() == [2] and scores[0] > 0
    assert index.score("okonkwo ferreira")[0].tolist() == [2]


def test_scores_match_the_bm25_formula() -> None:
    docs = [["apple", "pie"], ["apple", "apple", "tart", "crumble"], ["pear"]]
    index = KeywordIndex.from_tokens(docs, k1=1.5, b=0.75)
    avgdl = (2 + 4 + 1) / 3
    idf = math.log(1 + (3 - 2 + 0.5) / (2 + 0.5))

    def bm25(tf: int, dl: int) -> float:
        return idf * tf * 2.5 / (tf + 1.5 * (1 - 0.75 + 0.75 * dl / avgdl))

    np.testing.assert_allclose(index.scores(["apple"]), [bm25(1, 2), bm25(2, 4), 0], rtol=1e-6)
    assert index.doc_freq("apple") == 2 and index.doc_freq("plum") == 0
    assert index.vocabulary_size == 5 and len(index) == 3


def test_only_positive_scores_and_masks(index: KeywordIndex) -> None:
    idx, scores = index.score("cat", k=10)
    assert set(idx.tolist()) == {0, 1, 3} and np.all(scores > 0)  # "cats" by its stem
    assert idx.tolist() == [3, 0, 1]  # two occurrences beat one; the exact word beats "cats"
    mask = np.array([True, False, True, False, True])
    assert index.score("cat", k=10, mask=mask)[0].tolist() == [0]
    assert index.score("zqxj vwpt")[0].size == 0
    assert index.score("cat", k=1)[0].tolist() == [3]


def test_stopwords_are_not_indexed(index: KeywordIndex) -> None:
    assert index.doc_freq("the") == 0 and index.doc_freq("cat") == 2
    assert index.score("the and of")[0].size == 0


def test_chinese_query_finds_the_chinese_document(index: KeywordIndex) -> None:
    assert index.score("长城的缆车")[0].tolist()[0] == 4


def test_empty_corpus_and_empty_documents() -> None:
    empty = KeywordIndex.build([])
    assert len(empty) == 0 and empty.score("anything")[0].size == 0
    blanks = KeywordIndex.build(["", "the"])
    assert blanks.score("the")[0].size == 0 and len(blanks) == 2


def test_shortened_hash_collisions_fall_back_to_exact_term_ids(monkeypatch) -> None:
    docs = [tokenize(text) for text in DOCS]
    expected = KeywordIndex.from_tokens(docs)
    postings = keyword_index._postings
    # Keeping 2 bits of each hash makes terms collide, which the fast path must not accept.
    monkeypatch.setattr(keyword_index, "_postings", lambda h, d, n: postings(h, d, n, shift=62))
    collided = KeywordIndex.from_tokens(docs)
    assert collided.vocabulary_size == expected.vocabulary_size
    for query in ("cat", "XK-4471 budget", "长城的缆车", "dogs living"):
        terms = query_terms(query)
        np.testing.assert_allclose(collided.scores(terms), expected.scores(terms), rtol=1e-6)


def test_evidence_needs_a_strong_term(index: KeywordIndex) -> None:
    # 长城 matches; a query sharing only the character 城 with the text does not.
    assert index.evidence(["长城"], ["长", "城"])[4] > 0
    assert index.evidence(["城市"], ["城", "市"])[4] == 0
    assert index.evidence([], ["城"])[4] > 0  # a one-character query matches by itself
    both = index.evidence(["长城"], ["长", "城"])[4]
    assert both > index.evidence(["长城"], [])[4]  # weak terms add to a strong match


def test_idf_sum_counts_missing_terms_as_rarest(index: KeywordIndex) -> None:
    n = len(index)
    rare = math.log1p((n + 0.5) / 0.5)
    assert index.idf_sum(["zqxj"]) == pytest.approx(rare)
    cat = math.log1p((n - 2 + 0.5) / 2.5)
    assert index.idf_sum(["cat", "zqxj", "cat"]) == pytest.approx(cat + rare)


@pytest.mark.parametrize(
    "text",
    [
        "Books booking booked running the runs",
        "GPT-4o and user_id, c++ C# hx-99812 books-list e-mail",
        "ＧＰＴ４ Café naïve über 東京の数据库 ｶﾀｶﾅ hamburgers",
        "",
    ],
)
def test_word_stems_read_the_words_and_stems_tokenize_gives(text: str) -> None:
    words, stems = word_stems(text)
    tokens = tokenize(text)
    assert set(words) == {t for t in tokens if t[0] != "~" and not CJK_RUN.fullmatch(t)}
    assert stems == {t for t in tokens if t[0] == "~"}  # of whole words, not of parts
    assert all(stem == stem_of(word) for word, stem in words.items())


def test_highlight_marks_inflections_only_where_the_keyword_side_matches() -> None:
    assert highlight_terms("book", "Two books, one booking") == ("books", "booking")
    # "books" is only a part of a compound here: keyword search does not find the stem
    # ~book in it, so the compound's part is not marked for "book" either.
    assert highlight_terms("book", "see books-list") == ()
    assert highlight_terms("books", "see books-list") == ("books",)
