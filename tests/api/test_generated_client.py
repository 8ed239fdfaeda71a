"""A typed client generated from openapi.yaml plays a match against a live server.

The client is what a developer integrating Kibic would make: `openapi-python-client` over the repository's
`openapi.yaml`, with `openapi-python-client.yaml`'s settings (docs/api.md shows the same command).
It is generated once per session into a temporary folder; the generator must report no schema it could not
process and no warning. Then the client logs the seed's deal (RULES.md) on a real gunicorn and reads every
answer as a typed model.
"""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest
from ogorek_helpers import SEED_HANDS, SEED_PLAYERS, SEED_TRICKS

ROOT = Path(__file__).resolve().parents[2]
GENERATOR = Path(sys.executable).with_name("openapi-python-client")

pytestmark = pytest.mark.server


@pytest.fixture(scope="session")
def generated(tmp_path_factory) -> tuple[subprocess.CompletedProcess, Path]:
    """The generator's run over openapi.yaml, and the folder the package `kibic_client` is in."""
    folder = tmp_path_factory.mktemp("client")
    bin_folder = str(GENERATOR.parent)  # the generator runs ruff over what it wrote: the one installed beside it
    run = subprocess.run(
        [str(GENERATOR), "generate", "--path", str(ROOT / "openapi.yaml"), "--meta", "none",
         "--config", str(ROOT / "openapi-python-client.yaml"), "--output-path", str(folder / "kibic_client")],
        capture_output=True, text=True, timeout=300, cwd=folder,
        env={**os.environ, "PATH": bin_folder + os.pathsep + os.environ.get("PATH", "")})
    return run, folder


@pytest.fixture(scope="session")
def kibic_client(generated):
    run, folder = generated
    assert run.returncode == 0, run.stdout + run.stderr
    sys.path.insert(0, str(folder))
    try:
        yield importlib.import_module("kibic_client")
    finally:
        sys.path.remove(str(folder))


def test_the_generator_processes_every_schema_and_warns_of_nothing(generated):
    run, folder = generated
    said = run.stdout + run.stderr
    assert run.returncode == 0, said
    assert "Unable to process schema" not in said, said
    assert "Warning" not in said and "WARNING" not in said, said
    assert (folder / "kibic_client" / "models" / "ogorek_state.py").exists()


def test_the_generated_client_plays_the_seed_deal_with_typed_answers(kibic_client, live_server):
    from kibic_client.api.matches import create_match, get_match, get_settlement, list_events, post_event
    from kibic_client.models import (
        DealEvent,
        DealEventHands,
        Error,
        EventAnswer,
        EventLog,
        NewMatch,
        OgorekDeal,
        OgorekDealResult,
        OgorekNewMatchState,
        OgorekState,
        PlayEvent,
        Settlement,
    )

    reader = kibic_client.Client(base_url=live_server)
    created = create_match.sync(client=reader, body=NewMatch(game="ogorek", players=SEED_PLAYERS, stake="0.50",
                                                             currency="PLN"))
    assert isinstance(created, OgorekNewMatchState), created
    assert created.key and created.seq == 0 and [player.name for player in created.players] == SEED_PLAYERS
    scorer = kibic_client.AuthenticatedClient(base_url=live_server, token=created.key)

    hands = DealEventHands.from_dict({str(SEED_PLAYERS.index(name)): cards for name, cards in SEED_HANDS.items()})
    dealt = post_event.sync(created.id, client=scorer, body=DealEvent(type_="deal", dealer=0, hands=hands))
    assert isinstance(dealt, EventAnswer) and isinstance(dealt.state, OgorekState), dealt
    assert dealt.event.seq == 1 and dealt.state.expected.seat == 1  # W leads

    out_of_turn = post_event.sync(created.id, client=scorer, body=PlayEvent(type_="play", seat=0, card="A"))
    assert isinstance(out_of_turn, Error), out_of_turn
    assert out_of_turn.error.code == "not_your_turn"
    assert out_of_turn.error.details["turn"] == 1

    for trick in SEED_TRICKS:
        for name, card in trick:
            answer = post_event.sync(created.id, client=scorer,
                                     body=PlayEvent(type_="play", seat=SEED_PLAYERS.index(name), card=card))
            assert isinstance(answer, EventAnswer), answer
            assert answer.warnings == [] and answer.findings == []

    state = get_match.sync(created.id, client=reader)
    assert isinstance(state, OgorekState), state
    assert state.seq == 25 and isinstance(state.deal, OgorekDeal) and state.deal.over
    assert isinstance(state.deal.result, OgorekDealResult)
    assert (state.deal.result.losers, state.deal.result.card, state.deal.result.points) == ([3], "9", 9)
    assert {player.name: player.minus_points for player in state.players} == {"S": 0, "W": 0, "N": 0, "E": 9}
    assert state.options.limit == 21 and state.expected.type_ == "deal"

    log = list_events.sync(created.id, client=reader)
    assert isinstance(log, EventLog)
    assert [event.type_ for event in log.events] == ["deal"] + ["play"] * 24
    assert all(event.undone_by is None and event.corrected_by is None for event in log.events)
    assert log.events[1].card == "K" and log.events[1].seat == 1

    settlement = get_settlement.sync(created.id, client=reader)
    assert isinstance(settlement, Settlement)
    assert settlement.final is False and settlement.currency == "PLN"
    assert sum(Decimal(player.net) for player in settlement.players) == 0
