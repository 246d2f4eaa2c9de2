"""Whether the best hit answers the query: the number the floor is applied to.

Ranking and deciding are two questions. Search ranks memories by a score per memory (the rank
logit of :func:`~pixelmem.core.index.relevance.rank_logits`: a fused model of each memory's
own evidence, monotone in it, so the memories a side did not list can be bounded). Whether the
best of them answers at all is read from more than its level of evidence (:class:`Best`):

* **semantic** and **keyword** evidence, as ranked;
* **coverage**: the share of the query's words the best hit holds, each weighed by its idf
  squared (the rare words count). A question written about a note repeats its specific words;
  a question the note does not answer, on the same subject, shares the subject's name and
  little else (a singer's biography under "in which year did she win her first contest?").
  Chinese words are the words a segmenter cuts (:class:`~pixelmem.core.index.query.
  CoverageWord`), not the character pairs the keyword side indexes: a pair straddling two
  words (位演 of 哪位演员) is in no note of a small vault, and it weighed as the rarest word of
  the question (XQuAD zh: 0.6-0.8 of a question's weight on words no note held);
* **elsewhere**: the share (idf²) of the query's words the best hit lacks while one of the
  next memories ranked holds them: a question about another thing of the vault, answered by
  its sibling. Measured (calib5), and read by no shipped model: a weight on it moved the
  Chinese decision along the same trade-off and did not hold up on held-back questions; a
  search reads it only when a model weighs it or the evidence is explained;
* **margin**: how far the best hit's rank logit stands above the next memory of other content
  (capped at :data:`MARGIN_CAP`): an answer stands out from its neighbours;
* **standout**: how far the best hit's cosine stands above this vault's own notes in its
  script, in their spread (median and MAD of the vault sample, blended with the anchor
  texts in a small vault), less the expected best of that many unrelated notes
  (``sqrt(2 ln N)``). Across languages a multilingual model's cosines sit lower and closer
  together, and the level alone cannot tell the right note from the others; its standing out
  of its vault can.
* **loo**: how far the best hit's cosine stands above the vault's own leave-one-out null, in
  its deviations: the cosine of a memory of this vault with its nearest *other* memory
  (sampled at index time, per script; SearchIndex.loo_null). That is what a question about a
  thing this vault does not hold, answered by a sibling, scores in THIS vault: high in a vault
  of one topic's articles, low in one of unrelated notes. None (read as 0) under
  vault_null.LOO_MIN memories in the script and for a best hit in another script.

The decision is the largest logit of the models that apply (evidence combines: a side that has
nothing to say does not count against the other):

* ``both``: the best hit is in the query's script and the keyword side ran (:class:`Decision`
  over all five);
* ``meaning``: in the query's script, by meaning alone (a paraphrase shares no word);
* ``across``: the best hit is in another script than the query (keyword evidence is then a
  shared name or number at most); ``across_short`` for a look-up of a few words (同步 over an
  English vault), where the calibration has one: a topic's several notes stand close together;
* ``words``: a short query (a name, a code) whose every word it holds: the keyword model;
* ``names``: a longer question's names (:attr:`~pixelmem.core.index.query.ParsedQuery.names`),
  all held by it: what the bare names give it — unless, in a vault big enough to hold the
  common words (:data:`NAMES_UNKNOWN_VAULT` notes), the words no note holds weigh at least
  :data:`NAMES_UNKNOWN_MAX` of the question (in its own script): "What is chloroplast DNA
  abbreviated as?" asks about chloroplasts, which the vault lacks, not about every note that
  says DNA;
* the query is its name: at least :data:`~pixelmem.core.index.relevance.NAME_RELEVANCE`.

**A name the vault lacks** (:func:`lacks_a_name`): a question that writes a proper name no
note holds ("the storm that hit Jacksonville", "the Mamluks out of Palestine"), in a vault big
enough to say (:data:`NAMES_UNKNOWN_VAULT` notes), asks about something the vault does not
hold; its best hit is a neighbour on the subject (another city's weather, the Mongols' other
wars). The models of the query's own script are lowered by :data:`ABSENT_NAME_LOGIT`.

**Token coverage on the border** (:class:`TokenCheck`): a decision that lands near the floor
(inside the check's band) and was made by a model of the query's own script is moved by how
much better the best hit covers the question *token by token* than the next memory does
(``lift``: per question token its best cosine over the best passage's tokens less that over
the next memory's passage, averaged; late interaction with the same model, whose token
vectors only an embedder that exposes them gives — none: no move). A question about a thing
the vault lacks, answered by a sibling passage, is covered as well by the sibling (lift near
0); a paraphrased or deictic question's passage covers it token by token in meaning where the
words differ. The move stays inside the band: a borderline decision stays borderline-or-less
and a sure one is never read (most searches pay nothing).

The best hit's score is that decision. Every other hit keeps its own rank logit less
``behind`` times its distance to the best, and never more than the decision less that
distance: when the best hit is not shown, nothing ranked below it is, and the order is always
the rank order.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Protocol

import numpy as np

MARGIN_CAP = 3.0  # logits: a lead this large says all a lead can
STANDOUT_CAP = 6.0  # spreads: as far above its vault as standing out can say
NAME_LOGIT = math.log(0.9 / 0.1)  # relevance.NAME_RELEVANCE as a logit
# A question whose words no note holds weigh this share of it (idf²) or more is not asking for
# its names: the rest of it is what the vault lacks. Across scripts a question's own words are
# unknown to the notes by nature, so it does not apply there.
NAMES_UNKNOWN_MAX = 0.5
# ... read only in a vault this big: in a small one a common word ("When did Priya eat?") is
# missing by chance, and its absence says nothing about what the question asks.
NAMES_UNKNOWN_VAULT = 300
# Logits a question naming something no note holds loses (lacks_a_name). On the development
# sets (unans_en_700, SQuAD train's 800 questions over the same 694 paragraphs): every shown
# question nothing answered that named an absent name sat within 0.6 logit of the floor, and
# the right-first answers naming one (an accent or a spelling apart: Shankun, Niccolo) 1.0
# logit or more above it; 1.0 hides the first and keeps the second.
ABSENT_NAME_LOGIT = 1.0


@dataclass(frozen=True)
class Decision:
    """``intercept + rank·r + semantic·s + keyword·k + coverage·c + margin·m + standout·z +
    short·q + unknown·u`` (a logit); every weight on evidence ≥ 0: more evidence never lowers it.
    ``short`` moves the intercept for a query of a few words (``q``: a name, a code), whose
    embedding says little: a bare name's best note by meaning is a note by chance;
    ``unknown`` for a query whose words the vault does not hold at all (``u``, the share of
    them): the vault does not know what it asks about. Neither is evidence about the hit, so
    their weights may have either sign."""

    intercept: float
    rank: float = 0.0
    semantic: float = 0.0
    keyword: float = 0.0
    coverage: float = 0.0
    margin: float = 0.0
    standout: float = 0.0
    short: float = 0.0
    unknown: float = 0.0
    elsewhere: float = 0.0
    loo: float = 0.0

    def logit(self, best: Best) -> float:
        return float(
            self.intercept
            + self.rank * best.rank
            + self.semantic * (best.semantic or 0.0)
            + self.keyword * (best.keyword or 0.0)
            + self.coverage * best.coverage
            + self.margin * best.margin
            + self.standout * (best.standout or 0.0)
            + self.short * best.short_query
            + self.unknown * best.unknown
            + self.elsewhere * best.elsewhere
            + self.loo * (best.loo or 0.0)
        )

    def monotone(self) -> bool:
        weights = (
            self.rank,
            self.semantic,
            self.keyword,
            self.coverage,
            self.margin,
            self.standout,
            self.loo,
        )
        return all(w >= 0 for w in weights)


class _Side(Protocol):
    """A fitted logistic model of rank evidence (relevance.Logistic)."""

    def logit(
        self,
        semantic: np.ndarray | float,
        keyword: np.ndarray | float,
        cross: np.ndarray | float = ...,
        short: float | np.ndarray = ...,
    ) -> np.ndarray: ...


class Models(Protocol):
    """What :func:`decide` reads of a calibration (relevance.Calibration, which imports this
    module: a protocol here keeps the two out of an import circle)."""

    @property
    def hybrid(self) -> _Side: ...
    @property
    def keyword(self) -> _Side: ...
    @property
    def meaning(self) -> Decision: ...


@dataclass(frozen=True)
class Best:
    """The best hit's evidence, as the decision reads it (None: that side did not run)."""

    rank: float  # its rank logit
    semantic: float | None
    keyword: float | None  # 0 for a short query it holds only in part
    coverage: float = 0.0  # Σ idf² of the query words it holds / Σ idf² of them all
    unknown: float = 0.0  # Σ idf² of the query words no memory holds / Σ idf² of them all
    elsewhere: float = 0.0  # Σ idf² of those it lacks and a next-ranked memory holds / of all
    margin: float = MARGIN_CAP  # its rank logit less the next other memory's, capped
    standout: float | None = None  # (cosine − vault median) / vault MAD − sqrt(2 ln N)
    loo: float | None = None  # (cosine − vault's leave-one-out null) / its deviation
    cross: bool = False  # in another script than the query
    held: bool = False  # a short query whose every word it holds
    names_keyword: float | None = None  # the keyword evidence of the question's names
    names_held: bool = False
    named: bool = False  # the query is its name
    short_query: bool = False  # the query is a few words (relevance.SHORT_QUERY_WORDS)
    cjk: bool = False  # the query is written in a CJK script
    statement: bool = False  # the query is a long claim or pasted sentence (ParsedQuery.statement)
    lift: float | None = None  # token coverage over the next memory's (TokenCheck; None: unread)
    next_coverage: float = 1.0  # the next memory's own token coverage of the question
    notes: int = 0  # memories in the vault
    name_absent: bool = False  # the query writes a proper name no memory holds
    cjk_statement: bool = False  # a long CJK text that asks nothing (ParsedQuery.cjk_statement)


