"""A match played over the API with the face of `referee.Match`, so the table simulators can play it.

`play` posts the event with the match's key and answers `(event, warnings, findings)`, as `Match.play`
does; a `409` raises `Rejected` and a `422` raises `InvalidInput`, with the API's code, message, seat and
`forceable`. `view()` and `expected()` are the state of the latest answer (every answer carries it), so
the simulators cost no extra request; `refresh()` reads it again with `GET`.
"""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING

from referee import InvalidInput, Rejected

if TYPE_CHECKING:
    from conftest import Table


class ApiMatch:
    def __init__(self, table: Table, game: str, players: list[str], **fields):
        self.table = table
        created = table.new_match(players=players, game=game, **fields)
        self.id, self.key = created["id"], created["key"]
        self.state = {name: value for name, value in created.items() if name != "key"}

    # --- what the simulators read ------------------------------------------------------------------
    @property
    def options(self) -> dict:
        return self.state["options"]

    @property
    def players(self) -> list[str]:
        return [player["name"] for player in self.state["players"]]

    @property
    def seq(self) -> int:
        return self.state["seq"]

    def view(self) -> dict:
        return self.state

    def expected(self) -> dict | None:
        return self.state["expected"]

    # --- writing -----------------------------------------------------------------------------------
    def play(self, command: dict) -> tuple[dict, list[dict], list[dict]]:
        answer = self.post(f"/api/matches/{self.id}/events", command)
        return answer["event"], answer["warnings"], answer["findings"]

    def undo(self) -> dict:
        """Retracts the latest live event; answers the undo event."""
        return self.post(f"/api/matches/{self.id}/undo", None)["event"]

    def rejection(self, command: dict) -> Rejected:
        """Posts `command`, which must be refused with 409 and leave the log as it was."""
        seq = self.seq
        try:
            self.play(command)
        except Rejected as refused:
            assert self.refresh()["seq"] == seq, "a refused event is not recorded"
            return refused
        raise AssertionError(f"{command} was recorded")

    def post(self, path: str, body: dict | None) -> dict:
        response = self.table.client.post(path, json=body, headers={"Authorization": f"Bearer {self.key}"})
        answer = response.get_json()
        if response.status_code == 409:
            error = answer["error"]
            raise Rejected(error["code"], error["message"], seat=error["details"].get("seat"),
                           forceable=error["details"].get("forceable", False))
        if response.status_code == 422:
            error = answer["error"]
            raise InvalidInput(error["code"], error["message"], error["details"])
        assert response.status_code == 201, answer
        self.state = answer["state"]
        return answer

    # --- reading -----------------------------------------------------------------------------------
    def refresh(self) -> dict:
        """The state as `GET /api/matches/{id}` shows it now to the scorer (with the key)."""
        self.state = self.table.state({"id": self.id, "key": self.key}, keyed=True)
        return self.state

    def events(self) -> list[dict]:
        return self.table.events({"id": self.id, "key": self.key}, keyed=True)

    def settlement(self) -> dict:
        response = self.table.client.get(f"/api/matches/{self.id}/settlement")
        assert response.status_code == 200, response.get_json()
        return response.get_json()


def check_pool(settlement: dict, stake: str) -> None:
    """The elimination pool, from the places alone: place p pays (p - 1)·2P, shared places the average.

    A group of k players sharing the places p .. p + k - 1 each pays P·(2p + k - 3); the first place takes
    the pool (shared: split). The nets sum to zero and the transfers all go to the winners.
    """
    unit = Decimal(stake)
    players = settlement["players"]
    places = [player["place"] for player in players]
    for player in players:
        shared = places.count(player["place"])
        assert Decimal(player["paid"]) == unit * (2 * player["place"] + shared - 3), player
    pool = sum(Decimal(player["paid"]) for player in players)
    winners = [player for player in players if player["place"] == 1]
    assert Decimal(settlement["pool"]) == pool
    assert sum(Decimal(player["received"]) for player in winners) == pool
    assert all(Decimal(player["received"]) == 0 for player in players if player["place"] != 1)
    assert sum(Decimal(player["net"]) for player in players) == 0
    assert {transfer["to"] for transfer in settlement["transfers"]} <= {player["seat"] for player in winners}
