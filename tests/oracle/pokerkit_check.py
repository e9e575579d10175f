#!/usr/bin/env python3
"""Replay banca's PHH hand histories with PokerKit and compare the results.

Usage: pokerkit_check.py PATH [PATH ...]   (files or directories of *.phh)

For every hand: PokerKit replays the actions (no rake), which decides the
pots, who may win each, the showdown and the uncalled-bet return. The
checker then applies banca's two documented rules that PokerKit does not
share (README.md): the odd-chip rule and the rake (rounded down per pot,
cap per hand, no flop no drop), and compares the stacks it expects with
banca's `finishing_stacks`. Any difference, or any hand PokerKit rejects,
prints the hand and makes the exit status 1. The last line on stdout is a
one-line JSON summary.
"""

from __future__ import annotations

import importlib.metadata
import json
import multiprocessing
import sys
import tomllib
import warnings
from collections import Counter
from decimal import Decimal
from pathlib import Path
from typing import Any

import pokerkit
from pokerkit import (
    BetCollection,
    BoardDealing,
    ChipsPushing,
    Folding,
    HandHistory,
    HoleDealing,
    OmahaHoldemHand,
    StandardHighHand,
)


def amount_scale(data: dict[str, Any]) -> int:
    """How many of banca's integer units (cents) one of the file's units is
    (libs/games/poker/phh.h): 100 when the file is in a currency's major
    units, 1 when its amounts are integers (chips)."""
    unit = data.get("_banca_amount_unit")
    if unit is None:
        # banca files older than the field hold integers; a foreign file
        # with a currency holds major units.
        major = "currency" in data and "_banca_deck" not in data
    else:
        major = unit == "major"
    return 100 if major else 1


def to_units(value: Any, scale: int) -> int:
    """A file's (or PokerKit's exact Decimal) amount in banca's integer
    units; anything finer than one unit is an error, never rounded."""
    scaled = Decimal(value) * scale
    if scaled != scaled.to_integral_value():
        raise ValueError(f"{value} is finer than banca's unit")
    return int(scaled)


def banca_split(amount: int, winners: list[int]) -> dict[int, int]:
    """banca's odd-chip rule (digest Hold'em gap 2): equal shares, then the
    leftover cents one each to the winners clockwise from the first seat left
    of the button. PHH p1 is that seat, so player-index order is clockwise."""
    share, left = divmod(amount, len(winners))
    return {w: share + (1 if k < left else 0) for k, w in enumerate(sorted(winners))}


def rule_pots(
    state: Any, variant: str | None, scale: int
) -> tuple[list[list[int]], list[int]]:
    """Pots by HE-41/42 with PokerKit's winners, as per-player amounts won
    (before rake and before banca's odd-chip rule: the split is redone by
    the caller, so only who wins each pot and its size matter here)."""
    n = state.player_count
    put_in = [0] * n
    folded = [False] * n
    hole: list[list[Any]] = [[] for _ in range(n)]
    board: list[Any] = []
    for op in state.operations:
        if isinstance(op, BetCollection):
            for i, b in enumerate(op.bets):
                put_in[i] += to_units(b, scale)
        elif isinstance(op, Folding):
            folded[op.player_index] = True
        elif isinstance(op, HoleDealing):
            hole[op.player_index].extend(op.cards)
        elif isinstance(op, BoardDealing):
            board.extend(op.cards)
    hand_type = OmahaHoldemHand if variant == "PO" else StandardHighHand
    live = [i for i in range(n) if not folded[i]]
    strength = {i: hand_type.from_game(hole[i], board) for i in live}
    # A level at each live player's total: the all-in amounts, and the top
    # (the players who matched the largest bet).
    levels = sorted({put_in[i] for i in live})
    pots: list[list[int]] = []
    below = 0
    for level in levels:
        amount = sum(min(c, level) - min(c, below) for c in put_in)
        eligible = [i for i in live if put_in[i] >= level]
        best = max(strength[i] for i in eligible)
        winners = [i for i in eligible if strength[i] == best]
        pot = [0] * n
        for w in winners:  # shares are redone by banca_split
            pot[w] = amount // len(winners)
        pot[winners[0]] += amount - sum(pot)
        if amount > 0:
            pots.append(pot)
        below = level
    return pots, put_in


