"""A player's record: their matches, head-to-head lines, and statistics from their hands.

Terms (the player is "you"; a hand counts once it is confirmed):
    hands          confirmed hands of your matches, dead hands included.
    knock          you went out with deadwood (outcomes knock and undercut); gins and big
                   gins are counted apart.
    undercut       given: your opponent knocked and you had as little deadwood or less;
                   suffered: you knocked and were undercut.
    caught         your deadwood (after lay-offs) when your opponent knocked or went gin.
    box            a hand won in a game: boxes per game are your hands won in each
                   finished game, as the engine counted them (Game.breakdown.hands_won,
                   so a Hollywood game counts the hands it scored).
    shutout        a finished game you won in which your opponent won no hand (suffered:
                   the other way round).
    card entry     hands entered card by card keep the melds and the lay-offs: meld shapes
                   are your melds at the end of those hands (a set: one rank; a run: one
                   suit in sequence), lay-offs against you are the defender's cards laid
                   off on your melds when you knocked.
    basis          every figure says how many hands (or games) it rests on; a figure from
                   fewer than MIN_HANDS hands (MIN_GAMES games) is marked as resting on
                   too few.
    seat summary   what one seat's hands and games of one match add to these figures,
                   counted when the match changes (summaries); the page sums one per match.

Modules:
    summaries      counting a match's hands and games into seat summaries (Tally)
    figures        the statistics (Figure) from a player's summed summaries
    match_lines    the player's matches, head to head, results per month
    club_ratings   the rated list, a player's rating month by month, ratings for seeding
    record         the whole record for one viewer (cached History), and the API's dict
A player's page takes a fixed number of queries whatever their history.
"""

from scoring.stats.club_ratings import (
    RankedRating,
    RatingMonth,
    club_ratings,
    rating_history,
    rating_months,
    ratings_of,
)
from scoring.stats.figures import MIN_GAMES, MIN_HANDS, Figure
from scoring.stats.match_lines import (
    HeadToHead,
    MatchLine,
    MonthResults,
    games_of,
    hands_of,
    head_to_head,
    match_lines,
    matches_of,
    results_by_month,
)
from scoring.stats.record import (
    History,
    PlayerRecord,
    Version,
    history,
    history_version,
    player_record,
    visible_club,
    visible_player,
    withheld,
)
from scoring.stats.summaries import meld_shape

__all__ = [
    "MIN_GAMES", "MIN_HANDS", "Figure", "HeadToHead", "History", "MatchLine", "MonthResults",
    "PlayerRecord", "RankedRating", "RatingMonth", "Version", "club_ratings", "games_of",
    "hands_of", "head_to_head", "history", "history_version", "match_lines", "matches_of",
    "meld_shape", "player_record", "rating_history", "rating_months", "ratings_of",
    "results_by_month", "visible_club", "visible_player", "withheld",
]  # fmt: skip
