"""What the Time Bomb Evolution companion shows, as view data (:mod:`solver.view`) that any interface draws.

The session (``models/time_bomb/session.py``) answers every line with these views; the terminal draws them with
rich and the web page as HTML, so neither holds game logic. Every probability shown is a typed cell: its value
is the number the text rounds, ``key`` names the same number in the session's ``summary()`` (``analyze
--json``) where it is there, and ``why`` is the session command that explains it. A probability of exactly 1 or
0 (both layers, where a cell shows soft / hard) is a ``certain`` or ``ruled_out`` cell.
"""

from __future__ import annotations

from collections.abc import Sequence

from models.time_bomb.advisor import (
    POLICY_LABEL,
    ClaimOption,
    CutOption,
    CutRisk,
    advise,
    choose_claim,
    choose_cover,
    choose_uncover,
    claim_options,
    cut_options,
    cut_risks,
    risk_policies,
)
from models.time_bomb.counting import Holds, InPlay
from models.time_bomb.data import DEFUSE, MORIARTY, SHERLOCK
from models.time_bomb.knowledge import TimeBombKnowledge
from models.time_bomb.rules import COVER, CUT, REDEAL, UNCOVER
from solver import view as v
from solver.errors import AssistantError
from solver.text import off_turn, percent, plural

HELP_ROWS: tuple[tuple[str, str, str], ...] = (
    ("Setup", "players N / me SEAT / role sherlock|moriarty", "players 5   me 2   role sherlock"),
    ("", "start SEAT  (who holds the cutter first)", "start 1"),
    ("", "hand CARD ...  (your 5 cards; 2xred repeats)", "hand defuse 2xred blue green"),
    ("", "colours COLOUR ...  (bomb colours in play; default: the first N)", "colours pink red blue green orange"),
    ("Play", "claim SEAT K  (SEAT says: K defusing cards)", "claim 3 1   claim me 0"),
    ("", "cut SEAT CARD  (the cutter cut SEAT's card: CARD)", "cut 4 defuse   cut me red"),
    ("", "cover COLOUR / uncover COLOUR  (defusing, yellow, blue)", "cover green   uncover pink"),
    ("", "draw K  (red bomb: numbered card K)", "draw 2"),
    ("", "redeal CARD ...  (your new hand, each round)", "redeal defuse red blue green"),
    ("Session", "show / show brief", "every table / one screen of the essentials"),
    ("", "claims / holdings SEAT", "every claim judged; full distributions"),
    ("", "advise", "your decision: cut, cover, uncover, and what to claim"),
    ("", "why role SEAT / why claim N / why inplay COLOUR K [steps] / why holds SEAT CARD K / why cut SEAT",
     "why role 3   why claim 2"),
    ("", "bluff SHERLOCK MORIARTY  (bluff rates of the soft model)", "bluff 0.1 0.5"),
    ("", "edit N ENTRY / drop N  (fix entry N of 'history')", "edit 8 cut 4 red   drop 8"),
    ("", "undo / history / help / quit", "aliases: u, hist, h ?, exit q"),
)


def _p(p: float) -> str:
    return percent(p)


def _prob(p: float, text: str | None = None, why: str | None = None, key: str | None = None,
          hard: float | None = None) -> v.Cell:
    """A probability cell for ``p`` (shown as ``text``, default its percentage); ``certain`` / ``ruled_out``
    when ``p`` (and ``hard``, the hard layer's number a soft / hard cell also shows) is exactly 1 / 0."""
    shown = (p,) if hard is None else (p, hard)
    kind: v.CellKind = "certain" if all(x == 1 for x in shown) else "ruled_out" if all(x == 0 for x in shown) \
        else "prob"
    return v.Cell(_p(p) if text is None else text, kind, float(p), "", why, key)


def help_view() -> v.View:
    table = v.help_table("Time Bomb Evolution companion", HELP_ROWS, syntax="Command")
    return v.Group(
        table,
        v.Text("Hard: from your cards and the cuts only. Soft: also from the claims, through the bluff model "
               "(Sherlock lies rarely, Moriarty often). '!' marks a claim the cuts contradict.", "muted"),
    )