@dataclass(frozen=True)
class TokenCheck:
    """How a borderline decision reads the best hit's token coverage (see the module
    docstring): inside ``[low, high)`` (logits) a lift below ``lower_below`` lowers the
    decision by ``weight`` per unit of lift under it (the next memory covers the question as
    well or better: a sibling's question), one above ``raise_above`` raises it alike (the best
    hit covers it distinctly; None: never raised) — only when the next memory is a sibling,
    covering the question's tokens at least ``sibling`` on average itself: covering more than
    an unrelated note does says nothing about answering. The decision stays inside the band;
    between the two thresholds the lift says nothing. ``weight`` 0: never read."""

    low: float
    high: float
    weight: float = 0.0
    lower_below: float = 0.0
    raise_above: float | None = None
    sibling: float = 0.0

    def reads(self, logit: float) -> bool:
        return self.weight > 0 and self.low <= logit < self.high

    def moved(self, logit: float, lift: float, next_coverage: float = 1.0) -> float:
        if not self.reads(logit):
            return logit
        if lift < self.lower_below:
            logit += self.weight * (lift - self.lower_below)
        elif self.raise_above is not None and lift > self.raise_above:
            if next_coverage < self.sibling:  # no sibling next to it: nothing to read
                return logit
            logit += self.weight * (lift - self.raise_above)
        return float(min(max(logit, self.low), math.nextafter(self.high, -math.inf)))


