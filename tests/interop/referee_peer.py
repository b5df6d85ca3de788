"""Independent DDS peer against the real referee (Eclipse Cyclone DDS, Python).

The `referee` and `planner` executables run in the same network namespace
(see tests/interop/run): tic-tac-toe, player 1 human, player 2 the computer.
This peer, with types generated from our .msg/.srv files:

1. subscribes to /game/state (transient-local) and /game/events, decodes every
   field of the opening position and checks it against the rules of
   tic-tac-toe (nine empty cells, five crosses and five noughts in their
   supplies, the human to move, legal moves from a supply to a cell);
2. calls /referee/submit_move as an rmw_cyclonedds client would (request and
   reply topics with the 16-byte request header) with an illegal move, which
   must be rejected with a reason, then with a legal one, which must be
   accepted;
3. sees the move in /game/state and its physical action (a transfer from the
   supply to the cell, with arm coordinates) in /game/events, and then the
   computer's answer: the whole position after it (two pieces on the cells,
   the human to move, exactly the 28 legal placements) and its event.

Exit status 0 means all of it worked. Run inside scripts/netns-run.
"""

import os
import sys
import time
from pathlib import Path

from cyclonedds.core import Policy, Qos
from cyclonedds.domain import DomainParticipant
from cyclonedds.pub import DataWriter
from cyclonedds.sub import DataReader
from cyclonedds.topic import Topic
from cyclonedds.util import duration

import ros_idl

ROOT = Path(__file__).resolve().parents[2]
IFACES = ROOT / "packages/gamebot_interfaces"
REG = ros_idl.Registry([IFACES, IFACES / "testdata/ros"])
GameState = REG.get("gamebot_interfaces", "GameState")
GameEvent = REG.get("gamebot_interfaces", "GameEvent")
SubmitRequest, SubmitResponse = ros_idl.service_types(
    REG, "gamebot_interfaces", "SubmitMove", IFACES, ros_idl.CYCLONE_REQUEST_HEADER)

XCDR1 = Policy.DataRepresentation(use_cdrv0_representation=True)
LATCHED = Qos(Policy.Reliability.Reliable(duration(seconds=1)), Policy.Durability.TransientLocal,
              Policy.History.KeepLast(1), XCDR1)
EVENTS = Qos(Policy.Reliability.Reliable(duration(seconds=1)), Policy.Durability.Volatile,
             Policy.History.KeepLast(100), XCDR1)
SERVICE = Qos(Policy.Reliability.Reliable(duration(seconds=1)), Policy.Durability.Volatile,
              Policy.History.KeepLast(10), XCDR1)

PHASE_WAITING_FOR_HUMAN = 0
MOVE_PLAYED = 1
TRANSFER = 0
CELLS = {f"cell({x},{y})" for x in range(1, 4) for y in range(1, 4)}
DEADLINE = time.monotonic() + 120


def fail(msg):
    print(f"FAIL: {msg}", file=sys.stderr)
    sys.exit(1)


def wait_state(reader, pred, what):
    last = None
    while time.monotonic() < DEADLINE:
        for s in reader.take(N=10):
            last = s
            if pred(s):
                return s
        time.sleep(0.05)
    fail(f"no /game/state with {what}; last seen: {last}")


