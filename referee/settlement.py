"""Money: the elimination pool, ex aequo places, and the fewest transfers that settle it.

With N players at the start and stake P, the player in place p (1 = the winner, N = first out) pays
(p - 1)·2P into the pool. Players who share places p..q each pay the average of those places' amounts,
(p + q - 2)·P, always a whole multiple of P. The group in first place splits the pool equally; a split that
does not divide evenly gives the odd smallest units to the earliest seats. Everything is an exact
`Decimal` and the nets sum to zero.
"""

from __future__ import annotations

from decimal import Decimal

CENT = Decimal("0.01")


def smallest_unit(stake: Decimal) -> Decimal:
    """A cent, or the stake's own last digit when it is finer than that."""
    exponent = stake.normalize().as_tuple().exponent
    return min(CENT, Decimal(1).scaleb(exponent)) if isinstance(exponent, int) else CENT


def places(ranking: list[list[int]]) -> dict[int, tuple[int, int]]:
    """Seat -> (first, last) of the places its group shares; groups come best first."""
    out = {}
    first = 1
    for group in ranking:
        last = first + len(group) - 1
        for seat in group:
            out[seat] = (first, last)
        first = last + 1
    return out


def split(amount: Decimal, seats: list[int], unit: Decimal) -> dict[int, Decimal]:
    """`amount` split equally among `seats`; the odd smallest units go to the earliest seats."""
    seats = sorted(seats)
    units = int((amount / unit).to_integral_value())
    share, odd = divmod(units, len(seats))
    return {seat: (share + (1 if i < odd else 0)) * unit for i, seat in enumerate(seats)}


def pool(ranking: list[list[int]], stake: Decimal) -> tuple[dict[int, Decimal], dict[int, Decimal]]:
    """The elimination pool: what each seat pays in by its place, and what the first group takes out."""
    unit = smallest_unit(stake)
    paid = {seat: (first + last - 2) * stake for seat, (first, last) in places(ranking).items()}
    received = {seat: Decimal(0) for seat in paid}
    if ranking:
        received.update(split(sum(paid.values(), Decimal(0)), ranking[0], unit))
    return paid, received


def settle(ranking: list[list[int]], stake: Decimal,
           payments: tuple[dict[int, Decimal], dict[int, Decimal]] | None = None) -> dict:
    """Who pays what, who takes what, and the transfers that settle it.

    `payments` (paid, received) replaces the elimination pool for a game that settles its own way.
    """
    where = places(ranking)
    paid, received = payments or pool(ranking, stake)
    net = {seat: received[seat] - paid[seat] for seat in where}
    assert sum(net.values(), Decimal(0)) == 0, "money must sum to zero"
    return {
        "pool": sum(paid.values(), Decimal(0)),
        "players": [
            {"seat": seat, "place": where[seat][0], "paid": paid[seat], "received": received[seat], "net": net[seat]}
            for seat in sorted(where)
        ],
        "transfers": fewest_transfers(net),
    }


EXACT_UPTO = 12  # people with a non-zero net whose fewest transfers are searched exactly: 2^12 groups, ~10 ms


def fewest_transfers(net: dict[int, Decimal], exact_upto: int = EXACT_UPTO) -> list[dict]:
    """A list of payments "from pays to amount" that leaves every net at zero: the shortest one for up to
    `exact_upto` people with a non-zero net, a short one beyond.

    n people with a non-zero net need n - k transfers, where k is the largest number of groups with a zero
    sum that they can be split into (each group of m settles with m - 1 transfers, and no fewer). Up to
    `exact_upto` people every group is tried (2^n of them, n·2^n steps: bounded in time and memory). Beyond
    that the search would grow without bound, so the settlement is made without it (`short_transfers`): every
    pair whose nets cancel exactly settles with one transfer, the rest from the largest debtor to the largest
    creditor. It still settles every net exactly, with at most n - 1 transfers: at most k - 1 more than the
    fewest, and none more than the fewest when no three or more people form a group of their own.
    """
    seats = sorted(seat for seat, amount in net.items() if amount != 0)
    if len(seats) > exact_upto:
        return short_transfers({seat: net[seat] for seat in seats})
    n = len(seats)
    full = (1 << n) - 1
    units = whole_units([net[seat] for seat in seats])
    total = [0] * (1 << n)
    for mask in range(1, full + 1):
        low = (mask & -mask).bit_length() - 1
        total[mask] = total[mask & (mask - 1)] + units[low]
    # best[mask]: most zero-sum groups that `mask` can be split into, each group closed when its sum is 0
    best = [0] * (1 << n)
    bits = [1 << i for i in range(n)]
    for mask in range(1, full + 1):
        best[mask] = max(best[mask ^ bit] for bit in bits if mask & bit) + (total[mask] == 0)
    groups = []
    mask, group = full, []
    while mask:
        i = next(i for i in range(n) if mask >> i & 1 and
                 best[mask & ~(1 << i)] + (total[mask] == 0) == best[mask])
        if total[mask] == 0 and group:
            groups.append(group)
            group = []
        group.append(seats[i])
        mask &= ~(1 << i)
    if group:
        groups.append(group)
    transfers = []
    for group in groups:
        transfers.extend(_settle_group({seat: net[seat] for seat in group}))
    return sorted(transfers, key=lambda t: (t["from"], t["to"]))


def short_transfers(net: dict[int, Decimal]) -> list[dict]:
    """Transfers that settle `net` without a search: each pair of nets that cancel exactly first (one transfer
    each), then the largest debtor pays the largest creditor until all are settled. n - 1 transfers at most."""
    owing: dict[Decimal, list[int]] = {}
    for seat in sorted(net):
        if net[seat] < 0:
            owing.setdefault(-net[seat], []).append(seat)
    transfers, rest = [], {}
    for seat in sorted(net):
        amount = net[seat]
        if amount > 0 and owing.get(amount):
            transfers.append({"from": owing[amount].pop(0), "to": seat, "amount": amount})
        elif amount > 0:
            rest[seat] = amount
    rest.update({seat: -amount for amount, seats in owing.items() for seat in seats})
    transfers.extend(_settle_group(rest) if rest else [])
    return sorted(transfers, key=lambda t: (t["from"], t["to"]))


def whole_units(amounts: list[Decimal]) -> list[int]:
    """The amounts as whole numbers of their smallest unit (exact: the search adds integers, not decimals)."""
    exponent = min((amount.as_tuple().exponent for amount in amounts), default=0)
    return [int(amount.scaleb(-exponent)) for amount in amounts]


def _settle_group(net: dict[int, Decimal]) -> list[dict]:
    """A zero-sum group with no zero-sum part: the largest debtor pays the largest creditor, k-1 times."""
    owing = {seat: -amount for seat, amount in net.items() if amount < 0}
    owed = {seat: amount for seat, amount in net.items() if amount > 0}
    transfers = []
    while owing:
        debtor = max(owing, key=lambda s: (owing[s], -s))
        creditor = max(owed, key=lambda s: (owed[s], -s))
        amount = min(owing[debtor], owed[creditor])
        transfers.append({"from": debtor, "to": creditor, "amount": amount})
        for book, seat in ((owing, debtor), (owed, creditor)):
            book[seat] -= amount
            if book[seat] == 0:
                del book[seat]
    return transfers
