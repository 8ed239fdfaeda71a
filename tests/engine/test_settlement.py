"""Money (RULES.md §1): the elimination pool, ex aequo places, odd units, and the fewest transfers."""

from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.settlement import EXACT_UPTO, fewest_transfers, places, settle, smallest_unit, split

D = Decimal


def money(ranking, stake):
    result = settle(ranking, D(stake))
    return {p["seat"]: (p["paid"], p["received"], p["net"]) for p in result["players"]}, result


@pytest.mark.parametrize(
    "ranking, stake, paid, received",
    [
        # 4 players, P = 1: out one by one, the k-th out pays (N - k)·2P
        ([[3], [1], [2], [0]], "1", [6, 2, 4, 0], [0, 0, 0, 12]),
        # two out together in 2nd and 3rd place pay the average, 3 each
        ([[3], [1, 2], [0]], "1", [6, 3, 3, 0], [0, 0, 0, 12]),
        # two out together first: 3rd and 4th place, 5 each
        ([[3], [1], [0, 2]], "1", [5, 2, 5, 0], [0, 0, 0, 12]),
        # everyone out at once: they share every place, the winner's too; nobody gains
        ([[0, 1, 2, 3]], "1", [3, 3, 3, 3], [3, 3, 3, 3]),
        # one out first, then the other three at once: they share places 1-3 and the pool
        ([[1, 2, 3], [0]], "1", [6, 2, 2, 2], [0, 4, 4, 4]),
        # two players
        ([[1], [0]], "0.50", [1, 0], [0, 1]),
        ([[0, 1]], "0.50", ["0.50", "0.50"], ["0.50", "0.50"]),
        # eight players out one by one, P = 0.10
        ([[7], [6], [5], [4], [3], [2], [1], [0]], "0.10",
         ["1.4", "1.2", "1.0", "0.8", "0.6", "0.4", "0.2", "0"], [0, 0, 0, 0, 0, 0, 0, "5.6"]),
        # no stake: nothing moves
        ([[3], [1], [2], [0]], "0", [0, 0, 0, 0], [0, 0, 0, 0]),
    ],
)
def test_pool_worked_by_hand(ranking, stake, paid, received):
    players, result = money(ranking, stake)
    assert [players[seat][0] for seat in sorted(players)] == [D(str(x)) for x in paid]
    assert [players[seat][1] for seat in sorted(players)] == [D(str(x)) for x in received]
    assert result["pool"] == sum(D(str(x)) for x in paid)
    assert sum(p[2] for p in players.values()) == 0


def test_ex_aequo_always_pays_a_whole_multiple_of_the_stake():
    stake = D("0.30")
    for n in range(2, 9):
        for first in range(1, n + 1):
            for last in range(first, n + 1):
                group = list(range(last - first + 1))
                rest = [[seat] for seat in range(len(group), n)]
                ranking = [[s] for s in range(100, 100 + first - 1)] + [group] + rest[: n - last]
                paid = money(ranking, stake)[0][0][0]
                assert paid % stake == 0
                assert paid == sum((p - 1) * 2 * stake for p in range(first, last + 1)) / len(group)


def test_three_winners_share_a_pool_that_does_not_divide():
    # five players, P = 0.01: 5th place pays 0.08, 4th 0.06, three share places 1-3 and pay 0.02 each
    players, result = money([[4, 0, 2], [3], [1]], "0.01")
    assert result["pool"] == D("0.20")
    assert {seat: players[seat][1] for seat in (0, 2, 4)} == {0: D("0.07"), 2: D("0.07"), 4: D("0.06")}
    assert {seat: players[seat][2] for seat in players} == {
        0: D("0.05"), 1: D("-0.08"), 2: D("0.05"), 3: D("-0.06"), 4: D("0.04")}


@pytest.mark.parametrize(
    "amount, seats, unit, shares",
    [
        ("0.20", [0, 1, 2], "0.01", ["0.07", "0.07", "0.06"]),
        ("0.20", [5, 2, 7], "0.01", {2: "0.07", 5: "0.07", 7: "0.06"}),
        ("1", [0, 1, 2], "0.01", ["0.34", "0.33", "0.33"]),
        ("0.010", [0, 1, 2, 3], "0.001", ["0.003", "0.003", "0.002", "0.002"]),
        ("12", [0, 1, 2], "0.01", ["4", "4", "4"]),
    ],
)
def test_odd_smallest_units_go_to_the_earliest_seats(amount, seats, unit, shares):
    result = split(D(amount), seats, D(unit))
    if isinstance(shares, list):
        shares = dict(zip(sorted(seats), shares, strict=True))
    assert result == {seat: D(share) for seat, share in shares.items()}
    assert sum(result.values()) == D(amount)


@pytest.mark.parametrize("stake, unit", [("1", "0.01"), ("0.50", "0.01"), ("0.005", "0.001"), ("0.0025", "0.0001"),
                                         ("100", "0.01"), ("0", "0.01")])
def test_smallest_unit(stake, unit):
    assert smallest_unit(D(stake)) == D(unit)


def test_places_of_groups():
    assert places([[2], [0, 3], [1]]) == {2: (1, 1), 0: (2, 3), 3: (2, 3), 1: (4, 4)}


# --- the fewest transfers -----------------------------------------------------------------------------

