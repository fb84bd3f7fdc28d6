"""Street features: tunnels cut out of the lap, hazard spaces and the police line."""

from __future__ import annotations

import numpy as np

from fdlab.track.build.cells import _Cell, _lanes
from fdlab.track.build.spec import StreetSpec
from fdlab.track.build.stretches import _Stretch
from fdlab.track.errors import BuildError

#: Tunnel pair labels: tunnel number and lane letter (``1a``, ``1b``, ...).
_LANE_LETTERS = "abcd"


def _apply_tunnels(
    street: StreetSpec | None, cells: list[_Cell], lap: float
) -> list[tuple[_Cell, _Cell]]:
    if street is None or not street.tunnels:
        return []
    pairs = []
    for number, tunnel in enumerate(street.tunnels, start=1):
        lanes = _lanes(cells)
        doomed = [c for c in cells if c.kind == "track" and tunnel.contains(c.middle / lap)]
        if not doomed:
            raise BuildError(f"street tunnels[{number - 1}]: the stretch holds no space")
        doomed_ids = {id(c) for c in doomed}
        for lane, row in sorted(lanes.items()):
            inside = [i for i, c in enumerate(row) if id(c) in doomed_ids]
            if not inside:
                continue
            entry, exit_ = row[(inside[0] - 1) % len(row)], row[(inside[-1] + 1) % len(row)]
            if id(entry) in doomed_ids or id(exit_) in doomed_ids or entry.tunnel or exit_.tunnel:
                raise BuildError(
                    f"street tunnels[{number - 1}]: lane {lane} has no space to open a portal"
                )
            label = f"{number}{_LANE_LETTERS[lane]}"  # printed boards: short labels
            entry.tunnel = exit_.tunnel = label
            pairs.append((entry, exit_))
        cells[:] = [c for c in cells if id(c) not in doomed_ids]
        emptied = {c.corner for c in doomed} - {c.corner for c in cells} - {None}
        if emptied:
            raise BuildError(
                f"street tunnels[{number - 1}]: the tunnel swallows all of corner(s) "
                f"{sorted(c for c in emptied if c is not None)}; move it onto a straight"
            )
    return pairs


def _apply_hazards(street: StreetSpec | None, cells: list[_Cell], lap: float) -> None:
    if street is None:
        return
    by_id = {c.ident: c for c in cells}
    for hazard in ("shooting", "danger"):
        for item in getattr(street, hazard):
            if isinstance(item, int):
                if item not in by_id:
                    raise BuildError(
                        f"street {hazard}: space {item} is not a track space of the board"
                    )
                by_id[item].hazard = hazard
            else:
                for cell in cells:
                    if item.contains(cell.middle / lap) and cell.tunnel is None:
                        cell.hazard = hazard


def _police_position(
    street: StreetSpec | None, stretches: list[_Stretch], lap: float
) -> float | None:
    if street is None or street.police is None:
        return None
    wanted = street.police * lap
    edges: list[float] = []
    for s in stretches:
        if s.corner is None:
            edges.extend(np.linspace(s.start, s.end, s.columns + 1))
    if not edges:
        return wanted
    edge = min(edges, key=lambda e: abs(e - wanted))
    return float(edge) - 1e-6 if edge > 0 else lap - 1e-6
