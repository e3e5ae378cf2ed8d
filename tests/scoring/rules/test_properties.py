"""The engine against a slow exhaustive reference written here, on random hands.

The reference shares no search code with the engine:
    melds      every subset of the cards (itertools.combinations) that passes a plain
               meld check;
    deadwood   a memoised exhaustive recursion: the lowest card left is either deadwood
               or in one of the melds that hold it;
    lay-offs   every set of defender cards reachable by placing them one at a time, in
               every order, on any knocker's meld they grow into a bigger meld;
    spread     every collection of disjoint knocker melds within the knock limit.
Hands are uniformly random (the whole deck) or meld-dense (ranks A to 6 only, 24 cards).
Example counts follow the hypothesis profile (tests/conftest.py); the slowest references
run a fraction of it.
"""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from scoring.rules import (
    DECK,
    PROFILES,
    RulesError,
    analyse_eleven,
    best_arrangement,
    best_deadwood,
    defender_reply,
    make_profile,
    score_cards,
    score_quick,
)
from tests.scoring.rules.checks import arrangement_problem, can_lay_off, rank_of, suit_of, value_of

FULL = tuple(DECK)
LOW = tuple(c for c in DECK if rank_of(c) <= 6)  # meld-dense: ranks A to 6
DECKS = {"uniform": FULL, "dense": LOW}
RANK = {c: rank_of(c) for c in DECK}
SUIT = {c: suit_of(c) for c in DECK}
VALUE = {c: value_of(c) for c in DECK}

EXAMPLES = settings().max_examples  # the profile tests/conftest.py loaded


def scaled(fraction: float) -> settings:
    return settings(
        max_examples=max(10, int(EXAMPLES * fraction)),
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )


# ----------------------------------------------------------------------- reference


def meld_ok(cards) -> bool:
    if len(cards) < 3:
        return False
    ranks = sorted(RANK[c] for c in cards)
    if ranks[0] == ranks[-1]:
        return len(cards) <= 4
    return len({SUIT[c] for c in cards}) == 1 and all(
        b == a + 1 for a, b in zip(ranks, ranks[1:], strict=False)
    )


class Ref:
    """Exhaustive answers about one set of cards; subsets are bitmasks over positions."""

    def __init__(self, cards) -> None:
        self.cards = tuple(cards)
        n = len(self.cards)
        self.full = (1 << n) - 1
        self.values = [VALUE[c] for c in self.cards]
        self.melds = [
            sum(1 << i for i in combo)
            for size in range(3, n + 1)
            for combo in combinations(range(n), size)
            if meld_ok([self.cards[i] for i in combo])
        ]
        self.holding = [[m for m in self.melds if m >> i & 1] for i in range(n)]
        self.memo = {0: 0}

    def mask(self, cards) -> int:
        return sum(1 << self.cards.index(c) for c in cards)

    def best(self, mask: int | None = None) -> int:
        """Least deadwood of the cards in `mask` (all of them by default)."""
        mask = self.full if mask is None else mask
        found = self.memo.get(mask)
        if found is None:
            low = mask & -mask
            found = self.values[low.bit_length() - 1] + self.best(mask ^ low)
            for meld in self.holding[low.bit_length() - 1]:
                if meld & mask == meld:
                    found = min(found, self.best(mask ^ meld))
            self.memo[mask] = found
        return found

    def spreads(self) -> list[list[int]]:
        """Every collection of disjoint melds, the empty one included."""
        found: list[list[int]] = []

        def grow(start: int, used: int, chosen: list[int]) -> None:
            found.append(chosen)
            for j in range(start, len(self.melds)):
                if not self.melds[j] & used:
                    grow(j + 1, used | self.melds[j], chosen + [self.melds[j]])

        grow(0, 0, [])
        return found

    def cards_of(self, mask: int) -> tuple:
        return tuple(c for i, c in enumerate(self.cards) if mask >> i & 1)


def layable_sets(knocker_melds, defender) -> set[frozenset]:
    """Every set of defender cards that can be laid off together on the knocker's melds."""
    start = (frozenset(), tuple(frozenset(m) for m in knocker_melds))
    seen, stack = {start}, [start]
    while stack:
        placed, melds = stack.pop()
        for card in defender:
            if card in placed:
                continue
            for i, meld in enumerate(melds):
                if meld_ok([*meld, card]):
                    state = (placed | {card}, melds[:i] + (meld | {card},) + melds[i + 1 :])
                    if state not in seen:
                        seen.add(state)
                        stack.append(state)
    return {placed for placed, _ in seen}


