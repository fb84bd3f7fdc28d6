"""fdlab._text.whole_at_least: one reader for every whole-number option of the command line."""

from __future__ import annotations

import argparse

import pytest

from fdlab._text import whole_at_least


@pytest.mark.parametrize(("low", "text", "value"), [(0, "0", 0), (0, " 7 ", 7), (1, "1", 1)])
def test_a_whole_number_from_low_is_read(low, text, value):
    assert whole_at_least(low)(text) == value


@pytest.mark.parametrize(
    ("low", "text", "message"),
    [
        (0, "-1", "must be at least 0, not -1"),
        (1, "0", "must be at least 1, not 0"),
        (1, "2.5", "expected a whole number, not '2.5'"),
        (0, "", "expected a whole number, not ''"),
    ],
)
def test_anything_else_is_one_clear_argparse_message(low, text, message):
    with pytest.raises(argparse.ArgumentTypeError) as caught:
        whole_at_least(low)(text)
    assert str(caught.value) == message


def test_argparse_names_the_option_before_the_message(capsys):
    parser = argparse.ArgumentParser(prog="fdlab playtest")
    parser.add_argument("--seed", type=whole_at_least(0), default=0)
    with pytest.raises(SystemExit) as stopped:
        parser.parse_args(["--seed", "-1"])
    assert stopped.value.code == 2
    assert "argument --seed: must be at least 0, not -1" in capsys.readouterr().err
