"""Each seat's rating change as a finished game's watchers see it (issue 33):
:func:`splendor.server.rating_updates.seat_changes`, and the state message's result that
carries it (:meth:`splendor.server.views.JsonView.result_json`)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from splendor.server.rating_updates import seat_changes
from splendor.server.views import JsonView


def change(before: float, after: float) -> dict[str, Any]:
    return {"kind": "duel", "before": {"value": before}, "after": {"value": after}}


def test_seat_changes_in_seat_order_rounded_with_the_difference() -> None:
    changes = {"bob": change(1500.4, 1487.6), "ann": change(1500.0, 1662.49)}
    assert seat_changes(["ann", "bob"], changes) == [
        {"seat": 0, "kind": "duel", "before": 1500, "after": 1662, "delta": 162},
        {"seat": 1, "kind": "duel", "before": 1500, "after": 1488, "delta": -12},
    ]


def test_seats_without_a_change_are_left_out() -> None:
    assert seat_changes([None, "bob"], {"bob": change(1400, 1400)}) == [
        {"seat": 1, "kind": "duel", "before": 1400, "after": 1400, "delta": 0}
    ]
    assert seat_changes(["ann"], {}) == []


def test_the_result_carries_the_changes_once_known() -> None:
    result = {"winners": [0], "scores": [3, 1]}
    live: Any = SimpleNamespace(result=result, rating_changes=None)
    assert JsonView.result_json(live) is result
    live.rating_changes = [{"seat": 0, "kind": "duel", "before": 1, "after": 2, "delta": 1}]
    assert JsonView.result_json(live) == {**result, "ratings": live.rating_changes}
    assert "ratings" not in result  # the record's result is unchanged
    live.result = None
    assert JsonView.result_json(live) is None
