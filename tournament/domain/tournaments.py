"""The tournament aggregate: registration, rounds, pairings, partite; every change an event.

One tournament per database file. Its events say who did what (``by``) and eventsourcing
stamps when. Results are never stored here: they are derived from the match logs; but each
finished match's head hash is recorded, so that a match of the tournament cannot lose its last
events unseen.

The tournament's events form a hash chain too (:func:`seal`): each carries ``hash``, the sha256
of the one before and of its own type, version, time and fields, so that ``tournament verify``
finds any change to them.
"""

from __future__ import annotations

import copy
import hashlib
import json
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.domain import Aggregate, event
from eventsourcing.domain import Snapshot as SnapshotBase
from eventsourcing.utils import get_topic

from tournament.logformat import plainjson
from tournament.logformat.matchlog import canonical

TOURNAMENT_ID = uuid5(NAMESPACE_URL, "tournament/tournament")
FORMATS = ("swiss", "round_robin", "elimination", "pods")
BASE_FIELDS = ("originator_id", "originator_version", "timestamp", "hash")


def seal(
    previous: str, topic: str, version: int, at: str, fields: dict[str, Any], plain: bool = False
) -> str:
    """One link of the tournament's chain: sha256 of the previous hash, a newline, and the
    canonical JSON of ``{"at", "fields", "topic", "version"}``. The first event's previous hash
    is the tournament's id (32 hex digits). ``plain``: the fields are known to be plain JSON
    (:mod:`tournament.logformat.plainjson`), which orjson writes faster, to the same bytes."""
    body = {"at": at, "fields": fields, "topic": topic, "version": version}
    text = plainjson.sorted_text(body) if plain else canonical(body).encode()
    return hashlib.sha256(previous.encode() + b"\n" + text).hexdigest()


def unsealed_link(previous: str, event_obj: Any) -> str:
    """The link of an event that 0.1 stored without a hash (tournament chain v1), computed as
    if it had been sealed: so the first event sealed after it (a 0.1 tournament continued by a
    later version) seals everything before it too."""
    return seal(
        previous,
        get_topic(type(event_obj)),
        event_obj.originator_version,
        event_obj.timestamp.isoformat(),
        event_fields(event_obj),
    )


def state_seal(state: dict[str, Any]) -> str:
    """sha256 of a snapshot's state (its times as text)."""
    if plainjson.plain(state, times=True):
        text = plainjson.sorted_text(state)  # the same bytes as json's, faster (#15)
    else:
        text = json.dumps(
            state, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str
        ).encode()
    return hashlib.sha256(text).hexdigest()


def event_fields(event_obj: Any) -> dict[str, Any]:
    """The fields of a stored tournament event that its hash covers (all but the base ones)."""
    return {k: v for k, v in vars(event_obj).items() if k not in BASE_FIELDS}