def note_view(kn: TimeBombKnowledge) -> list[v.View]:
    """The soft layer's note (bluff rates no role assignment fits), if any."""
    note = kn.soft_note()
    return [v.Text(f"Note: {note}.", "warn")] if note else []


def state_view(kn: TimeBombKnowledge, head: str | None) -> v.View:
    """Every table: players, claims, the risk of each cut now, the board and the next step."""
    parts: list[v.View] = [v.Text(head, "strong")] if head else []
    parts.extend(note_view(kn))
    parts.append(players_table(kn))
    if kn.claims:
        parts.append(claims_table(kn))
    if kn.table.phase == CUT and not kn.table.over:
        parts.append(risk_table(kn))
    parts.append(board_text(kn))
    parts.append(v.Text("Next: " + next_step(kn), "accent"))
    return v.Group(*parts)


def brief_view(kn: TimeBombKnowledge) -> v.View:
    """One screen: who is likely Moriarty, the risk of each cut now, the board and the next step."""
    t = kn.table
    soft, hard = kn.belief(True), kn.belief(False)
    roles, prior = soft.roles(), hard.roles()
    parts: list[v.View] = [v.Text(f"Round {t.round}, you are player {kn.me} ({kn.role})", "strong")]
    others = [s for s in t.seats if s != kn.me]
    priors = {_p(prior[s]) for s in others}
    alone = f" (from the cards alone {priors.pop()} each)" if len(priors) == 1 else ""
    parts.append(v.Flow(tuple(f"{s} {_p(roles[s])}" for s in others), lead="P(Moriarty) with the claims: player ",
                        end=alone))
    flagged = [r.context.number for r in kn.claim_reports() if r.contradicted and r.context.seat != kn.me]
    if flagged:
        parts.append(v.Text(f"Claims the cuts contradict: {', '.join(map(str, flagged))} ('claims' for all)"))
    if t.phase == CUT and not t.over:
        policies = risk_policies(kn)
        who = "you" if t.cutter == kn.me else f"player {t.cutter}"
        explode = "P(explosion)" if len(policies) == 1 else "P(explosion) avoiding / seeking"
        parts.append(v.Flow(tuple(" / ".join([f"{r.seat} {_p(r.p_defuse)}", *(_p(r.explode[p]) for p in policies)])
                                  for r in cut_risks(kn, policies)),
                            lead=f"Cut by {who}, P(defusing) / {explode}: player "))
    parts.append(board_text(kn))
    parts.append(v.Text("Next: " + next_step(kn), "accent"))
    return v.Group(*parts)


def advice_view(kn: TimeBombKnowledge) -> v.View:
    """'advise': my decision now (the ranked cuts when a cut is due) and what to claim."""
    advice = advise(kn)
    parts = note_view(kn)
    if advice.kind == "cut" and kn.table.cutter == kn.me:
        parts.append(v.Text(f"Advice ({kn.role}): {advice.best} ({advice.reason})", "good"))
        parts.append(options_table(kn, advice.options))
    elif advice.kind == "cut":
        parts.append(v.Text(off_turn(kn.table.cutter, f"player {kn.table.cutter}'s cuts, ranked for a Sherlock "
                                     "cutter with what you know, with the explosion risk if they avoid one and if "
                                     "they seek one"), "muted"))
        parts.append(options_table(kn, tuple(cut_options(kn, side=SHERLOCK))))
    elif advice.kind in ("cover", "uncover"):  # the move is my entry as it stands: its "do this" is whole
        parts.append(v.Flow((v.Cell(advice.best, do=advice.best), advice.reason), sep=": ",
                            lead=f"Advice ({kn.role}): ", tone="good"))
    elif kn.table.phase in (COVER, UNCOVER) and not kn.table.over:  # another cutter places or removes a cover
        cutter = kn.table.cutter
        parts.append(v.Text(off_turn(cutter, f"in player {cutter}'s place, as a {kn.role.capitalize()}"), "muted"))
        colour, why = (choose_cover if kn.table.phase == COVER else choose_uncover)(kn)
        move = f"{kn.table.phase} {colour}"  # the table's entry, whoever places it: its "do this" is whole
        parts.append(v.Flow((v.Cell(move, do=move), why), sep=": ", lead=f"Advice ({kn.role}): ", tone="good"))
    else:
        parts.append(v.Text(advice.reason))
    if not kn.table.over and kn.table.phase != REDEAL:
        k, why = choose_claim(kn)
        ranked = kn.role == MORIARTY and kn.table.sizes[kn.me] > 0
        # The claim is an entry of mine at any time; a Moriarty's ranked claims carry it row by row instead.
        claim = v.Cell(plural(k, "defusing card"), do=None if ranked else f"claim {kn.me} {k}")
        parts.append(v.Flow((claim, f"({why})"), sep=" ", lead="What to claim: "))
        if ranked:
            parts.append(claim_options_table(claim_options(kn), kn.me))
    return v.Group(*parts)