def check_text(name: str, text: str) -> dict[str, Any]:
    data = tomllib.loads(text, parse_float=Decimal)
    scale = amount_scale(data)

    def units(values: list[Any] | None) -> list[int] | None:
        return None if values is None else [to_units(v, scale) for v in values]

    result: dict[str, Any] = {
        "file": name,
        "variant": data.get("variant", "?"),
        "limit": data.get("_banca_limit", "?"),
        "status": "ok",
    }
    if data.get("_banca_voided", False):
        result["status"] = "skipped_voided"
        return result
    banca = units(data.get("finishing_stacks"))
    if banca is None:
        result["status"] = "skipped_no_finishing_stacks"
        return result
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            hh = HandHistory.loads(text)
            state = None
            for state in hh:
                pass
    except Exception as e:  # PokerKit rejected the hand: a mismatch.
        result.update(status="mismatch", reason=f"PokerKit rejected it: {e!r}")
        return result
    assert state is not None
    if state.status:
        result.update(status="mismatch", reason="PokerKit: the hand is unfinished")
        return result
    # PokerKit's own split of a pot among several winners can leave
    # fractions of a cent in its stacks (it divides Decimals): its stacks
    # are read only where one player takes everything (below).
    n = state.player_count
    starting = units(state.starting_stacks)
    # The pots as PokerKit paid them (rake 0): amount and winners per pot.
    pots: dict[int, list[int]] = {}
    for op in state.operations:
        if isinstance(op, ChipsPushing):
            acc = pots.setdefault(op.pot_index, [0] * n)
            for i, a in enumerate(op.amounts):
                acc[i] += a
    pot_list = [pots[k] for k in sorted(pots)]
    amounts = units(data.get("_banca_pot_amounts"))
    folds = sum(isinstance(op, Folding) for op in state.operations)
    if folds == state.player_count - 1:
        # Won without a showdown. PokerKit pushes only the collected pots and
        # hands the bets still in front back with the uncalled excess, so the
        # contested amount is rebuilt from the stacks: everything the others
        # lost, plus as much of the winner's chips as the largest of them.
        w = state.statuses.index(True)
        lost = [s0 - s1 for s0, s1 in zip(starting, units(state.stacks))]
        others = [c for i, c in enumerate(lost) if i != w]
        total = sum(others) + max(others)
        # One live player: one pot (an all-in player is never folded, so no
        # side pot can exist).
        pot_list = [[total if i == w else 0 for i in range(n)]]
        raw = [s0 - c if i != w else 0 for i, (s0, c) in enumerate(zip(starting, lost))]
        raw[w] = starting[w] + sum(others)
    else:
        # A showdown. PokerKit shows only the hands still live at the end
        # and merges neighbouring pots whose live players coincide, so the
        # pots are rebuilt here by banca's rule (HE-41/42: one side pot per
        # distinct all-in amount) from what PokerKit decided: each player's
        # collected bets (uncalled excess already returned), the folds, and
        # PokerKit's own hand evaluation of every live hand.
        pot_list, put_in = rule_pots(state, data.get("variant"), scale)
        # The stacks before any pot is paid: the split below is banca's.
        raw = [
            s0 - c + sum(p[i] for p in pot_list)
            for i, (s0, c) in enumerate(zip(starting, put_in))
        ]
    flop = any(state.board_cards)
    mode = data.get("_banca_rake_mode", "none")
    bps = int(data.get("_banca_rake_bps", 0))
    cap = to_units(data.get("_banca_rake_cap", 0), scale)
    uncapped = [
        (sum(p) * bps // 10000) if (mode == "pot" and flop) else 0 for p in pot_list
    ]
    rake = units(data.get("_banca_pot_rake"))
    problems: list[str] = []
    if rake is None:
        rake = uncapped  # no banca figure: the uncapped rule (exact if no cap)
        if cap and sum(uncapped) > cap:
            problems.append("no _banca_pot_rake and the cap binds")
    else:
        if len(rake) != len(pot_list):
            if any(rake) or any(uncapped):
                problems.append(
                    f"banca has {len(rake)} pots, PokerKit {len(pot_list)}"
                )
            rake = [0] * len(pot_list)
        else:
            # banca's cap is used up main pot first (HE-19, gap 7).
            want, left = [], cap if cap else None
            for u in uncapped:
                take = u if left is None else min(u, left)
                want.append(take)
                if left is not None:
                    left -= take
            if list(rake) != want:
                problems.append(f"pot rake {list(rake)} != the rule's {want}")
    pk_amounts = [sum(p) for p in pot_list]
    seats = data.get("seats") or list(range(1, len(raw) + 1))
    banca_winners = data.get("_banca_pot_winner_seats")
    if banca_winners is not None and len(banca_winners) == len(pot_list):
        pk_winners = [sorted(seats[i] for i, a in enumerate(p) if a > 0) for p in pot_list]
        if [sorted(w) for w in banca_winners] != pk_winners:
            problems.append(f"pot winners {banca_winners} != PokerKit {pk_winners}")
    if amounts is not None and len(amounts) == len(pk_amounts):
        if amounts != pk_amounts:
            problems.append(f"pot amounts {amounts} != PokerKit {pk_amounts}")
    expected = list(raw)
    won = [0] * len(raw)
    for p, r in zip(pot_list, rake):
        winners = [i for i, a in enumerate(p) if a > 0]
        for i, a in enumerate(p):
            expected[i] -= a
        for i, a in banca_split(sum(p) - r, winners).items():
            expected[i] += a
            won[i] += a
    # PHH `winnings`: what each player collected, after the rake.
    winnings = units(data.get("winnings"))
    if winnings is not None and winnings != won:
        problems.append(f"winnings {winnings} != the pots' shares {won}")
    result.update(
        banca=banca,
        expected=expected,
        pokerkit_raw=raw,
        rake=list(rake),
        pokerkit_pots=pk_amounts,
    )
    if expected != banca or problems:
        result.update(status="mismatch", reason="; ".join(problems) or "stacks differ")
    return result


def check_file(path: str) -> dict[str, Any]:
    text = Path(path).read_text()
    try:
        out = check_text(path, text)
    except Exception as e:
        out = {"file": path, "status": "mismatch", "reason": f"unreadable: {e!r}"}
    if out["status"] == "mismatch":
        out["text"] = text
    return out


def collect(args: list[str]) -> list[str]:
    files: list[str] = []
    for a in args:
        p = Path(a)
        files += sorted(map(str, p.rglob("*.phh"))) if p.is_dir() else [str(p)]
    return files


def main(argv: list[str]) -> int:
    files = collect(argv[1:])
    if len(files) > 200:
        with multiprocessing.Pool(min(2, multiprocessing.cpu_count())) as pool:
            results = pool.map(check_file, files, chunksize=64)
    else:
        results = [check_file(f) for f in files]
    by_variant: Counter[str] = Counter()
    mismatches = 0
    compared = 0
    for r in results:
        by_variant[f"{r.get('variant', '?')}/{r.get('limit', '?')}"] += 1
        if r["status"] in ("ok", "mismatch") and "banca" in r:
            compared += 1
        if r["status"] == "mismatch":
            mismatches += 1
            print(f"MISMATCH {r['file']}: {r.get('reason')}", file=sys.stderr)
            for key in ("banca", "expected", "pokerkit_raw", "rake"):
                if key in r:
                    print(f"  {key:13} {r[key]}", file=sys.stderr)
            print(r.get("text", ""), file=sys.stderr)
    summary = {
        "hands": len(results),
        "compared": compared,
        "mismatches": mismatches,
        "skipped": sum(r["status"].startswith("skipped") for r in results),
        "by_variant": dict(sorted(by_variant.items())),
        "pokerkit": importlib.metadata.version("pokerkit"),
    }
    print(json.dumps(summary, sort_keys=True))
    return 1 if mismatches or not results else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