def ref_defender(knocker_melds, defender: Ref) -> int:
    """The defender's least deadwood over own melds and lay-offs chosen together."""
    return min(
        defender.best(defender.full ^ defender.mask(laid))
        for laid in layable_sets(knocker_melds, defender.cards)
    )


def ref_score(k: int, d_before: int, d: int, profile) -> tuple[str, int]:
    if k == 0:
        return "knocker", profile.gin_bonus + d_before
    if d < k or (d == k and profile.undercut_on_tie):
        return "defender", profile.undercut_bonus + k - d
    return "knocker", d - k


def ref_best_for_knocker(knocker: Ref, defender: Ref, profile) -> int | None:
    """The knocker's best net result over every spread within the knock limit, each met
    by the defender's best reply; None when no spread is within the limit."""
    before = defender.best()
    total = sum(knocker.values)
    best = None
    for spread in knocker.spreads():
        k = total - sum(
            knocker.values[i] for m in spread for i in range(len(knocker.cards)) if m >> i & 1
        )
        if k > profile.knock_limit:
            continue
        melds = [knocker.cards_of(m) for m in spread]
        d = ref_defender(melds, defender) if profile.layoffs and k else before
        winner, points = ref_score(k, before, d, profile)
        net = points if winner == "knocker" else -points
        best = net if best is None else max(best, net)
    return best


# ---------------------------------------------------------------------- strategies


def all_melds(deck) -> tuple[tuple, ...]:
    """Every meld inside `deck`: each 3-card and 4-card set, each stretch of a run."""
    melds = []
    for rank in range(1, 14):
        group = [c for c in deck if RANK[c] == rank]
        melds.extend(combinations(group, 3))
        if len(group) == 4:
            melds.append(tuple(group))
    for suit in "CDHS":
        ranks = {RANK[c]: c for c in deck if SUIT[c] == suit}
        for low in ranks:
            high = low + 2
            while all(r in ranks for r in range(low, high + 1)):
                melds.append(tuple(ranks[r] for r in range(low, high + 1)))
                high += 1
    return tuple(melds)


ALL_MELDS = {name: all_melds(deck) for name, deck in DECKS.items()}
DECK_NAMES = st.sampled_from(sorted(DECKS))


def hands(size: int):
    """(deck name, `size` cards dealt uniformly from that deck)."""
    return DECK_NAMES.flatmap(
        lambda name: st.permutations(DECKS[name]).map(lambda p: (name, tuple(p[:size])))
    )


@st.composite
def spreads(draw, deck_name: str, room: int = 10, max_melds: int = 3):
    """A few disjoint melds from the deck, at most `room` cards in all."""
    melds: list[tuple] = []
    used: set = set()
    for _ in range(draw(st.integers(1, max_melds))):
        options = [
            m for m in ALL_MELDS[deck_name] if len(m) <= room - len(used) and used.isdisjoint(m)
        ]
        if not options:
            break
        meld = draw(st.sampled_from(options))
        melds.append(meld)
        used.update(meld)
    return melds


@st.composite
def spread_deals(draw):
    """(deck name, knocker's melds, defender's 10 cards from the rest of the deck)."""
    name = draw(DECK_NAMES)
    melds = draw(spreads(name, room=14 if name == "uniform" else 12))
    return name, melds, draw(defenders(DECKS[name], [c for m in melds for c in m]))


def near(cards, deck) -> list:
    """Cards of the deck that could touch `cards`: same rank, or same suit within 2 ranks
    (lay-off candidates and the links of lay-off chains)."""
    return [
        c
        for c in deck
        if c not in cards
        and any(
            RANK[c] == RANK[x] or (SUIT[c] == SUIT[x] and abs(RANK[c] - RANK[x]) <= 2)
            for x in cards
        )
    ]