def claim_options_table(options: Sequence[ClaimOption], me: int) -> v.Table:
    """A Moriarty's possible claims, best first, as the Sherlocks would read them (``advise``)."""
    table = v.Table(title="Claims, best first (as the Sherlocks read them with the bluff model)")
    for col in ("#", "Claim", "Truth", "Read as defusing per card", "P(Moriarty) after", "Why"):
        table.add_column(col, prose=col == "Why")
    numbers = v.ranks([o.score for o in options])
    if any("=" in rank for rank in numbers):
        table.caption = v.TIED_NOTE
    for rank, o in zip(numbers, options, strict=True):
        table.add_row(rank, v.Cell(str(o.claimed), do=f"claim {me} {o.claimed}"), "yes" if o.truth else "no",
                      _prob(o.lure), _prob(o.suspicion), o.reason)
    return table


def next_step(kn: TimeBombKnowledge) -> str:
    t = kn.table
    if t.over:
        return f"game over: {t.winner} wins ({t.reason})"
    if t.phase == REDEAL:
        return f"the round is over: enter your new hand, 'redeal CARD ...' ({plural(t.next_sizes()[kn.me], 'card')})"
    who = "you" if t.cutter == kn.me else f"player {t.cutter}"
    if t.phase == CUT:
        return f"{t.status()}; {who} cut: 'cut SEAT CARD' (claims any time: 'claim SEAT K')"
    if t.phase == COVER:
        return f"{who} place the {t.pending} card: 'cover COLOUR' ({', '.join(t.coverable())})"
    if t.phase == UNCOVER:
        return f"{who} remove a cover (blue bomb): 'uncover COLOUR' ({', '.join(t.covered)})"
    if t.phase == "draw":
        return f"{who} draw a numbered card (red bomb): 'draw K'"
    return f"{who} cut a card of player {t.extra_target} (red bomb): 'cut {t.extra_target} CARD'"


def players_table(kn: TimeBombKnowledge) -> v.Table:
    """Role probability (soft, and the hard prior) and expected holdings of every player."""
    t = kn.table
    soft, hard = kn.belief(True), kn.belief(False)
    roles, prior = soft.roles(), hard.roles()
    table = v.Table(title=f"Players, round {t.round}; you are player {kn.me}, {kn.role} (soft: with claims; hard: "
                    "cards and cuts only)")
    for col in ("Player", "Cards", "P(Moriarty) soft", "hard", "Defusing (soft)", "hard", "Bombs expected (soft)"):
        table.add_column(col, align="left" if col in ("Player", "Bombs expected (soft)") else "right")
    for s in t.seats:
        who = f"{s} (you)" if s == kn.me else str(s)
        if s == kn.me:
            hand = kn.my_hand()
            bombs = "\n".join(f"{c} {n}" for c, n in hand.items() if n and c != DEFUSE) or "-"
            table.add_row(who, str(t.sizes[s]), "-", "-", str(hand[DEFUSE]), str(hand[DEFUSE]), bombs)
            continue
        exp, exp_hard = soft.expected(s), hard.expected(s)
        bombs = "\n".join(f"{c} {n:.1f}" for c, n in sorted(exp.items(), key=lambda kv: -kv[1])
                          if c != DEFUSE and n >= 0.05) or "-"
        defusing = exp.get(DEFUSE, 0.0)
        table.add_row(who, str(t.sizes[s]), _prob(roles[s], why=f"why role {s}", key=f"roles.{s}"),
                      _prob(prior[s], why=f"why role {s}", key=f"roles_hard.{s}"),
                      v.Cell(f"{defusing:.2f}", "number", defusing,
                             key=f"expected_holdings.{s}.{DEFUSE}" if DEFUSE in exp else None),
                      v.Cell(f"{exp_hard.get(DEFUSE, 0.0):.2f}", "number", exp_hard.get(DEFUSE, 0.0)), bombs)
    return table