def check_opening(s):
    problems = []
    want = {"game_name": "tictactoe", "game_number": 1, "current_player": 1, "winner": -1,
            "phase": PHASE_WAITING_FOR_HUMAN, "move_history": []}
    for k, v in want.items():
        if getattr(s, k) != v:
            problems.append(f"{k} = {getattr(s, k)!r}, want {v!r}")
    if not s.game_file.endswith("games/tictactoe.game"):
        problems.append(f"game_file = {s.game_file!r}")
    if len(s.players) != 2 or list(s.player_kinds)[:1] != ["human"] or not s.player_kinds[1].startswith("ai:"):
        problems.append(f"players {s.players!r} kinds {s.player_kinds!r}")
    if list(s.scores) != [0, 0]:
        problems.append(f"scores = {s.scores!r}")
    if s.state_hash == 0:
        problems.append("state_hash is 0")
    by_loc = {l.location: l for l in s.board}
    if not CELLS <= set(by_loc):
        problems.append(f"cells missing from board: {sorted(CELLS - set(by_loc))}")
    for c in CELLS & set(by_loc):
        l = by_loc[c]
        if l.element or l.element_type or l.element_state or l.owner or not l.relevant \
                or l.location_type != "cell":
            problems.append(f"{c}: {l}")
    supplies = [l for l in s.board if l.location not in CELLS]
    if len(supplies) != 10 or any(l.location_type != "supply" or l.relevant for l in supplies):
        problems.append(f"supplies: {[(l.location, l.location_type, l.relevant) for l in supplies]}")
    if (s.header.stamp.sec, s.header.stamp.nanosec) < (0, 0) or not isinstance(s.header.frame_id, str):
        problems.append(f"header = {s.header!r}")
    pieces = [l for l in s.board if l.element]
    crosses = [l for l in pieces if l.owner == 1]
    noughts = [l for l in pieces if l.owner == 2]
    if len(crosses) != 5 or len(noughts) != 5 or len(pieces) != 10:
        problems.append(f"pieces: {len(crosses)} of player 1, {len(noughts)} of player 2, {len(pieces)} in all")
    if any(l.location in CELLS for l in pieces):
        problems.append("a piece is on the board before the first move")
    if {l.element_type for l in crosses} != {"cross"} or {l.element_type for l in noughts} != {"nought"}:
        problems.append("player 1's pieces should be crosses and player 2's noughts")
    if any(l.element_state != 1 for l in pieces):
        problems.append(f"element states: {[(l.element, l.element_state) for l in pieces]}")
    if not s.legal_moves:
        problems.append("no legal moves")
    for m in s.legal_moves:
        elem, _, rest = m.partition(":")
        frm, _, to = rest.partition("->")
        if to not in CELLS or frm not in by_loc or by_loc[frm].element != elem or by_loc[frm].owner != 1:
            problems.append(f"legal move {m!r} is not a cross from its supply to a cell")
    if problems:
        fail("opening GameState from the referee:\n  " + "\n  ".join(problems))
    fields = len(GameState.__dataclass_fields__)
    print(f"ok cyclonedds decoded the referee's GameState ({fields} fields, {len(s.board)} locations, "
          f"{len(s.legal_moves)} legal moves) and it is tic-tac-toe's opening")


def check_after_answer(opening, s, first):
    """The position after the human's move and the computer's answer."""
    problems = []
    if list(s.move_history[:1]) != [first] or len(s.move_history) != 2:
        problems.append(f"move_history = {s.move_history!r}")
    want = {"game_name": "tictactoe", "game_number": 1, "current_player": 1, "winner": -1,
            "phase": PHASE_WAITING_FOR_HUMAN}
    for k, v in want.items():
        if getattr(s, k) != v:
            problems.append(f"{k} = {getattr(s, k)!r}, want {v!r}")
    if s.state_hash == opening.state_hash:
        problems.append("state_hash unchanged by two moves")
    answer = s.move_history[1] if len(s.move_history) == 2 else ""
    a_elem, _, rest = answer.partition(":")
    a_from, _, a_to = rest.partition("->")
    by_loc = {l.location: l for l in s.board}
    on_cells = [l for l in s.board if l.location in CELLS and l.element]
    if sorted((l.location, l.element, l.owner) for l in on_cells) != \
            sorted([(first.split("->")[1], first.split(":")[0], 1), (a_to, a_elem, 2)]):
        problems.append(f"occupied cells: {[(l.location, l.element, l.owner) for l in on_cells]}")
    if a_from not in by_loc or by_loc[a_from].element or by_loc[a_from].location_type != "supply":
        problems.append(f"the answer {answer!r} did not come from a now empty supply")
    if len([l for l in s.board if l.element]) != 10:
        problems.append("pieces appeared or vanished")
    # Four crosses left in the supplies, seven empty cells.
    empty = {c for c in CELLS if not by_loc[c].element}
    if len(s.legal_moves) != 4 * 7:
        problems.append(f"{len(s.legal_moves)} legal moves, want 28")
    for m in s.legal_moves:
        elem, _, rest = m.partition(":")
        frm, _, to = rest.partition("->")
        if to not in empty or frm not in by_loc or by_loc[frm].element != elem or by_loc[frm].owner != 1:
            problems.append(f"legal move {m!r} is not a cross from its supply to an empty cell")
    if problems:
        fail("GameState after the computer's answer:\n  " + "\n  ".join(problems))


