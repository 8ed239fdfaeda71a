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


def fewest_transfers(net: dict[int, Decimal]) -> list[dict]:
    """The shortest list of payments "from pays to amount" that leaves every net at zero.

    n players with a non-zero net need n - k transfers, where k is the largest number of groups with a
    zero sum that they can be split into. With at most eight players every subset is tried (2^8).
    """
    seats = sorted(seat for seat, amount in net.items() if amount != 0)
    n = len(seats)
    full = (1 << n) - 1
    total = [Decimal(0)] * (1 << n)
    for mask in range(1, full + 1):
        low = (mask & -mask).bit_length() - 1
        total[mask] = total[mask & (mask - 1)] + net[seats[low]]
    # best[mask]: most zero-sum groups that `mask` can be split into, each group closed when its sum is 0
    best = [0] * (1 << n)
    for mask in range(1, full + 1):
        best[mask] = max(best[mask & ~(1 << i)] for i in range(n) if mask >> i & 1) + (total[mask] == 0)
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