def claims_table(kn: TimeBombKnowledge) -> v.Table:
    table = v.Table(title="Claims (P true: hard = cards and cuts only; soft = with the bluff model)")
    for col in ("#", "Round", "Player", "Claimed", "P true hard", "P true soft", "Flag"):
        table.add_column(col, align="right" if col != "Flag" else "left", prose=col == "Flag")
    for i, r in enumerate(kn.claim_reports()):
        c = r.context
        flag = f"! contradicted: {r.reason}" if r.contradicted else ""
        who = f"{c.seat} (you)" if c.seat == kn.me else str(c.seat)
        why = f"why claim {c.number}"
        table.add_row(str(c.number), str(c.round), who, f"{c.claimed} of {c.size}",
                      _prob(r.p_true_hard, why=why, key=f"claims.{i}.p_true_hard"),
                      _prob(r.p_true_soft, why=why, key=f"claims.{i}.p_true_soft"), flag)
    return table


def _policy_caption(policies: Sequence[str]) -> str:
    words = {"avoid": "avoiding = Sherlock's play (no explosion when a choice in the cut allows it)",
             "seek": "seeking = Moriarty's play (an explosion when a choice allows it)"}
    return "; ".join(words[p] for p in policies)


def risk_table(kn: TimeBombKnowledge) -> v.Table:
    """The risk of every cut now (:func:`~models.time_bomb.advisor.cut_risks`): for my own cut as my role plays
    it, for another player's cut both ways, labelled. Keyed as ``cut_risk.SEAT.defuse`` and so on."""
    t = kn.table
    policies = risk_policies(kn)
    mine = t.cutter == kn.me
    if mine:
        title = f"Risk of each cut by you (as a {kn.role} plays it: you {policies[0]} an explosion when you can)"
        heads = ["Explosion soft", "hard"]
    else:
        title = f"Risk of each cut by player {t.cutter} (role unknown: explosion if avoiding / if seeking)"
        heads = [h for p in policies for h in (f"Explosion {p}ing soft", "hard")]
    table = v.Table(title=title, caption=None if mine else _policy_caption(policies))
    for col in ("Cut player", "Defusing soft", "hard", *heads):
        table.add_column(col, align="right")
    for r in cut_risks(kn, policies):
        why, key = f"why cut {r.seat}", f"cut_risk.{r.seat}"
        booms = [_prob(value, why=why, key=f"{key}.explode_{p}{suffix}")
                 for p in policies for value, suffix in ((r.explode[p], ""), (r.explode_hard[p], "_hard"))]
        table.add_row(str(r.seat), _prob(r.p_defuse, why=why, key=f"{key}.defuse"),
                      _prob(r.p_defuse_hard, why=why, key=f"{key}.defuse_hard"), *booms)
    return table


def options_table(kn: TimeBombKnowledge, options: Sequence[CutOption]) -> v.Table:
    """The ranked cuts of ``advise``; the explosion columns are the risk table's (one per policy shown). A soft /
    hard cell carries the soft number, keyed like the risk table's."""
    policies = list(options[0].risk.explode) if options else []
    heads = ["Explosion soft/hard"] if len(policies) == 1 else [f"Explosion {p}ing soft/hard" for p in policies]
    table = v.Table(title="Cuts, best first", caption=_policy_caption(policies) if len(policies) > 1 else None)
    columns = ("#", "Cut", "Defusing soft/hard", *heads, "Wins now", "If defusing: P(M)", "If bomb: P(M)", "Why")
    for col in columns:
        table.add_column(col, prose=col == "Why")
    numbers = v.ranks([o.score for o in options])
    if any("=" in rank for rank in numbers):
        table.caption = "; ".join(c for c in (table.caption, v.TIED_NOTE) if c)
    for rank, o in zip(numbers, options, strict=True):
        why, key = f"why cut {o.seat}", f"cut_risk.{o.seat}"
        if_def = _prob(o.roles_if_defuse.get(o.seat, 0)) if o.roles_if_defuse else "-"
        if_bomb = _prob(o.roles_if_bomb.get(o.seat, 0)) if o.roles_if_bomb else "-"
        booms = [_prob(o.risk.explode[p], f"{_p(o.risk.explode[p])} / {_p(o.risk.explode_hard[p])}", why,
                       f"{key}.explode_{p}", o.risk.explode_hard[p]) for p in policies]
        move = f"cut {o.seat} "  # whoever cuts, the entry records it; the card cut is what the cut shows
        table.add_row(rank, v.Cell(f"player {o.seat}", do=move),
                      _prob(o.p_defuse, f"{_p(o.p_defuse)} / {_p(o.p_defuse_hard)}", why, f"{key}.defuse",
                            o.p_defuse_hard),
                      *booms, _prob(o.p_win), if_def, if_bomb, o.reason)
    return table