@st.composite
def defenders(draw, deck, knocker):
    """10 cards outside `knocker`: some near the knocker's cards, the rest at random."""
    chosen: list = []
    for _ in range(draw(st.integers(0, 6))):
        options = [c for c in near(knocker, deck) if c not in chosen]
        if options:
            chosen.append(draw(st.sampled_from(options)))
    rest = [c for c in deck if c not in knocker and c not in chosen]
    chosen += draw(
        st.lists(
            st.sampled_from(rest), min_size=10 - len(chosen), max_size=10 - len(chosen), unique=True
        )
    )
    return tuple(draw(st.permutations(chosen)))


@st.composite
def knock_deals(draw):
    """(deck name, knocker's 10 cards, defender's 10): the knocker is built from melds and
    low cards so that deadwood 10 or less is common; extra cards often make new melds,
    so the knocker has several spreads to choose from."""
    name = draw(DECK_NAMES)
    deck = DECKS[name]
    knocker: list = []
    while len(knocker) < 6 or (len(knocker) < 8 and draw(st.booleans())):
        options = [
            m
            for m in ALL_MELDS[name]  # leave room for one card at least
            if len(m) <= 9 - len(knocker) and not set(knocker).intersection(m)
        ]
        assume(options)
        knocker.extend(draw(st.sampled_from(options)))
    budget = 10
    while len(knocker) < 10:
        after = 9 - len(knocker)
        options = [c for c in deck if c not in knocker and VALUE[c] + after <= budget]
        assume(options)
        card = draw(st.sampled_from(options))
        knocker.append(card)
        budget -= VALUE[card]
    knocker = draw(st.permutations(knocker))
    return name, tuple(knocker), draw(defenders(deck, knocker))


@st.composite
def dealt_knocks(draw):
    """(knocker's 10, defender's 10) dealt from the meld-dense deck: the knocker is dealt
    11 and throws the card that leaves the least deadwood, as a player would."""
    deck = draw(st.permutations(LOW))
    eleven = Ref(deck[:11])
    throw = min(range(11), key=lambda i: eleven.best(eleven.full ^ (1 << i)))
    return tuple(c for i, c in enumerate(deck[:11]) if i != throw), tuple(deck[11:21])


RULE_VARIANTS = st.fixed_dictionaries(
    {
        "knock_limit": st.sampled_from([10, 10, 10, 7, 3, 0]),
        "undercut_on_tie": st.booleans(),
        "layoffs": st.sampled_from([True, True, True, False]),
    }
)


# ------------------------------------------------------------------------ deadwood


@settings(max_examples=EXAMPLES)
@given(hands(10))
def test_best_deadwood_of_ten_cards_matches_exhaustive_search(dealt):
    _, hand = dealt
    expected = Ref(hand).best()
    assert best_deadwood(hand) == expected
    arrangement = best_arrangement(hand)
    assert arrangement.deadwood == expected
    problem = arrangement_problem(hand, arrangement.melds, arrangement.deadwood_cards, expected)
    assert problem is None, problem


@settings(max_examples=EXAMPLES)
@given(hands(11), st.integers(0, 10))
def test_eleven_cards_best_discard_knock_discards_gin_and_big_gin_match_exhaustive_search(
    dealt, knock_limit
):
    _, hand = dealt
    ref = Ref(hand)
    after = {card: ref.best(ref.full ^ (1 << i)) for i, card in enumerate(hand)}
    best = min(after.values())
    analysis = analyse_eleven(hand, knock_limit)
    assert analysis.deadwood_all11 == ref.best()
    assert analysis.best_discard_deadwood == best
    assert set(analysis.best_discards) == {c for c, v in after.items() if v == best}
    assert set(analysis.knock_discards) == {c for c, v in after.items() if v <= knock_limit}
    assert set(analysis.gin_discards) == {c for c, v in after.items() if v == 0}
    assert analysis.can_gin == (best == 0)
    assert analysis.big_gin == (ref.best() == 0)


# ------------------------------------------------------------------------ lay-offs


@scaled(0.5)
@given(spread_deals())
def test_defender_melds_and_layoffs_chosen_together_match_exhaustive_search(deal):
    _, knocker_melds, defender = deal
    ref = Ref(defender)
    expected = ref_defender(knocker_melds, ref)
    reply = defender_reply(knocker_melds, defender)
    event("some lay-offs" if reply.laid_off else "no lay-offs")
    assert reply.deadwood == expected
    assert can_lay_off(knocker_melds, reply.laid_off), reply.laid_off
    kept = [c for c in defender if c not in reply.laid_off]
    problem = arrangement_problem(kept, reply.melds, None, expected)
    assert problem is None, problem
    no_layoffs = defender_reply(knocker_melds, defender, layoffs_allowed=False)
    assert (no_layoffs.deadwood, no_layoffs.laid_off) == (ref.best(), ())


