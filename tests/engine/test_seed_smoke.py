from referee import Match


def test_engine_imports_and_plays_a_deal():
    match = Match.create("ogorek", ["S", "W", "N", "E"])
    match.play({"type": "deal", "dealer": 0})
    assert match.expected() == {"type": "play", "seat": 1, "deal": 1, "trick": 1, "rule": "any", "exhausted": []}