def board_text(kn: TimeBombKnowledge) -> v.Flow:
    """The board in one paragraph that breaks only between colours (never inside 'red 3/4 cut')."""
    t = kn.table
    parts = []
    for c in t.setup.colours:
        in_play = kn.in_play()[c]
        lo, hi = min(in_play), max(in_play)
        span = f"{lo}" if lo == hi else f"{lo}-{hi}"
        cover = f" covered by {t.covered[c]}" if c in t.covered else ""
        parts.append(f"{c} {t.counts[c]}/{t.setup.thresholds[c]} cut ({span} in play){cover}")
    parts.append(f"defusing cut {t.defusers_cut}/{t.setup.defusers}")
    if t.last_card() == "pink" and "pink" not in t.covered:
        parts.append("last cut was pink: another pink now explodes")
    return v.Flow(tuple(parts), lead="Board: ", end=".")


def holdings_table(kn: TimeBombKnowledge, seat: int) -> v.Table:
    soft, hard = kn.belief(True), kn.belief(False)
    table = v.Table(title=f"Player {seat}: P(holds k) now, soft / hard")
    n = soft.cards_left(seat)
    table.add_column("Card")
    for k in range(n + 1):
        table.add_column(str(k), align="right")
    for card in kn.setup.types:
        if card == DEFUSE:
            ds, dh = soft.defuser_distribution(seat), hard.defuser_distribution(seat)
        else:
            ds, dh = soft.colour_distribution(seat, card), hard.colour_distribution(seat, card)
        table.add_row(card, *(_prob(ds.get(k, 0.0), f"{_p(ds.get(k, 0.0))} / {_p(dh.get(k, 0.0))}",
                                    f"why holds {seat} {card} {k}", hard=dh.get(k, 0.0)) for k in range(n + 1)))
    return table


def why_role(kn: TimeBombKnowledge, seat: int) -> v.View:
    if seat == kn.me:
        return v.Text(f"You are {kn.role}: you saw your role card (a hard fact).")
    prior = kn.roles(False)[seat]
    full = kn.roles(True)[seat]
    lines: list[v.View] = [
        v.Text(f"P(player {seat} is Moriarty) = {_p(full)} with the claims (soft); {_p(prior)} from the role "
               "cards alone (hard: cards and cuts say nothing about roles).", "strong")]
    effects = [e for e in kn.why_role(seat) if e[0].seat != kn.me]  # my own claims say nothing of roles
    if not effects:
        lines.append(v.Text("No claim yet: the probability is the prior from the role cards."))
    reports = {r.context.number: r for r in kn.claim_reports()}
    for claim, without, with_all in effects:
        r = reports[claim.number]
        note = f" (contradicted: {r.reason})" if r.contradicted else f" (P true from hard facts {_p(r.p_true_hard)})"
        lines.append(v.Text(f"  claim {claim.number}: player {claim.seat} said {claim.claimed} of {claim.size} in "
                            f"round {claim.round}{note}: without it {_p(without)}, with it {_p(with_all)}"))
    lines.append(v.Text(f"Bluff model: Sherlock lies {kn.bluff.sherlock:g}, Moriarty {kn.bluff.moriarty:g} of the "
                        "time (change with 'bluff S M').", "muted"))
    lines.extend(note_view(kn))
    return v.Group(*lines)


