"""Thirteen Clues: exact deduction of your own mystery (rulebook: ``shared/rules/thirteen-clues.txt``).

The whole game is in this folder: its data, rules engine, observations, knowledge model, views, companion
session, advisor, bots, explanations, teacher, simulation and demo. This module is its registry entry (plain
data: importing it imports nothing of the game).
"""

from solver.options import MAX_SEED, Option
from solver.registry import Demo, GameEntry, Simulation

BGA_DEAL = Option("bga_deal", str, None, "Start from a Board Game Arena deal: a file holding the "
                  "visible_cards_players JSON (player id -> list of {\"name\": CARD}; the entry with two cards is "
                  "yours).")
BGA_SEATS = Option("bga_seats", str, None, "With --bga-deal: the BGA player ids clockwise from seat 1, "
                   "comma-separated (asked when the ids are not the seat numbers).")

ENTRY = GameEntry(
    name="thirteen-clues",
    title="Thirteen Clues",
    players=(2, 6),
    about="exact deduction of your own mystery",
    help="Thirteen Clues companion: type what you see and hear at the table, get exact deductions.",
    session="models.thirteen_clues.session:ThirteenCluesSession",
    session_options=(BGA_DEAL, BGA_SEATS),
    observations="models.thirteen_clues.observations",
    teacher="models.thirteen_clues.teach:ThirteenCluesTeacher",
    simulation=Simulation(
        help="Simulate Thirteen Clues games between bots (available: random, logic, advisor).",
        module="models.thirteen_clues.simulate",
        options=(
            Option("players", int, 4, "Players at the table.", 2, 6),
            Option("bots", str, "logic", "Bots seat by seat (seat 1 first), comma-separated, or one name for every "
                   "seat (random, logic, advisor)."),
            Option("max_rounds", int, 100, "Rounds before a game with no winner is a draw.", 1, 1000),
            Option("glasses", int, None, "Magnifying glasses in the game (default: one per player).", 1, 12),
            Option("subcategories", bool, False, "House rule: questions may name a sub-category."),
            Option("deep_check", bool, False, "Also ask each bot's own solver that its true mystery is possible at "
                   "the end."),
        ),
    ),
    demo=Demo(
        help="Replay a seeded Thirteen Clues game from seat 1's view and show each deduction as it happens (no "
        "input needed).",
        target="models.thirteen_clues.demo:demo",
        options=(
            Option("seed", int, 1, "Seed of the deal and of the sequence of observations.", 0, MAX_SEED),
            Option("players", int, 4, "Number of players at the table.", 2, 6),
            Option("steps", int, 80, "Stop after this many observations if not solved.", 1, 1000),
        ),
    ),
    json_help="Print the final state as JSON (worlds, solved, mystery, ...).",
    knowledge="exact",
    bots="`advise`; random, logic, advisor",
    docs="docs/thirteen-clues.md",
    examples=("thirteen-clues-4p.txt", "thirteen-clues-short.txt"),
    commands=("why", "advise", "whatif", "locations"),
)
