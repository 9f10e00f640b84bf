"""The sweep benchmark's floor (bench/sweep.py): each sweep's wall time as a multiple of the
one-query floor's, next to the target, printed without a database."""

from bench.sweep import floor_lines


def test_each_sweep_is_a_multiple_of_the_floor_next_to_the_target():
    lines = floor_lines({"full sweep": 2.0, "second sweep": 0.4}, 0.1, 91, 91)
    assert lines == [
        "The floor: gcd.service_overdue alone as one SQL query 0.10 s, 91 open findings "
        "(the sweep stored 91)",
        "  the full sweep took 20.0x the floor   target <= 5x   OVER target",
        "  the second sweep took 4.0x the floor   target <= 5x   within target",
    ]


def test_exactly_five_times_the_floor_is_within_target():
    (_, line) = floor_lines({"full sweep": 0.5}, 0.1, 3, 2)
    assert line.endswith("5.0x the floor   target <= 5x   within target")
