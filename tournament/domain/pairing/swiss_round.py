"""Swiss pairing: one exact maximum-weight matching over the whole field.

Each possible table gets a cost made of levels, compared level by level (a lower level never
outweighs one unit of a higher level, over a whole round):

1. a rematch (only when no pairing without one is left);
2. a seat difference beyond 2 (first seats minus second seats, see :mod:`.seats`);
3. the score gap, squared (floats, and floats as short as possible);
4. a third equal seat in a row (so it is avoided within the score groups, not by floating);
5. a float down for someone who floated down last round;
6. how high in their score group the player who floats down stands (the lowest floats);
7. a float up for someone who floated up last round;
8. the distance in the ranking (neighbours meet: first with second, third with fourth).

The matching (rustworkx's blossom algorithm) is exact for the graph it is given. To be fast that
graph is small: each player with their neighbours in the ranking, more as more rounds were
played. When its best pairing leaves a third equal seat in a row, or a float down from above the
bottom of a group, the players concerned are linked to everyone in their score group who could
mend it, and it is matched again;
when it leaves a rematch or a seat difference beyond 2, the graph of every possible table
decides (rare: then far tables can matter). The tests and ``benchmarks/pairing.py`` check the
result against the graph of every possible table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import tournament.domain.pairing.seats as seats
from tournament.domain.pairing.tables import History, Reason, Table, explain

NEIGHBOURS = 4  # the ranking neighbours linked to each player, plus one for each round played
SOLVERS = ("rustworkx", "networkx")
BYE_TRIES_ALL = 100  # up to this field, every player may be tried for the bye (see swiss())


@dataclass
class Field:
    """The players to pair (bye already out), each described by index in ranking order."""

    players: list[str]
    score: list[float]
    below: list[int]  # players of the same score ranked lower (0: the lowest of the group)
    seats: list[str]
    on_first: list[int]  # the seat limits broken by sitting first (see seats.cost)
    on_second: list[int]
    down: list[bool]  # floated down last round
    up: list[bool]
    opponents: list[frozenset[str]]  # everyone met before, by name
    firsts: list[int]  # first seats at tables of any size (all a history may know of seats)

    @classmethod
    def of(cls, ranked: Sequence[str], scores: Mapping[str, float], history: History) -> Field:
        players = list(ranked)
        score = [float(scores.get(p, 0)) for p in players]
        below = [0] * len(score)
        seen: dict[float, int] = {}
        for i in range(len(score) - 1, -1, -1):
            below[i] = seen.get(score[i], 0)
            seen[score[i]] = below[i] + 1
        sts = [history.seats.get(p, "") for p in players]
        return cls(
            players=players,
            score=score,
            below=below,
            seats=sts,
            on_first=[seats.cost(s, seats.FIRST) for s in sts],
            on_second=[seats.cost(s, seats.SECOND) for s in sts],
            down=[p in history.floated_down for p in players],
            up=[p in history.floated_up for p in players],
            opponents=[history.opponents.get(p, frozenset()) for p in players],
            firsts=[history.first_seats.get(p, 0) for p in players],
        )

    def levels(self, i: int, j: int) -> tuple[int, int, int, int, int, int, int, int]:
        """The cost levels of a table of ``i`` and ``j`` (i ranked higher), highest first."""
        seat = min(self.on_first[i] + self.on_second[j], self.on_second[i] + self.on_first[j])
        beyond, triple = divmod(seat, 4)
        gap = self.score[i] - self.score[j]
        down = position = up = 0
        if gap:
            hi, lo = (i, j) if gap > 0 else (j, i)
            down, position, up = int(self.down[hi]), self.below[hi], int(self.up[lo])
        return (
            int(self.players[j] in self.opponents[i]),
            beyond,
            round(gap * gap * 100),
            triple,
            down,
            position,
            up,
            j - i,
        )

    def scale(self) -> list[int]:
        """Each level's multiplier: more than the level below can add up to over a round."""
        n = len(self.players)
        pairs = max(1, n // 2)
        spread = max(self.score, default=0) - min(self.score, default=0)
        top = (1, 2, round(spread * spread * 100), 2, 1, n, 1, n)
        return [pairs * t + 1 for t in top]

    def weights(self, edges: Sequence[tuple[int, int]]) -> list[tuple[int, int, int]]:
        """Each table's weight for the maximum-weight matching: a constant less its cost.

        The levels are combined in one integer (the same as :meth:`levels` through
        :meth:`scale`), written out here because a 1,000-player round weighs ~10,000 tables.
        """
        scale = self.scale()
        unit = [1] * len(scale)
        for k in range(len(scale) - 2, -1, -1):
            unit[k] = unit[k + 1] * scale[k + 1]
        w_rematch, w_beyond, w_gap, w_triple, w_down, w_position, w_up, _ = unit
        top = unit[0] * scale[0]
        score, below, down, up = self.score, self.below, self.down, self.up
        on_first, on_second, opponents = self.on_first, self.on_second, self.opponents
        players = self.players
        out = []
        for i, j in edges:
            seat = on_first[i] + on_second[j]
            other = on_second[i] + on_first[j]
            if other < seat:
                seat = other
            cost = (seat >> 2) * w_beyond + (seat & 3) * w_triple + (j - i)
            if players[j] in opponents[i]:
                cost += w_rematch
            gap = score[i] - score[j]
            if gap:
                hi, lo = (i, j) if gap > 0 else (j, i)
                cost += round(gap * gap * 100) * w_gap + below[hi] * w_position
                cost += down[hi] * w_down + up[lo] * w_up
            out.append((i, j, top - cost))
        return out

    def cost(self, i: int, j: int) -> int:
        """The cost of one table as a single number (for tests and the benchmark)."""
        total = 0
        for level, base in zip(self.levels(i, j), self.scale(), strict=True):
            total = total * base + level
        return total


def swiss(
    ranked: Sequence[str],
    scores: Mapping[str, float],
    history: History,
    *,
    complete: bool = False,
    solver: str = "rustworkx",
    seeds: Mapping[str, int] | None = None,
) -> list[Table]:
    """Pair a Swiss round: score groups, no rematch, seats within the limits, one bye each.

    ``ranked`` is the current ranking (best first). An odd player out gets the bye: the
    lowest-ranked player who has not had one, passed over only when the others could then not
    be paired without a rematch or a seat difference beyond 2 (and another could). The others
    are paired by an exact maximum-weight matching over the costs in this module's docstring;
    each table says why it is as it is.
    ``complete`` matches over every possible table (the reference the smaller graph is checked
    against), ``solver`` names the matching library (networkx is the slower reference).
    ``seeds`` (round one: ``ranked`` is the seed order, every score 0): the tables say the
    seeds, as round one pairs a score group like every later round does: seed 1 against seed
    2, 3 against 4..., the higher seed first, the bye to the lowest seed.
    """
    players = list(ranked)
    if len(players) % 2 == 0:
        field = Field.of(players, scores, history)
        return explain_pairs(field, match(field, complete=complete, solver=solver), seeds)
    candidates = [p for p in reversed(players) if p not in history.byes]
    code = "bye" if candidates else "bye_again"
    best: tuple[tuple[int, int], str, Field, list[tuple[int, int]]] | None = None
    # Each try may match every possible table: a large field tries a few (it needs no more).
    tries = len(players) if len(players) <= BYE_TRIES_ALL else 3
    for player in (candidates or list(reversed(players)))[:tries]:
        field = Field.of([p for p in players if p != player], scores, history)
        pairs = match(field, complete=complete, solver=solver)
        broken = _broken_total(field, pairs)
        if best is None or broken < best[0]:
            best = (broken, player, field, pairs)
        if broken == (0, 0):
            break  # the lowest-ranked bye that leaves a pairing within the rules
    assert best is not None
    _, player, field, pairs = best
    if player != (candidates or list(reversed(players)))[0]:
        code = "bye_rules"
    reason = Reason(code, {"player": player, "score": _fmt(scores.get(player, 0))})
    if seeds is not None and code == "bye":
        reason = Reason("bye_seed", {"player": player, "seed": str(seeds[player])})
    return explain_pairs(field, pairs, seeds) + [
        Table((player,), bye=True, why=reason.text, reasons=(reason,))
    ]


def _broken_total(field: Field, pairs: Sequence[tuple[int, int]]) -> tuple[int, int]:
    """Rematches and seat differences beyond 2 in ``pairs``."""
    rematches = beyond = 0
    for i, j in pairs:
        levels = field.levels(i, j)
        rematches += levels[0]
        beyond += levels[1]
    return rematches, beyond


def match(field: Field, complete: bool = False, solver: str = "rustworkx") -> list[tuple[int, int]]:
    """The best pairing of ``field`` as index pairs (i < j), in ranking order."""
    n = len(field.players)
    if n == 0:
        return []
    edges = complete_graph(n) if complete else sparse_graph(field)
    pairs = _solve(n, field.weights(edges), solver)
    if complete:
        return pairs
    if len(pairs) * 2 < n or _broken_total(field, pairs) != (0, 0):
        # A rematch or a seat beyond the limits: a far table might avoid it.
        return match(field, complete=True, solver=solver)
    graph = set(edges)
    for _ in range(3):
        wider = far_partners(field, pairs).difference(graph)
        if not wider:
            break
        # A third equal seat in a row, or a float from higher than the bottom of a group: the
        # player who could mend it may stand far away in the group (when those bound by the
        # same limit, or who floated last round, stand together). Matched again with them.
        graph |= wider
        pairs = _solve(n, field.weights(sorted(graph)), solver)
    return pairs


def complete_graph(n: int) -> list[tuple[int, int]]:
    return [(i, j) for i in range(n) for j in range(i + 1, n)]


def sparse_graph(field: Field) -> list[tuple[int, int]]:
    """The tables the best pairing uses in practice: each player with the next ones in the
    ranking, more as more rounds were played (so that past opponents cannot exhaust them)."""
    n = len(field.players)
    played = max((len(o) for o in field.opponents), default=0)
    reach = NEIGHBOURS + played
    return [(i, j) for i in range(n) for j in range(i + 1, min(n, i + 1 + reach))]


def far_partners(field: Field, pairs: Sequence[tuple[int, int]]) -> set[tuple[int, int]]:
    """Tables beyond the ranking neighbours that could mend what ``pairs`` leave: for a third
    equal seat in a row, everyone of the same score free to take the other seat; for a float
    down, the floater's opponent with those of the floater's group who could float instead (the
    lower ones, or all when the floater floated down last round too)."""
    free_first: dict[float, list[int]] = {}
    free_second: dict[float, list[int]] = {}
    group: dict[float, list[int]] = {}
    for i, s in enumerate(field.score):
        group.setdefault(s, []).append(i)
        if not field.on_first[i]:
            free_first.setdefault(s, []).append(i)
        if not field.on_second[i]:
            free_second.setdefault(s, []).append(i)
    edges: set[tuple[int, int]] = set()
    for pair in pairs:
        levels = field.levels(*pair)
        if levels[3]:
            for i in pair:
                if field.on_first[i] and not field.on_second[i]:
                    others = free_first.get(field.score[i], [])
                elif field.on_second[i] and not field.on_first[i]:
                    others = free_second.get(field.score[i], [])
                else:
                    continue
                edges.update((min(i, j), max(i, j)) for j in others if j != i)
        if levels[4] or levels[5]:
            i, j = pair
            hi, lo = (i, j) if field.score[i] > field.score[j] else (j, i)
            # Who could float instead: anyone of the group who did not float down last round
            # (when hi did), else anyone lower in the group.
            instead = group[field.score[hi]] if levels[4] else group[field.score[hi]][-levels[5] :]
            edges.update((min(k, lo), max(k, lo)) for k in instead if k != hi)
    return edges


def _solve(n: int, edges: list[tuple[int, int, int]], solver: str) -> list[tuple[int, int]]:
    if solver == "rustworkx":
        import rustworkx as rx  # imported here: only pairing pays for it

        graph = rx.PyGraph(multigraph=False)
        graph.add_nodes_from(range(n))
        graph.add_edges_from(edges)
        found = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    elif solver == "networkx":
        import networkx as nx

        nxg = nx.Graph()
        nxg.add_nodes_from(range(n))
        nxg.add_weighted_edges_from(edges)
        found = nx.max_weight_matching(nxg, maxcardinality=True)
    else:
        raise ValueError(f"unknown matching solver {solver!r}: one of {', '.join(SOLVERS)}")
    return sorted((min(e), max(e)) for e in found)


def explain_pairs(
    field: Field, pairs: Sequence[tuple[int, int]], seeds: Mapping[str, int] | None = None
) -> list[Table]:
    """Seat each pair and say why it is so (see :data:`tables.TEXTS`); ``seeds``: round one,
    said by seed."""
    odd_floats = _odd_groups(field, pairs)
    tables = []
    for i, j in pairs:
        a, b = field.players[i], field.players[j]
        (first, second), seat_reason = seats.assign(a, b, field.seats[i], field.seats[j])
        if seat_reason.code == "seat_rank" and field.firsts[j] < field.firsts[i]:
            # Nothing in the duels decides: fewer first seats at any table does.
            (first, second), seat_reason = (b, a), Reason("seat_balance", {"player": b})
        reasons: list[Reason] = []
        si, sj = field.score[i], field.score[j]
        if seeds is not None:  # round one: the seeds, nothing else decided it
            reasons.append(Reason("seed_pair", {"seed": str(seeds[a]), "other": str(seeds[b])}))
            if seat_reason.code == "seat_rank":
                seat_reason = Reason("seat_seed", {"player": first})
        elif si == sj:
            reasons.append(Reason("same_score", {"score": _fmt(si)}))
        else:
            hi, lo = (i, j) if si > sj else (j, i)
            code = "float_odd" if hi in odd_floats else "float_rules"
            reasons.append(
                Reason(code, {"player": field.players[hi], "score": _fmt(field.score[hi])})
            )
            reasons.append(
                Reason(
                    "float_up",
                    {
                        "player": field.players[lo],
                        "score": _fmt(field.score[lo]),
                        "opponent": field.players[hi],
                    },
                )
            )
        if b in field.opponents[i]:
            reasons.append(Reason("rematch"))
        f, g = (i, j) if first == a else (j, i)
        reasons += _broken(field, f, g)
        reasons.append(seat_reason)
        sf, ss = _fmt(field.score[f]), _fmt(field.score[g])
        why = f"{first} ({sf}) - {second} ({ss}): {explain(reasons)}"
        tables.append(Table((first, second), why=why, reasons=tuple(reasons)))
    return tables


def _broken(field: Field, first: int, second: int) -> list[Reason]:
    """The seat limits that the seats given break (only when no pairing avoided it)."""
    out = []
    for i, seat in ((first, seats.FIRST), (second, seats.SECOND)):
        beyond, triple = seats.breaks(field.seats[i], seat)
        said = {"player": field.players[i], "seat": seats.SEAT_NAMES[seat]}
        if beyond:
            count = str(abs(seats.difference(field.seats[i] + seat)))
            out.append(Reason("seat_beyond_limit", {**said, "count": count}))
        if triple:
            out.append(Reason("seat_three_in_a_row", said))
    return out


def _odd_groups(field: Field, pairs: Sequence[tuple[int, int]]) -> set[int]:
    """The players who float down because their score group was odd: one for each group that,
    with the players floated into it, counts an odd number (its lowest-ranked floater)."""
    counts: dict[float, int] = {}
    for s in field.score:
        counts[s] = counts.get(s, 0) + 1
    entering: dict[float, int] = {}
    leaving: dict[float, list[int]] = {}
    for i, j in pairs:
        hi, lo = (i, j) if field.score[i] >= field.score[j] else (j, i)
        if field.score[hi] == field.score[lo]:
            continue
        leaving.setdefault(field.score[hi], []).append(hi)
        # The floater joins its opponent's group (passing any group between).
        entering[field.score[lo]] = entering.get(field.score[lo], 0) + 1
    odd = set()
    for s, floaters in leaving.items():
        if (counts[s] + entering.get(s, 0)) % 2:
            odd.add(max(floaters))
    return odd


def _fmt(score: float) -> str:
    return str(int(score)) if float(score).is_integer() else str(score)