NO_TOKEN_CHECK = TokenCheck(0.0, 0.0)
OWN_SCRIPT_PARTS = ("same", "same_cjk", "statement", "meaning")  # the models a token check may move


def token_check(models: object, best: Best) -> TokenCheck:
    """The check that applies to ``best``: the calibration's for the query's script (CJK or
    not; none for a best hit in another script, nor for a short query), and a statement's own
    where the calibration decides statements by a model of their own and has one
    (``tokens_statement``). None for a Chinese statement: as an English claim's, the lift
    of a long sentence that asks nothing is averaged over many tokens the next memory on its
    subject covers as well, and what is left says little (sentences_zh, e5: the check read 17
    of the 300 sentences nothing answers near the floor and none of the answered ones; it
    raised 3 of them above the floor and lowered 1 under it: 284 → 286 empty without it)."""
    if best.cross or best.short_query:  # a bare name or code is not a question to cover
        return NO_TOKEN_CHECK
    if best.cjk_statement:  # a CJK query by its definition
        return NO_TOKEN_CHECK
    if decided_as_statement(models, best):
        own = getattr(models, "tokens_statement", None)
        if own is not None:
            return own
    name = "tokens_cjk" if best.cjk else "tokens"
    return getattr(models, name, NO_TOKEN_CHECK)


def reads_tokens(models: object, best: Best, logit: float, parts: dict[str, float]) -> bool:
    """Whether the decision ``logit`` (with its ``parts``) is one a token check moves: on the
    border, made by a model of the query's own script."""
    if not parts or max(parts, key=lambda name: parts[name]) not in OWN_SCRIPT_PARTS:
        return False
    return token_check(models, best).reads(logit)


