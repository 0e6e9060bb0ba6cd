"""``wrapgen.model.changes.replace``: the same copies as ``dataclasses.replace``, without ``__init__``."""

from __future__ import annotations

import dataclasses
import functools
import json
from dataclasses import InitVar, dataclass

import pytest

from conftest import FIXTURES
from wrapgen.model.changes import replace
from wrapgen.model.tool import Command, Flag, Positional
from wrapgen.probe.crawl import NodeRead


def _model_objects():
    """Every Command, Flag and Positional of the golden models: the objects discovery copies."""
    for page in (
        "cobra/gh_issue_view.json",
        "urfave/mender-artifact_write_rootfs-image.json",
        "gnu/ls.json",
    ):
        root = Command.from_dict(json.loads((FIXTURES / "help" / page).read_text()))
        for command in root.walk():
            yield command
            yield from command.flags
            yield from command.global_flags
            yield from command.positionals


@pytest.mark.parametrize(
    "changes", [{}, {"description": "changed"}, {"hidden": True, "description": ""}]
)
def test_copies_equal_what_dataclasses_replace_makes(changes):
    objects = list(_model_objects())
    assert len(objects) > 50
    for obj in objects:
        fields = {f.name for f in dataclasses.fields(obj)}
        mine = {k: v for k, v in changes.items() if k in fields}
        ours, theirs = replace(obj, **mine), dataclasses.replace(obj, **mine)
        assert ours == theirs and hash(ours) == hash(theirs) and type(ours) is type(theirs)
        assert vars(ours) == vars(theirs) and ours is not obj


def test_a_node_read_and_a_flag_keep_every_field_not_changed():
    flag = Flag(long="--x", short="-x", choices=("a", "b"), description="d")
    assert replace(flag, required=True) == Flag(
        long="--x", short="-x", choices=("a", "b"), description="d", required=True
    )
    node = NodeRead(("a",), Command(path=("a",)), "text", problems=("p",))
    assert replace(node, text="other") == NodeRead(
        ("a",), Command(path=("a",)), "other", problems=("p",)
    )


def test_a_name_that_is_no_field_is_refused_as_dataclasses_does():
    with pytest.raises(TypeError, match="nope"):
        replace(Positional(name="x"), nope=1)


def test_the_copy_is_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        replace(Flag(long="--x"), short="-x").short = "-y"


@dataclass(frozen=True)
class _Cached:
    a: int

    @functools.cached_property
    def twice(self) -> int:
        return self.a * 2


@dataclass(frozen=True)
class _PostInit:
    a: int
    b: InitVar[int] = 0

    def __post_init__(self, b):
        object.__setattr__(self, "a", self.a + b)


def test_what_a_cached_property_kept_is_not_copied():
    first = _Cached(2)
    assert first.twice == 4
    assert replace(first, a=5).twice == 10


def test_a_class_that_needs_its_init_goes_through_it():
    assert replace(_PostInit(1, 2), a=5) == dataclasses.replace(_PostInit(1, 2), a=5)

    @dataclass
    class Mutable:
        a: int = 0

    assert replace(Mutable(1), a=3) == Mutable(3)