class Tournament(Aggregate):
    """A club tournament: its settings, players and rounds."""

    TOPIC = "tournament.tournaments:Tournament"  # stored names, fixed wherever it lives (topics)

    class Event(Aggregate.Event):
        hash: str

        def mutate(self, aggregate: Any) -> Any:
            # The previous link: None after a snapshot 0.1 took (it kept no head; the store
            # then replays the events from the first, see Store.get).
            previous = TOURNAMENT_ID.hex if aggregate is None else vars(aggregate).get("head")
            t: Any = super().mutate(aggregate)
            stored = vars(self).get("hash")  # none in 0.1's events (tournament chain v1)
            t.head = stored or (previous and unsealed_link(previous, self))
            return t

    class Snapshot(SnapshotBase):
        """A snapshot sealed with the sha256 of its state: the program loads the tournament from
        it, so a changed snapshot must not load (``tournament verify`` says what changed)."""

        TOPIC = "tournament.tournaments:Tournament.Snapshot"

        @classmethod
        def take(cls, aggregate: Any) -> Any:
            snapshot = super().take(aggregate)
            snapshot.state.pop("seal", None)  # the seal of the snapshot it was loaded from
            snapshot.state["seal"] = state_seal(snapshot.state)
            return snapshot

        def mutate(self, _: None) -> Any:
            state = dict(self.state)
            if state.pop("seal", None) != state_seal(state):
                raise ValueError("the tournament's snapshot was changed after it was taken")
            t = super().mutate(_)
            vars(t).pop("seal", None)
            return t

    @staticmethod
    def create_id(**_: Any) -> UUID:
        return TOURNAMENT_ID

    @classmethod
    def _create(cls, event_class: Any, *, id: Any = None, **kwargs: Any) -> Any:  # noqa: A002
        at = event_class.create_timestamp()
        fields = {**kwargs, "originator_topic": get_topic(cls)}
        kwargs["hash"] = seal(TOURNAMENT_ID.hex, get_topic(event_class), 1, at.isoformat(), fields)
        return super()._create(event_class, id=id, timestamp=at, **kwargs)

    head: str  # the hash of the last event (set by every event, see Event.mutate)
    chained = True  # the store rebuilds it from its first event when a snapshot gives no head

    def trigger_event(self, event_class: Any, **kwargs: Any) -> None:
        at = event_class.create_timestamp()
        version = self.version + 1
        kwargs["hash"] = seal(self.head, get_topic(event_class), version, at.isoformat(), kwargs)
        super().trigger_event(event_class, timestamp=at, **kwargs)

    @event("Created", topic="tournament.tournaments:Tournament.Created")
    def __init__(self, settings: dict[str, Any], by: str) -> None:
        self.settings = settings
        self.players: dict[str, dict[str, Any]] = {}  # name -> status, since (round), seed
        self.rounds: list[dict[str, Any]] = []
        self.heads: dict[str, list[Any]] = {}  # match -> [events, head hash] when it finished

    @event("PlayerRegistered", topic="tournament.tournaments:Tournament.PlayerRegistered")
    def register(self, player: str, by: str) -> None:
        self.players[player] = {
            "status": "active",
            "since": len(self.rounds) + 1,  # a late entry joins from the next round
            "seed": len(self.players) + 1,
        }

    @event("PlayerWithdrawn", topic="tournament.tournaments:Tournament.PlayerWithdrawn")
    def withdraw(self, player: str, reason: str, by: str) -> None:
        # Before any round a withdrawal removes the player; later it is a drop-out.
        self.players[player]["status"] = "dropped" if self.rounds else "withdrawn"
        self.players[player]["until"] = len(self.rounds)
        self.players[player]["reason"] = reason

    @event("RoundPaired", topic="tournament.tournaments:Tournament.RoundPaired")
    def pair_round(self, number: int, tables: list[dict[str, Any]], by: str) -> None:
        # A copy: the tables change as matches attach, the event that paired them must not.
        self.rounds.append({"number": number, "tables": copy.deepcopy(tables), "closed": False})

    @event("PartitaChosen", topic="tournament.tournaments:Tournament.PartitaChosen")
    def choose_partita(self, round: int, table: int, games: list[str], by: str) -> None:  # noqa: A002
        self.table(round, table)["games"] = games

    @event("MatchAttached", topic="tournament.tournaments:Tournament.MatchAttached")
    def attach_match(self, round: int, table: int, game: str, match: str, by: str) -> None:  # noqa: A002
        self.table(round, table).setdefault("matches", {})[game] = match

    @event("ResultAmended", topic="tournament.tournaments:Tournament.ResultAmended")
    def amend_result(
        self,
        round: int,
        table: int,
        points: dict[str, int],
        reason: str,
        by: str,  # noqa: A002
    ) -> None:
        # The match logs stay as they are: the amendment stands beside them, and is shown.
        self.table(round, table).setdefault("amendments", []).append(
            {"points": points, "reason": reason, "by": by}
        )

    @event("HeadRecorded", topic="tournament.tournaments:Tournament.HeadRecorded")
    def record_head(self, match: str, events: int, head: str, by: str) -> None:
        self.heads[match] = [events, head]

    @event("RefereeNamed", topic="tournament.tournaments:Tournament.RefereeNamed")
    def name_referee(self, match: str, referee: str, by: str) -> None:
        # Set here, not in __init__: a tournament recorded before referees were named (its
        # snapshots included) must replay to the very same state.
        vars(self).setdefault("referees", {})[match] = referee

    def referee_of(self, match: str) -> str | None:
        """The referee named for a match, if any (a name is free text, not a player)."""
        referees: dict[str, str] = vars(self).get("referees", {})
        return referees.get(match)

    # --- #24: check-in before a round, a withdrawal's forfeit at an open table -------------
    # Each sets its state with setdefault, not in __init__: a tournament recorded before them
    # (its snapshots included) replays to the very same state. Version 1 of each event.

    @event("TableForfeited", topic="tournament.tournaments:Tournament.TableForfeited")
    def forfeit_table(self, round: int, table: int, player: str, reason: str, by: str) -> None:  # noqa: A002
        # The player forfeits the table's challenges not yet ended (see results.table_result).
        self.table(round, table).setdefault("forfeits", []).append(
            {"player": player, "reason": reason, "by": by}
        )

    @event("PlayerCheckedIn", topic="tournament.tournaments:Tournament.PlayerCheckedIn")
    def check_in(self, player: str, round: int, by: str) -> None:  # noqa: A002
        here = vars(self).setdefault("checked_in", {}).setdefault(str(round), [])
        if player not in here:
            here.append(player)

    @event("PlayerCheckedOut", topic="tournament.tournaments:Tournament.PlayerCheckedOut")
    def check_out(self, player: str, round: int, by: str) -> None:  # noqa: A002
        here = vars(self).setdefault("checked_in", {}).setdefault(str(round), [])
        if player in here:
            here.remove(player)

    def checked_in_for(self, round_number: int) -> list[str]:
        """Who checked in for round ``round_number`` (check-ins reset each round)."""
        return list(vars(self).get("checked_in", {}).get(str(round_number), []))

    # --- table files (#26): a table recording with no network, on a store of its own ---------
    @event("TableCheckedOut", topic="tournament.tournaments:Tournament.TableCheckedOut")
    def check_out_table(
        self,
        round: int,  # noqa: A002
        table: int,
        matches: dict[str, str],
        to: str,
        by: str,
        format: int,  # noqa: A002 - of this event's fields: 1
    ) -> None:
        """The table's matches (game -> number: those started and those its partita still
        plays, numbered now) are recorded in the table file ``to`` until it is checked in or
        the table released; the numbers stay the table's for good."""
        key = f"{round}/{table}"
        vars(self).setdefault("reserved", {})[key] = dict(matches)
        vars(self).setdefault("out", {})[key] = {"matches": dict(matches), "to": to, "by": by}

    @event("TableCheckedIn", topic="tournament.tournaments:Tournament.TableCheckedIn")
    def check_in_table(self, round: int, table: int, by: str, format: int) -> None:  # noqa: A002
        vars(self).get("out", {}).pop(f"{round}/{table}", None)

    @event("TableReleased", topic="tournament.tournaments:Tournament.TableReleased")
    def release_table(
        self,
        round: int,  # noqa: A002
        table: int,
        reason: str,
        by: str,
        format: int,  # noqa: A002 - of this event's fields: 1
    ) -> None:
        vars(self).get("out", {}).pop(f"{round}/{table}", None)

    @event("TableFileWritten", topic="tournament.tournaments:Tournament.TableFileWritten")
    def write_table_file(
        self,
        round: int,  # noqa: A002
        table: int,
        home: str,
        by: str,
        format: int,  # noqa: A002 - of this event's fields: 1
    ) -> None:
        """Only in a table file: this store records table ``round``/``table``'s matches for
        the tournament at ``home`` (see :mod:`tournament.domain.tablefiles`)."""
        vars(self)["table_file"] = {"round": round, "table": table, "home": home}

    @event("RoundClosed", topic="tournament.tournaments:Tournament.RoundClosed")
    def close_round(self, number: int, by: str) -> None:
        self.rounds[number - 1]["closed"] = True

    def table(self, round_number: int, table_number: int) -> dict[str, Any]:
        return self.rounds[round_number - 1]["tables"][table_number - 1]

    @property
    def active(self) -> list[str]:
        return [p for p, info in self.players.items() if info["status"] == "active"]

    @property
    def ranked_players(self) -> list[str]:
        """Everyone who stays in the standings (withdrawn before the start do not)."""
        return [p for p, info in self.players.items() if info["status"] != "withdrawn"]
