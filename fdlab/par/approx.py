"""One-pool presets the solo solver can model, standing in for those it cannot.

The solver models one damage pool and no street rules (:class:`SoloModel`).
A bot guided by it under other rules uses the solution of an approximation:

* **street** (R-3): the same preset without the street rules. Movement,
  corners, pits and the single SP pool are the same; nitro, the danger and
  shooting spaces and the checkpoint bonus are left out (they are random
  damage or a bonus, which a bot weighs on top, move by move);
* **advanced** (R-4): one pool, ``WP``, holding the wear points that pay for
  corners: brakes (braking, A-5) plus tires (overshooting, A-2). Braking
  and overshooting cost one point a space as in A-2/A-5; a downshift costs
  the brake point of A-7 (the fuel and engine points lie outside the pool);
  the advanced start (S-3) and turn order are kept. The bound "no more
  braking than brake WP" (A-5), spins and the body, fuel and engine pools
  are left to the engine's exact costs, which a bot reads for every move.

A car's pools map to the model's pool with :func:`solo_pool`.
"""

from __future__ import annotations

import dataclasses

from fdlab.rules.presets import Preset

__all__ = ["exact", "solo_pool", "solo_preset"]


def exact(preset: Preset) -> bool:
    """Whether the solver models ``preset`` as it is (one pool, no street rules).

    Examples
    --------
    >>> from fdlab.rules.presets import get_preset
    >>> exact(get_preset("basic", laps=2)), exact(get_preset("street"))
    (True, False)
    """
    return len(preset.pools) == 1 and not preset.street


def solo_preset(preset: Preset) -> Preset:
    """The preset itself when the solver models it, else its one-pool approximation.

    Examples
    --------
    >>> from fdlab.rules.presets import get_preset
    >>> solo_preset(get_preset("street")).street
    False
    >>> model = solo_preset(get_preset("advanced"))
    >>> model.pools, model.brake_pool, model.downshift_costs[3]
    ((('WP', 7),), 'WP', {'WP': 1})
    """
    if exact(preset):
        return preset
    if len(preset.pools) == 1:
        return dataclasses.replace(preset, name=f"{preset.name} (no street rules)", street=False)
    pool = "WP"
    start = dict(preset.pools)
    size = start[preset.brake_pool] + (
        start[preset.overshoot_pool] if preset.overshoot_pool != preset.brake_pool else 0
    )
    shifts = {
        drop: {pool: cost[preset.brake_pool]} if cost.get(preset.brake_pool) else {}
        for drop, cost in preset.downshift_costs.items()
    }
    return dataclasses.replace(
        preset,
        name=f"{preset.name} (one pool: {preset.brake_pool} + {preset.overshoot_pool})",
        model="basic",
        pools=((pool, size),),
        eliminate_at_zero=(pool,),
        downshift_costs=shifts,
        brake_pool=pool,
        overshoot_pool=pool,
        blocked_costs=None,
        spin_pool=None,
        collision_pool=pool,
        engine_pool=pool,
        pit_restore=(pool,),
        street=False,
        street_pool=pool,
    )


def solo_pool(preset: Preset, pools: tuple[int, ...]) -> int:
    """The model's pool (:func:`solo_preset`) of a car with ``pools`` under ``preset``.

    Examples
    --------
    >>> from fdlab.rules.presets import get_preset
    >>> solo_pool(get_preset("basic"), (11,))
    11
    >>> solo_pool(get_preset("advanced"), (3, 2, 2, 2, 2))  # tires 3 + brakes 2
    5
    """
    if len(preset.pools) == 1:
        return pools[0]
    index = preset.pool_index
    names = {preset.brake_pool, preset.overshoot_pool}
    return sum(pools[index[name]] for name in names)
