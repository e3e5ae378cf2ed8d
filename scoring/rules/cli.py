"""`python -m scoring.rules COMMAND [--profile NAME] [--set OPTION=VALUE ...]`.

Commands: `deadwood CARD ...` (or JSON lines {"cards": [...]} on stdin), `hand` and
`game` (JSON lines on stdin; under a `hollywood` profile the hands are scored into
the three Hollywood games). One JSON object out per input; a bad line gives
{"error": {"code", "message"}} and the next lines are still processed. A bad
--profile/--set prints an error object and exits with status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterable
from typing import Any, TextIO

from scoring.rules.cards import format_cards, parse_card, parse_cards
from scoring.rules.errors import RulesError
from scoring.rules.games import score_game, score_hollywood
from scoring.rules.hands import hand_limit, score_cards, score_quick
from scoring.rules.melds import analyse_eleven, best_arrangement
from scoring.rules.profiles import RuleProfile, make_profile


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m scoring.rules", description="Score gin rummy hands and games."
    )
    parser.add_argument("command", choices=["deadwood", "hand", "game"])
    parser.add_argument("cards", nargs="*", help="deadwood: the cards (else JSON lines on stdin)")
    parser.add_argument("--profile", default="standard")
    parser.add_argument(
        "--set",
        dest="options",
        action="append",
        default=[],
        metavar="OPTION=VALUE",
        help="override one rule option",
    )
    return parser


def _options(pairs: Iterable[str]) -> dict[str, Any]:
    options = {}
    for pair in pairs:
        name, sep, text = pair.partition("=")
        if not sep or not name:
            raise RulesError("bad_option", f"--set needs OPTION=VALUE, not {pair!r}")
        try:
            options[name] = json.loads(text)
        except json.JSONDecodeError:
            options[name] = text
    return options


def deadwood(data: dict, profile: RuleProfile) -> dict:
    cards = parse_cards(_list(data, "cards"))
    if len(cards) not in (10, 11):
        raise RulesError("wrong_card_count", f"deadwood needs 10 or 11 cards, not {len(cards)}")
    arrangement = best_arrangement(cards)
    out = {"cards": format_cards(cards), **arrangement.as_dict()}
    out = {key: out[key] for key in ("cards", "deadwood", "melds", "deadwood_cards")}
    if len(cards) == 11:
        limit = hand_limit(profile, _upcard(data)).knock_limit
        analysis = analyse_eleven(cards, limit)
        out.update(
            best_discard_deadwood=analysis.best_discard_deadwood,
            knock_discards=format_cards(analysis.knock_discards),
            big_gin=analysis.big_gin and profile.big_gin_bonus is not None,
        )
    return out


def hand(data: dict, profile: RuleProfile) -> dict:
    upcard = _upcard(data)
    if "knocker" in data or "defender" in data:
        melds = data.get("knocker_melds")
        if melds is not None and not isinstance(melds, list):
            raise RulesError(
                "invalid_meld", '"knocker_melds" must be a list of melds, each a list of cards'
            )
        layoffs = data.get("layoffs")
        result = score_cards(
            knocker=parse_cards(_list(data, "knocker"), what="the knocker's hand"),
            defender=parse_cards(_list(data, "defender"), what="the defender's hand"),
            knocker_melds=[parse_cards(_cards(m, "each knocker meld", text=True)) for m in melds]
            if melds is not None
            else None,
            layoffs=parse_cards(_cards(layoffs, '"layoffs"', text=True))
            if layoffs is not None
            else None,
            upcard=upcard,
            profile=profile,
        )
    else:
        result = score_quick(
            outcome=data.get("outcome"),
            knocker_deadwood=data.get("knocker_deadwood"),
            defender_deadwood=data.get("defender_deadwood"),
            upcard=upcard,
            profile=profile,
        )
    return result.as_dict()


def game(data: dict, profile: RuleProfile) -> dict:
    hands = data.get("hands")
    if not isinstance(hands, list):
        raise RulesError("bad_hand", 'a game needs "hands": a list of {winner, points}')
    if profile.hollywood:
        return score_hollywood(hands, profile).as_dict()
    return score_game(hands, profile).as_dict()


def _list(data: dict, key: str) -> list:
    return _cards(data.get(key), f'"{key}"')


def _cards(value: Any, what: str, text: bool = False) -> list | str:
    """A list of card tokens, or with `text` also one string of them ("8H 9H")."""
    if not isinstance(value, list) and not (text and isinstance(value, str)):
        raise RulesError("bad_card", f"{what} must be a list of cards")
    return value


def _upcard(data: dict):
    return parse_card(data["upcard"]) if data.get("upcard") is not None else None


COMMANDS: dict[str, Callable[[dict, RuleProfile], dict]] = {
    "deadwood": deadwood,
    "hand": hand,
    "game": game,
}


def _line(text: str, command: Callable, base: RuleProfile) -> dict:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        return {"error": {"code": "bad_json", "message": f"not JSON: {error.msg}"}}
    except (ValueError, RecursionError) as error:  # over-long numbers, absurd nesting
        return {"error": {"code": "bad_json", "message": f"not usable JSON: {error}"}}
    if not isinstance(data, dict):
        return {"error": {"code": "bad_json", "message": "each line must be a JSON object"}}
    try:
        rules = data.get("rules")
        profile = base.with_options(rules) if rules is not None else base
        return command(data, profile)
    except RulesError as error:
        return {"error": error.as_dict()}


def main(
    argv: list[str] | None = None, stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout
) -> int:
    args = _parser().parse_intermixed_args(argv)  # options may sit among the cards
    try:
        profile = make_profile(args.profile, _options(args.options))
    except RulesError as error:
        print(json.dumps({"error": error.as_dict()}, ensure_ascii=False), file=stdout)
        return 2
    command = COMMANDS[args.command]
    if hasattr(stdin, "reconfigure"):  # a stray byte spoils its line, not the whole run
        stdin.reconfigure(errors="replace")
    if args.command == "deadwood" and args.cards:
        lines: Iterable[str] = [json.dumps({"cards": args.cards})]
    else:
        lines = (line for line in stdin if line.strip())
    for text in lines:
        print(
            json.dumps(_line(text, command, profile), ensure_ascii=False), file=stdout, flush=True
        )
    return 0