def greedy_transfers(net):
    """The usual greedy method: the largest debtor pays the largest creditor, until all are even."""
    owing = {seat: -amount for seat, amount in net.items() if amount < 0}
    owed = {seat: amount for seat, amount in net.items() if amount > 0}
    count = 0
    while owing:
        debtor, creditor = max(owing, key=owing.get), max(owed, key=owed.get)
        amount = min(owing[debtor], owed[creditor])
        count += 1
        for book, seat in ((owing, debtor), (owed, creditor)):
            book[seat] -= amount
            if not book[seat]:
                del book[seat]
    return count


def partitions(items):
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for partition in partitions(rest):
        yield [[first], *partition]
        for i in range(len(partition)):
            yield partition[:i] + [[first, *partition[i]]] + partition[i + 1:]


def optimum_by_brute_force(net):
    """Every set partition of the players who owe or are owed: each zero-sum block saves one transfer."""
    seats = [seat for seat, amount in net.items() if amount]
    blocks = max(
        (len(partition) for partition in partitions(seats)
         if all(sum(net[seat] for seat in block) == 0 for block in partition)),
        default=0,
    )
    return len(seats) - blocks


def check_transfers(net, transfers):
    left = dict(net)
    for transfer in transfers:
        assert transfer["amount"] > 0
        assert net[transfer["from"]] < 0 < net[transfer["to"]]
        left[transfer["from"]] += transfer["amount"]
        left[transfer["to"]] -= transfer["amount"]
    assert all(amount == 0 for amount in left.values())


@pytest.mark.parametrize(
    "values, greedy, optimum",
    [
        ([8, -2, -7, -8, 9], 4, 3),
        ([-8, -9, 4, 3, -6, -3, 6, 13], 7, 5),
        ([5, 5, -3, -3, -4], 4, 4),
    ],
)
def test_fewest_transfers_beats_greedy_and_is_the_optimum(values, greedy, optimum):
    net = {seat: D(value) for seat, value in enumerate(values)}
    transfers = fewest_transfers(net)
    check_transfers(net, transfers)
    assert greedy_transfers(net) == greedy
    assert optimum_by_brute_force(net) == optimum
    assert len(transfers) == optimum


@pytest.mark.parametrize(
    "net, transfers",
    [
        ({}, []),
        ({0: D(0), 1: D(0)}, []),
        ({0: D(-6), 1: D(6)}, [{"from": 0, "to": 1, "amount": D(6)}]),
        ({0: D(-6), 1: D(0), 2: D(2), 3: D(4)},
         [{"from": 0, "to": 2, "amount": D(2)}, {"from": 0, "to": 3, "amount": D(4)}]),
    ],
)
def test_transfers_worked_by_hand(net, transfers):
    assert fewest_transfers(net) == transfers


nets = st.lists(st.integers(-40, 40), min_size=1, max_size=7).map(lambda values: values + [-sum(values)])


@settings(max_examples=150, deadline=None)
@given(nets, st.sampled_from(["1", "0.01", "0.25"]))
def test_fewest_transfers_settle_every_net_with_the_optimum(values, unit):
    net = {seat: value * D(unit) for seat, value in enumerate(values)}
    transfers = fewest_transfers(net)
    check_transfers(net, transfers)
    assert len(transfers) == optimum_by_brute_force(net)


rankings = st.permutations(range(8)).flatmap(
    lambda seats: st.lists(st.integers(1, 3), min_size=8, max_size=8).map(lambda sizes: group(seats, sizes)))


def group(seats, sizes):
    out, i = [], 0
    for size in sizes:
        if i < len(seats):
            out.append(list(seats[i:i + size]))
            i += size
    return out


@settings(max_examples=150, deadline=None)
@given(rankings, st.decimals(min_value=0, max_value=1000, places=2))
def test_money_always_sums_to_zero(ranking, stake):
    result = settle(ranking, stake)
    assert sum(p["net"] for p in result["players"]) == 0
    assert sum(p["paid"] for p in result["players"]) == result["pool"]
    assert sum(p["received"] for p in result["players"]) == result["pool"]
    assert all(p["received"] == 0 for p in result["players"] if p["place"] > 1)
    check_transfers({p["seat"]: p["net"] for p in result["players"]}, result["transfers"])


many_nets = st.lists(st.integers(-40, 40).filter(bool), min_size=EXACT_UPTO + 1, max_size=40).map(
    lambda values: values + [-sum(values)])


@settings(max_examples=100, deadline=None)
@given(many_nets, st.sampled_from(["1", "0.01"]))
def test_beyond_the_exact_search_every_net_is_still_settled_within_the_stated_bound(values, unit):
    """More people than the search tries (an evening's limit lifted, a club's ledger): no search of 2^n groups,
    yet every net settled exactly, with at most n - 1 transfers and one transfer for each pair that cancels."""
    net = {seat: value * D(unit) for seat, value in enumerate(values)}
    transfers = fewest_transfers(net)
    check_transfers(net, transfers)
    owing = [seat for seat, amount in net.items() if amount != 0]
    assert len(transfers) <= len(owing) - 1
    pairs = [t for t in transfers if -net[t["from"]] == net[t["to"]] == t["amount"]]
    cancelling = sum(min(values.count(a), values.count(-a)) for a in set(values) if a > 0)
    assert len(pairs) >= cancelling


def test_the_exact_search_and_the_short_settlement_agree_where_both_are_the_fewest():
    net = {0: D(5), 1: D(-5), 2: D(7), 3: D(-7), 4: D("0.5"), 5: D("-0.5")}
    assert fewest_transfers(net) == fewest_transfers(net, exact_upto=0) == [
        {"from": 1, "to": 0, "amount": D(5)}, {"from": 3, "to": 2, "amount": D(7)},
        {"from": 5, "to": 4, "amount": D("0.5")}]