# ---------------------------------------------------------------- knocker's spread


def _check_knock(knocker, defender, rules) -> None:
    profile = make_profile("standard", rules)
    k_ref, d_ref = Ref(knocker), Ref(defender)
    expected = ref_best_for_knocker(k_ref, d_ref, profile)
    if expected is None:
        with pytest.raises(RulesError) as caught:
            score_cards(knocker=knocker, defender=defender, profile=profile)
        assert caught.value.code == "illegal_knock"
        assert k_ref.best() > profile.knock_limit
        return
    result = score_cards(knocker=knocker, defender=defender, profile=profile)
    event(f"{result.outcome.value}, {'some' if result.laid_off else 'no'} lay-offs")
    net = result.points if result.winner == "knocker" else -result.points
    assert net == expected
    # The spread the engine shows is legal and the defender's reply to it is the best.
    k = result.knocker_deadwood
    assert k <= profile.knock_limit
    problem = arrangement_problem(knocker, result.knocker_melds, None, k)
    assert problem is None, problem
    before = d_ref.best()
    d = ref_defender(result.knocker_melds, d_ref) if profile.layoffs and k else before
    assert result.defender_deadwood == (before if k == 0 else d)
    assert ref_score(k, before, d, profile) == (result.winner, result.points)
    if k == 0 or not profile.layoffs:
        assert result.laid_off == ()
    assert can_lay_off(result.knocker_melds, result.laid_off)
    kept = [c for c in defender if c not in result.laid_off]
    problem = arrangement_problem(kept, result.defender_melds, None, result.defender_deadwood)
    assert problem is None, problem


@scaled(0.5)
@given(knock_deals(), RULE_VARIANTS)
def test_knocker_spread_is_the_best_net_result_against_the_best_reply(deal, rules):
    _, knocker, defender = deal
    _check_knock(knocker, defender, rules)


@scaled(0.25)
@given(dealt_knocks(), RULE_VARIANTS)
def test_knocker_spread_on_dealt_meld_dense_hands_matches_exhaustive_search(deal, rules):
    _check_knock(*deal, rules)


# ---------------------------------------------------------------------- invariants


@settings(max_examples=EXAMPLES)
@given(hands(10))
def test_ten_card_deadwood_is_between_0_and_98(dealt):
    _, hand = dealt
    assert 0 <= best_deadwood(hand) <= 98


@settings(max_examples=EXAMPLES)
@given(
    st.sampled_from(["knock", "gin", "big_gin", "dead"]),
    st.integers(0, 98),
    st.integers(0, 98),
    st.sampled_from(sorted(PROFILES)),
    st.sampled_from(FULL),
)
def test_quick_entry_points_are_never_negative_and_one_side_scores(outcome, k, d, name, upcard):
    profile = make_profile(name)
    try:
        result = score_quick(
            outcome=outcome, knocker_deadwood=k, defender_deadwood=d, profile=profile, upcard=upcard
        )
    except RulesError as error:
        assert error.code == "illegal_knock"
        assert outcome != "dead" and k > 0 or outcome == "big_gin"
        return
    assert result.points >= 0
    if outcome == "dead":
        assert (result.winner, result.points) == (None, 0)
    else:
        assert result.winner in ("knocker", "defender")
        assert 0 <= result.knocker_deadwood <= 98 and 0 <= result.defender_deadwood <= 98


@scaled(0.5)
@given(st.permutations(FULL), st.sampled_from(sorted(PROFILES)))
def test_card_entry_points_are_never_negative_and_exactly_one_side_scores(deck, name):
    knocker, defender = tuple(deck[:10]), tuple(deck[10:20])
    try:
        result = score_cards(
            knocker=knocker, defender=defender, profile=make_profile(name), upcard=deck[20]
        )
    except RulesError as error:
        assert error.code == "illegal_knock"
        return
    assert result.points >= 0
    assert result.winner in ("knocker", "defender")
    assert 0 <= result.knocker_deadwood <= 98
    assert 0 <= result.defender_deadwood <= best_deadwood(defender) <= 98