class SubmitClient:
    """A /referee/submit_move client laid out as rmw_cyclonedds lays it out."""

    def __init__(self, dp):
        self.writer = DataWriter(dp, Topic(dp, "rq/referee/submit_moveRequest", SubmitRequest), qos=SERVICE)
        self.reader = DataReader(dp, Topic(dp, "rr/referee/submit_moveReply", SubmitResponse), qos=SERVICE)
        self.client_id = int.from_bytes(os.urandom(8), "little") >> 1
        self.seq = 0

    def call(self, move, timeout=20.0):
        self.seq += 1
        req = SubmitRequest(client_id=self.client_id, sequence=self.seq, move=move, game_number=0)
        end = time.monotonic() + timeout
        # A request written before the server's reader has matched is lost:
        # wait for the match as rmw's service_is_available does.
        while time.monotonic() < end and self.writer.get_matched_subscriptions() == []:
            time.sleep(0.05)
        self.writer.write(req)
        while time.monotonic() < end:
            for r in self.reader.take(N=10):
                if r.client_id == self.client_id and r.sequence == self.seq:
                    return r
            time.sleep(0.02)
        fail(f"no SubmitMove reply for {move!r}")


def main():
    dp = DomainParticipant(int(os.environ.get("ROS_DOMAIN_ID", "0")))
    states = DataReader(dp, Topic(dp, "rt/game/state", GameState), qos=LATCHED)
    events = DataReader(dp, Topic(dp, "rt/game/events", GameEvent), qos=EVENTS)
    client = SubmitClient(dp)

    opening = wait_state(states, lambda s: s.phase == PHASE_WAITING_FOR_HUMAN and not s.move_history,
                         "the opening position")
    check_opening(opening)

    first = opening.legal_moves[0]
    elem, _, rest = first.partition(":")
    frm, _, cell = rest.partition("->")
    illegal = f"{elem}:{frm}->nowhere"
    r = client.call(illegal)
    if r.accepted or not r.reason:
        fail(f"illegal move {illegal!r}: accepted={r.accepted} reason={r.reason!r}")
    print(f"ok SubmitMove rejected {illegal!r}: {r.reason}")

    r = client.call(first)
    if not r.accepted or r.reason or r.move.text != first or r.move.to_location != cell:
        fail(f"legal move {first!r}: {r}")
    print(f"ok SubmitMove accepted {first!r} (element {r.move.element}, {r.move.from_location} -> "
          f"{r.move.to_location})")

    after = wait_state(states, lambda s: list(s.move_history[:1]) == [first], f"history starting {first}")
    by_loc = {l.location: l for l in after.board}
    if by_loc[cell].element != elem or by_loc[cell].owner != 1 or by_loc[frm].element:
        fail(f"after the move: {cell} holds {by_loc[cell]}, {frm} holds {by_loc[frm]}")
    # The reader keeps only the newest state (KeepLast 1): when the planner
    # answers quickly, the state after the human's move may already be
    # replaced by the one after the computer's answer.
    answered = after if len(after.move_history) >= 2 else \
        wait_state(states, lambda s: len(s.move_history) >= 2, "the computer's answer")
    check_after_answer(opening, answered, first)
    print(f"ok /game/state shows the move and the computer's answer {answered.move_history[1]!r}, "
          f"and the human to move again with {len(answered.legal_moves)} legal moves")

    answer = answered.move_history[1]
    played = {}
    end = time.monotonic() + 10
    while len(played) < 2 and time.monotonic() < end:
        for e in events.take(N=100):
            if e.kind == MOVE_PLAYED and e.move.text in (first, answer):
                played[e.move.text] = e
        time.sleep(0.05)
    for text, player, ply in ((first, 1, 1), (answer, 2, 2)):
        e = played.get(text)
        if e is None:
            fail(f"no MOVE_PLAYED event for {text!r} on /game/events")
        if (e.player, e.ply, e.game_number, e.winner) != (player, ply, 1, -1) \
                or [a.kind for a in e.actions] != [TRANSFER]:
            fail(f"MOVE_PLAYED event for {text!r}: {e}")
    played = played[first]
    if len(played.actions) != 1:
        fail(f"physical actions of {first!r}: {played.actions}")
    a = played.actions[0]
    if (a.kind != TRANSFER or a.element != elem or a.from_location != frm or a.to_location != cell
            or (a.to_position.x, a.to_position.y) == (0.0, 0.0)):
        fail(f"physical action of {first!r}: {a}")
    print(f"ok /game/events: {first!r} is a transfer {a.from_location} -> {a.to_location}, "
          f"arm target ({a.to_position.x:.3f}, {a.to_position.y:.3f}, {a.to_position.z:.3f}) m")
    return 0


if __name__ == "__main__":
    sys.exit(main())