def why_claim(kn: TimeBombKnowledge, number: int) -> v.View:
    reports = kn.claim_reports()
    if not 1 <= number <= len(reports):
        raise AssistantError(f"why claim {number}: expected 1 to {len(reports)}" if reports else "no claim yet")
    r = reports[number - 1]
    c = r.context
    head = (f"Claim {number}: player {c.seat} said {plural(c.claimed, 'defusing card')} of {c.size} in round "
            f"{c.round}. "
            f"P(true) = {_p(r.p_true_hard)} from hard facts, {_p(r.p_true_soft)} with the bluff model.")
    lines: list[v.View] = [v.Text(head, "strong")]
    if r.contradicted and c.seat != kn.me:
        layout_size = kn.layout.size(c.round, c.seat)
        core = kn.explain_whatif(Holds(c.round, c.seat, DEFUSE, c.claimed, c.before + 1, layout_size))
        lines.append(v.Text(f"Contradicted (hard): {r.reason}."))
        if core:
            lines.append(v.Text("These entries rule it out: " + "; ".join(f.located() for f in core)))
    elif r.contradicted:
        lines.append(v.Text(f"Your own claim: {r.reason}."))
    return v.Group(*lines)


def why_in_play(kn: TimeBombKnowledge, colour: str, k: int) -> v.View:
    dist = kn.in_play()[colour]
    p = dist.get(k, 0.0)
    if p > 0:
        return v.Text(f"{plural(k, colour + ' card')} in play: probability {_p(p)} (hard facts only: "
                      f"{', '.join(f'{n}: {_p(q)}' for n, q in dist.items())}).")
    if not 0 <= k <= kn.setup.bombs_per_colour:
        raise AssistantError(f"why inplay {colour} {k}: expected 0 to {kn.setup.bombs_per_colour}")
    core = kn.explain_whatif(InPlay(colour, k))
    reasons = "; ".join(f.located() for f in core) if core else "the setup (how many cards are removed)"
    return v.Text(f"{plural(k, colour + ' card')} in play is impossible (hard): {reasons}.")


def why_holds(kn: TimeBombKnowledge, seat: int, card: str, k: int) -> v.View:
    belief = kn.belief(False)
    dist = belief.defuser_distribution(seat) if card == DEFUSE else belief.colour_distribution(seat, card)
    soft = kn.belief(True)
    dsoft = soft.defuser_distribution(seat) if card == DEFUSE else soft.colour_distribution(seat, card)
    if dist.get(k, 0.0) > 0:
        return v.Text(f"Player {seat} holds {k} {card} now: {_p(dist[k])} from hard facts, {_p(dsoft.get(k, 0.0))} "
                      "with the claims.")
    t = kn.table
    size = t.sizes[seat]
    if not 0 <= k <= size:
        return v.Text(f"Player {seat} holds {plural(size, 'card')}: {k} {card} is impossible.")
    first = t.cut_in_round[seat] + 1
    core = kn.explain_whatif(Holds(t.round, seat, card, k, first, kn.layout.size(t.round, seat)))
    reasons = "; ".join(f.located() for f in core) if core else "the setup"
    return v.Text(f"Player {seat} cannot hold {k} {card} now (hard): {reasons}.")


def why_cut(kn: TimeBombKnowledge, seat: int) -> v.View:
    t = kn.table
    if seat not in t.targets():
        raise AssistantError(f"why cut {seat}: player {t.cutter} cannot cut player {seat} now")
    lines: list[v.View] = [v.Text(f"A cut of player {seat} by player {t.cutter}:", "strong")]
    policies = risk_policies(kn)
    risk: CutRisk = next(r for r in cut_risks(kn, policies) if r.seat == seat)
    for label, belief, booms in (("soft", kn.belief(True), risk.explode), ("hard", kn.belief(False),
                                                                          risk.explode_hard)):
        types = ", ".join(f"{c} {_p(p)}" for c, p in sorted(belief.p_types(seat).items(), key=lambda kv: -kv[1]))
        boom = "; ".join(f"explosion {POLICY_LABEL[p]} {_p(booms[p])}" for p in policies)
        lines.append(v.Text(f"  {label}: {types}; {boom}"))
    danger = [f"{c} ({t.counts[c]}/{t.setup.thresholds[c]})" for c in t.setup.colours
              if c not in t.covered and t.counts[c] + 1 >= t.setup.thresholds[c]]
    if danger:
        lines.append(v.Text("  one more card explodes: " + ", ".join(danger)))
    if t.last_card() == "pink" and "pink" not in t.covered:
        lines.append(v.Text("  the last cut was pink: a pink card now explodes"))
    lines.append(v.Text("  a red card triggers an extra cut (numbered card), counted in the explosion risk",
                        "muted"))
    return v.Group(*lines)


