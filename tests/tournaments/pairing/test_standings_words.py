"""Every standings line says why it stands there (issue 9, 'every number explains
itself'), from hand-worked events."""

from __future__ import annotations

import pickle

import pytest

from tournaments.pairing import MatchRecord, compute_standings, explain_standings
from tournaments.pairing.words import Phrase, Worded

NAMES = {1: "Ada", 2: "Ben", 3: "Cleo", 4: "Dev"}


def why(records, tiebreaks):
    lines = compute_standings(sorted(NAMES), records, tiebreaks)
    words = explain_standings(lines, NAMES, tiebreaks)
    return [(NAMES[line.id], words[line.id]) for line in lines]


def test_game_win_percentage_and_match_wins_are_named_with_both_values():
    records = [
        MatchRecord(1, 3, 1, 3, 2, 0, 0),  # Ada beats Cleo 3-2
        MatchRecord(2, 4, 2, 3, 2, 0, 0),  # Ben beats Dev 3-2
        MatchRecord(1, 4, 1, 4, 2, 0, 0),  # Ada: 7 games of 11
        MatchRecord(2, 3, 2, 3, 3, 0, 0),  # Ben: 6 games of 11
    ]
    assert why(records, ("game_win_pct",)) == [
        ("Ada", "Ahead of Ben on game-win %: 7 of 11 against 6 of 11."),
        (
            "Ben",
            "Behind Ada on game-win %: 6 of 11 against 7 of 11; "
            "ahead of Cleo on match wins: 2 against 0.",
        ),
        (
            "Cleo",
            "Behind Ben on match wins: 0 against 2; "
            "ahead of Dev on game-win %: 5 of 11 against 4 of 11.",
        ),
        ("Dev", "Behind Cleo on game-win %: 4 of 11 against 5 of 11."),
    ]


def test_head_to_head_says_who_beat_whom():
    won = [(1, 2), (2, 3), (3, 4), (4, 1), (1, 3), (2, 4)]  # (winner, loser)
    records = [MatchRecord(w, loser, w, 1, 0, 10, 0) for w, loser in won]
    assert why(records, ("head_to_head",)) == [
        ("Ada", "Ahead of Ben on head-to-head: beat Ben."),
        (
            "Ben",
            "Behind Ada on head-to-head: lost to Ada; ahead of Cleo on match wins: 2 against 1.",
        ),
        ("Cleo", "Behind Ben on match wins: 1 against 2; ahead of Dev on head-to-head: beat Dev."),
        ("Dev", "Behind Cleo on head-to-head: lost to Cleo."),
    ]


def test_players_level_on_everything_share_the_rank_and_are_told_so():
    records = [MatchRecord(1, 2, 1, 2, 0, 50, 0), MatchRecord(3, 4, 3, 2, 0, 50, 0)]
    assert why(records, ("game_win_pct", "margin")) == [
        (
            "Ada",
            "Shares 1st with Cleo: level on match wins and every tie-break; "
            "ahead of Ben on match wins: 1 against 0.",
        ),
        (
            "Cleo",
            "Shares 1st with Ada: level on match wins and every tie-break; "
            "ahead of Ben on match wins: 1 against 0.",
        ),
        (
            "Ben",
            "Shares 3rd with Dev: level on match wins and every tie-break; "
            "behind Cleo on match wins: 0 against 1.",
        ),
        (
            "Dev",
            "Shares 3rd with Ben: level on match wins and every tie-break; "
            "behind Cleo on match wins: 0 against 1.",
        ),
    ]


def test_margin_points_and_opponents_percentages_read_as_numbers():
    records = [
        MatchRecord(1, 3, 1, 1, 0, 1200, 100),
        MatchRecord(2, 4, 2, 1, 0, 900, 300),
    ]
    words = dict(why(records, ("margin", "points")))
    assert words["Ada"] == "Ahead of Ben on margin: +1,100 against +600."
    words = dict(why(records, ("opponents_match_win_pct", "points")))
    assert words["Ada"] == "Ahead of Ben on points: 1,200 against 900."
    # Cleo and Dev are level on opponents' match-win % (100% each): points decide.
    assert words["Cleo"] == "Behind Dev on points: 100 against 300."


def test_a_worded_reason_is_read_back_from_a_cache_with_its_words(monkeypatch):
    """The shared cache pickles the standings lines: a reason comes back with its text and
    its phrase, and is not worded again (512 of them were, for every projector poll)."""
    reason = Worded(Phrase("ahead of %(name)s", {"name": "Cleo"}))
    kept = pickle.dumps(reason)
    monkeypatch.setattr(Phrase, "text", lambda *a, **k: pytest.fail("worded again"))
    back = pickle.loads(kept)
    assert isinstance(back, Worded) and back == "ahead of Cleo"
    assert back.phrase == reason.phrase


def test_a_player_who_met_no_one_has_no_opponents_percentage_not_zero():
    """Mid-round: Ada beat Ben, Cleo had a bye, Dev has not played. Ben's only opponent
    won everything (100%); Cleo and Dev met no one, which is said, not shown as 0%."""
    records = [MatchRecord(1, 2, 1, 2, 0, 50, 0), MatchRecord(3, None, 3, 2, 0, 50, 0)]
    lines = {line.id: line for line in compute_standings(sorted(NAMES), records)}
    assert [lines[p].met_anyone for p in (1, 2, 3, 4)] == [True, True, False, False]
    assert lines[2].opponents_match_win_pct == 1.0
    said = dict(why(records, ("opponents_match_win_pct",)))
    assert said["Ben"] == (
        "Behind Cleo on match wins: 0 against 1; "
        "ahead of Dev on opponents' match-win %: 100% against no opponent met yet."
    )


def test_an_opponent_who_won_nothing_still_counts_at_the_floor():
    """Ben lost his only match: Ada's opponents' match-win % is Ben's, floored at 1/3,
    so she has met someone although Ben's own match-win % is 0."""
    lines = {
        line.id: line for line in compute_standings([1, 2], [MatchRecord(1, 2, 1, 2, 0, 9, 0)])
    }
    assert lines[1].met_anyone and lines[1].opponents_match_win_pct == pytest.approx(1 / 3)
