"""simulate's seed follows the stated convention (README, Seeds): None draws a kept seed."""

from fdlab.bots import HeuristicBot, RandomBot
from fdlab.rules import Race, simulate
from fdlab.track.examples import two_corner_ring


def test_a_race_simulated_without_a_seed_keeps_the_one_it_drew_and_replays():
    track = two_corner_ring(stops=(1, 1))
    result = simulate(track, [HeuristicBot(), RandomBot(3)], seed=None)
    assert isinstance(result.seed, int)
    again = simulate(track, [HeuristicBot(), RandomBot(3)], seed=result.seed)
    assert again.actions == result.actions
    replayed = Race.replay(track, result.seed, result.actions, cars=2)
    assert replayed.actions == result.actions