# -- the game drawn (issue 19 §1) -----------------------------------------------------------------------------
#: Each card type's letter on a drawn card (colour-blind players read the letter); the defusing card is teal.
CARD_LETTERS: dict[str, str] = {"pink": "P", "red": "R", "blue": "B", "green": "G", "yellow": "Y", "orange": "O",
                                DEFUSE: "D"}
CARD_COLOURS: dict[str, str] = {DEFUSE: "teal"}


def cable_card(card: str, note: str = "") -> v.Card:
    """A cut cable card (a bomb colour or the defusing card) in its colour, with its letter."""
    return v.Card(card, card, CARD_COLOURS.get(card, card), CARD_LETTERS.get(card, card[:1].upper()), "seen", None,
                  note)


def players_drawn(kn: TimeBombKnowledge) -> list[v.View]:
    """Every player: cables in hand, P(Moriarty) with the claims and from hard facts alone (keyed ``roles.SEAT``
    and ``roles_hard.SEAT``), their claims this game, and who holds the cutter."""
    t = kn.table
    roles, prior = kn.belief(True).roles(), kn.belief(False).roles()
    claims: dict[int, list[str]] = {}
    for r in kn.claim_reports():
        c = r.context
        flag = " !" if r.contradicted else ""
        claims.setdefault(c.seat, []).append(f"claimed {c.claimed} (round {c.round}){flag}")
    out: list[v.View] = []
    for s in t.seats:
        figures: tuple[v.Cell, ...] = ()
        if s != kn.me:
            figures = (_prob(roles[s], f"Moriarty {_p(roles[s])}", f"why role {s}", f"roles.{s}"),
                       _prob(prior[s], f"hard {_p(prior[s])}", f"why role {s}", f"roles_hard.{s}"))
        facts = (plural(t.sizes[s], "cable"), *claims.get(s, []))
        name = f"player {s} (you, {kn.role})" if s == kn.me else f"player {s}"
        out.append(v.Player(name, s, figures, facts, (), s == t.cutter and not t.over, s == kn.me))
    return out


def cuts_drawn(kn: TimeBombKnowledge) -> list[v.View]:
    """The cut cards by colour against each colour's explosion threshold, with its cover; the defusing cards cut
    against how many must be."""
    t = kn.table
    piles: list[v.View] = []
    for c in t.setup.colours:
        cover = f"covered by {t.covered[c]}" if c in t.covered else "not covered"
        piles.append(v.Pile(c, tuple(cable_card(c) for _ in range(t.counts[c])), t.setup.thresholds[c],
                            note=f"explodes at {t.setup.thresholds[c]}; {cover}", colour=CARD_COLOURS.get(c, c),
                            letter=CARD_LETTERS.get(c, "")))
    piles.append(v.Pile("defusing", tuple(cable_card(DEFUSE) for _ in range(t.defusers_cut)), t.setup.defusers,
                        note=f"Sherlock wins when all {t.setup.defusers} are cut", colour=CARD_COLOURS[DEFUSE],
                        letter=CARD_LETTERS[DEFUSE]))
    return piles


def drawn_view(kn: TimeBombKnowledge) -> v.View:
    """The table drawn: the players (cables, role probability, claims, the cutter), the cut cards by colour with
    their thresholds and covers, and whose cut it is."""
    t = kn.table
    parts: list[v.View] = [*players_drawn(kn), *cuts_drawn(kn)]
    if t.last_card() == "pink" and "pink" not in t.covered:
        parts.append(v.Text("The last cut was pink: another pink now explodes.", "warn"))
    who = "you hold" if t.cutter == kn.me else f"player {t.cutter} holds"
    turn = f"Round {t.round}, {plural(t.turns_left(), 'cut')} left: {who} the cutter"
    parts.append(v.Text(f"game over: {t.winner} wins ({t.reason})" if t.over else turn, "accent"))
    return v.Group(*parts)
