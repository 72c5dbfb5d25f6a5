"""The two places where the game aggregate needs more of the ``eventsourcing`` library (9.5)
than its public API offers (issue 11, part 5; docs/architecture.md, "Events are the record").
Nothing else in the project touches a private attribute of the library; the unit test
tests/unit/test_aggregate_adapter.py fails if the library changes under these two.

* **Creating a game with a chosen id and time.** A game's first event is the first link of
  its hash chain, whose hash covers the game's id and the event's timestamp, so both must
  be known before the event is made. Calling the aggregate class (the public way) passes
  every argument through ``__init__``'s signature, which would then have to take ``id``,
  ``timestamp``, ``prev_hash`` and ``hash`` only to drop them. The library's protected
  class method ``BaseAggregate._create(event_class, id=..., **fields)`` makes the created
  event from exactly the fields given: :func:`create`.

* **Copying a game.** The application's aggregate cache hands each caller its own copy
  (``copy.deepcopy``), and a game copies its state far more cheaply through its rules than
  a generic deep copy does (``Game.__deepcopy__``). The library keeps its own attributes in
  the instance's ``__dict__`` (``_id``, ``_version``, ``_created_on``, ``_modified_on``,
  all immutable values, and ``_pending_events``, a list) and offers no way to give a copy
  a list of pending events of its own; sharing the list would let one copy's events be
  saved with another. :func:`clone` copies the instance and gives the copy its own list.
"""

from __future__ import annotations

from typing import Any, TypeVar

from eventsourcing.domain import Aggregate

A = TypeVar("A", bound=Aggregate)

PENDING_EVENTS = "_pending_events"
"""The instance attribute that holds the list ``Aggregate.pending_events`` returns."""


def create(aggregate_class: type[A], event_class: type[Any], **fields: Any) -> A:
    """A new aggregate of ``aggregate_class`` made by its created event ``event_class`` with
    exactly ``fields`` (``id`` and ``timestamp`` among them), the event pending."""
    return aggregate_class._create(event_class, **fields)


def clone(aggregate: A) -> A:
    """A new aggregate whose attributes are the very objects of ``aggregate``'s, except its
    pending events: a list of its own, holding the same (immutable) events. The caller
    replaces the attributes it will change with copies of its own."""
    copy = object.__new__(type(aggregate))
    vars(copy).update(vars(aggregate))
    vars(copy)[PENDING_EVENTS] = list(aggregate.pending_events)
    return copy
