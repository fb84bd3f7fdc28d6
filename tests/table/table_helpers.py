"""What a person does at a table, for the tests: a whole turn, a race half played, or play
on to the end."""

from __future__ import annotations

from fdlab.rules import Race
from fdlab.table import TableController
from fdlab.track import Track


def person_turn(table: TableController, top_gear: bool = False) -> None:
    """A person's whole turn: the start roll or a gear (the middle one, or the highest),
    then the first (farthest, cheapest) move."""
    if table.start_roll_due:
        table.start_roll()
    else:
        gears = table.gear_choices()
        table.choose_gear(gears[-1 if top_gear else len(gears) // 2].gear)
    if table.phase == "move" and table.person_on_turn:
        table.choose_move(table.move_choices()[0].destination)


def finish(table: TableController) -> None:
    """Play to the end: the bots by themselves, the people a middle gear and the farthest move."""
    while not table.race.over:
        table.run_bots()
        if table.race.over:
            break
        person_turn(table)


def half_played(ring: Track, person_turns: int) -> TableController:
    """A race on ``ring`` played some turns: a person (Blue, top gears), a bold heuristic
    bot and a random bot, stopped at the person's next decision."""
    race = Race(ring, cars=3, seed=13)
    table = TableController(race, ["person", "heuristic:bold", "random"])
    for _ in range(person_turns):
        table.run_bots()
        person_turn(table, top_gear=True)
    table.run_bots()
    return table


# The first highlighted destination of the first table's board, with its centre
# in page pixels (from the plot's ranges and frame); null until there is one.
FIRST_TARGET = """
(table) => {
  const views = (window.Bokeh && table) ? window.Bokeh.index.roots : [];
  const view = views.find((v) => v.model.name === "fdlab-race-board" && table.contains(v.el));
  if (!view) return null;
  const targets = view.model.renderers.find((r) => r.name === "targets");
  const data = targets.data_source.data;
  if (!data.id || data.id.length === 0) return null;
  const xs = data.xs[0], ys = data.ys[0];
  const x = xs.reduce((a, b) => a + b, 0) / xs.length;
  const y = ys.reduce((a, b) => a + b, 0) / ys.length;
  const {x_range, y_range} = view.model;
  const frame = view.frame.bbox;
  const canvas = view.canvas_view.el.getBoundingClientRect();
  const px = canvas.left + frame.left + (x - x_range.start) / (x_range.end - x_range.start) * frame.width;
  const py = canvas.top + frame.top + (y_range.end - y) / (y_range.end - y_range.start) * frame.height;
  return {id: data.id[0], cost: data.cost[0], px, py, count: data.id.length};
}
"""