def standout(cosine: float, median: float, spread: float, count: int) -> float:
    """How many spreads ``cosine`` stands above ``median``, less the expected best of
    ``count`` unrelated texts (about ``sqrt(2 ln N)`` spreads above their median), at most
    :data:`STANDOUT_CAP`."""
    expected = math.sqrt(2.0 * math.log(max(2, count)))
    return min(STANDOUT_CAP, (cosine - median) / max(spread, 1e-6) - expected)


def decide(models: Models, best: Best, mode: str) -> tuple[float, dict[str, float]]:
    """The decision logit for the best hit and each model's logit (see the module docstring).
    ``mode`` "keyword" (or a model that cannot read the query): the rank logit itself."""
    parts: dict[str, float] = {}
    if mode == "keyword" or best.semantic is None:
        parts["rank"] = best.rank
    else:
        name = ("across" if best.cross else "same") + ("_cjk" if best.cjk else "")
        if best.cross and best.short_query and getattr(models, f"{name}_short", None):
            name = f"{name}_short"
        elif name == "same" and decided_as_statement(models, best):
            name = "statement"
        absent = ABSENT_NAME_LOGIT if lacks_a_name(best) else 0.0
        parts[name] = getattr(models, name).logit(best) - absent
        if not best.cross:
            parts["meaning"] = models.meaning.logit(best) - absent
    if best.held and best.keyword is not None and mode != "semantic":
        parts["words"] = float(models.keyword.logit(0.0, best.keyword))
    if names_speak(best) and not decided_as_statement(models, best):
        assert best.names_keyword is not None and best.semantic is not None
        bare = models.hybrid.logit(best.semantic, best.names_keyword, float(best.cross), 1.0)
        words = models.keyword.logit(0.0, best.names_keyword)
        parts["names"] = float(max(np.max(bare), np.max(words)))
    logit = max(parts.values())
    if best.lift is not None and reads_tokens(models, best, logit, parts):
        moved = token_check(models, best).moved(logit, best.lift, best.next_coverage)
        rules = [v for name, v in parts.items() if name not in OWN_SCRIPT_PARTS]
        parts["tokens"] = moved
        logit = max([moved, *rules])
    if best.named and mode != "semantic":
        parts["named"] = max(logit, NAME_LOGIT)
        logit = parts["named"]
    return logit, parts


def decided_as_statement(models: object, best: Best) -> bool:
    """Whether ``best``'s query is a statement decided by the calibration's statement model.
    Its held names then do not decide it as bare names would: a pasted sentence names the
    places and people of its subject ("The United States shared some of its satellite images
    … with China"), and a note on that subject holds them whether or not it holds what the
    sentence states; the statement model reads its rare words already (sentences_en, e5: 4
    of the 36 shown that nothing answers were shown by their names at 0.87-0.99; without:
    264 -> 265 empty, claims_bio 153 -> 154, no answered claim hidden). Without a statement
    model (MiniLM) a statement is a question, names included (there they kept 2 right-first
    biomedical claims shown)."""
    if not best.statement or best.cjk or best.cross:
        return False
    return getattr(models, "statement", None) is not None


def names_speak(best: Best) -> bool:
    """Whether the question's names decide for it as bare names would (``names``)."""
    if not best.names_held or best.names_keyword is None or best.semantic is None:
        return False
    return not names_outweighed(best)


def lacks_a_name(best: Best) -> bool:
    """Whether the question names something the vault does not hold (see the module
    docstring): a proper name no note holds, a question (not a look-up of a few words, which
    is all names, nor a statement, decided by a model of its own) in the best hit's script,
    in a vault of :data:`NAMES_UNKNOWN_VAULT` notes or more."""
    if not best.name_absent or best.cross or best.short_query or best.statement:
        return False
    return best.notes >= NAMES_UNKNOWN_VAULT


def names_outweighed(best: Best) -> bool:
    """Whether the words no note holds outweigh a question's held names (see ``names``)."""
    if best.cross or best.notes < NAMES_UNKNOWN_VAULT:
        return False
    return best.unknown >= NAMES_UNKNOWN_MAX


def finish(rank: np.ndarray, top: int, decision: float, behind: float) -> np.ndarray:
    """Final logits: the best hit (position ``top``) gets the decision; every other memory its
    rank logit less ``behind`` times its distance to the best, at most the decision less that
    distance (the order stays the rank order)."""
    rank = np.asarray(rank, np.float64)
    finite = np.isfinite(rank)
    distance = np.where(finite, rank[top] - rank, np.inf)
    own = rank - behind * distance
    out = np.minimum(own, decision - distance)
    out[top] = decision
    return np.where(finite, out, -np.inf)
