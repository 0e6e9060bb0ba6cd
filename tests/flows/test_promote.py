"""PATH-wrap promotion: the allowlist stays the boundary; splits, warnings and the report."""

from __future__ import annotations

import pytest
import yaml

from wrapgen.errors import RecipeError
from wrapgen.flows.promote import (
    load_path_wrap,
    parse_path_wrap,
    plan_promotion,
    promotion_report,
    split_by_family,
)
from wrapgen.model.tool import Command, Flag, Positional, Tool


def _cmd(path, flags=(), subs=(), **kw):
    return Command(
        path=tuple(path.split()),
        flags=tuple(Flag(long=f"--{f}") for f in flags),
        subcommands=tuple(subs),
        **kw,
    )


TOOL = Tool(
    name="kc",
    root=Command(
        subcommands=(
            _cmd("get", ["selector", "output", "raw"], positionals=(Positional("type"),)),
            _cmd("logs", ["tail", "follow"]),
            _cmd("exec", ["stdin"]),
            _cmd(
                "rollout",
                subs=(_cmd("rollout status", ["watch"]), _cmd("rollout undo", ["to-revision"])),
            ),
        )
    ),
)


def _wrap(allowed, pack_id="kc"):
    return parse_path_wrap(
        yaml.safe_dump({"pack_id": pack_id, "wrap": {"bin": "kc", "allowedSubcommands": allowed}})
    )


def test_plan_keeps_the_allowlist_boundary():
    """Only allowed paths (and the leaves under an allowed group) become commands, in allowlist order."""
    plan = plan_promotion(_wrap(["logs", "rollout", "get"]), TOOL)
    assert plan.commands == (("logs",), ("rollout", "status"), ("rollout", "undo"), ("get",))
    assert plan.origin[("rollout", "undo")] == ("rollout",)
    assert all(r.commands is not None for r in plan.recipes())
    assert [s.path for s in plan.recipes()[0].commands] == list(plan.commands)


def test_missing_subcommand_is_reported_with_closest():
    """An allowed entry the tool lacks is reported by name, with the closest existing path."""
    plan = plan_promotion(_wrap(["get", "rollout stats", "nope"]), TOOL)
    assert [m.path for m in plan.missing] == [("rollout", "stats"), ("nope",)]
    assert plan.missing[0].closest == "rollout status"
    assert any(
        "`rollout stats` does not exist in kc" in w and "rollout status" in w for w in plan.warnings
    )
    assert plan.commands == (("get",),)


def test_mega_command_is_never_promoted():
    """`exec` in the allowlist is skipped with the docs/contract.md §13 reason."""
    plan = plan_promotion(_wrap(["exec", "get"]), TOOL)
    assert plan.commands == (("get",),)
    assert plan.skipped[0][0] == ("exec",) and "shell" in plan.skipped[0][1]


def test_fewer_than_five_warns_but_plans_one_pack():
    """Below 5 commands: one pack with what there is, and a warning saying so."""
    plan = plan_promotion(_wrap(["get", "logs"]), TOOL)
    assert len(plan.packs) == 1 and plan.packs[0][0] == "kc"
    assert any("only 2 commands" in w for w in plan.warnings)


def test_split_by_family_above_twelve():
    """Above 12: families stay whole where they fit; a too-big family is cut evenly; names say the family."""
    paths = [("config", str(i)) for i in range(14)] + [("get",), ("logs",)]
    packs = split_by_family(paths, pack_id="k")
    assert [(name, len(p)) for name, p in packs] == [("k-config", 7), ("k-config-2", 7), ("k-3", 2)]
    assert sum(len(p) for _, p in packs) == len(paths)
    small = split_by_family([("a",)] * 3, pack_id="k")
    assert small == (("k", (("a",),) * 3),)
    subs = tuple(_cmd(f"fam{i // 5} c{i}") for i in range(15))
    groups = tuple(
        _cmd(f"fam{g}", subs=tuple(s for s in subs if s.path[0] == f"fam{g}")) for g in range(3)
    )
    many = Tool(
        name="kc",
        root=Command(
            subcommands=tuple(
                _cmd(g.path[0], subs=tuple(_cmd(f"{g.path[0]} c{i}") for i in range(5)))
                for g in groups
            )
        ),
    )
    plan = plan_promotion(_wrap(["fam0", "fam1", "fam2"]), many)
    assert plan.split and [n for n, _ in plan.packs] == ["kc-1", "kc-fam2"]
    assert any("split by family into 2 packs" in w for w in plan.warnings)


def test_report_shows_reach_and_what_was_narrowed():
    """The report lists the old reach (every flag) and the flags no named command reaches any more."""
    plan = plan_promotion(_wrap(["get", "nope"]), TOOL)
    manifest = {
        "pack_id": "kc",
        "bin": "kc",
        "verbs": {
            "get": {
                "cli": ["kc", "get", "--selector={{selector}}", "--", "{{type}}"],
                "args": {"properties": {"type": {}, "selector": {}}},
                "policy": {"effect": "read"},
            }
        },
    }
    report = promotion_report(plan, TOOL, {"kc": manifest})
    assert "any of 3 flags" in report
    assert "| `get` | `--output`, `--raw` | `--selector` |" in report
    assert "`nope` | does not exist in kc" in report
    assert "type, selector" in report


@pytest.mark.parametrize(
    "text, needle, hint",
    [
        ("pack_id: k\n", "no `wrap:`", "allowedSubcommands"),
        ("pack_id: k\nwrap: {allowedSubcommands: [get]}\n", "wrap.bin", "kubectl"),
        ("pack_id: k\nwrap: {bin: kubectl, allowedSubcommand: [get]}\n", "missing", "did you mean"),
        (
            "pack_id: K\nwrap: {bin: kubectl, allowedSubcommands: [get]}\n",
            "not a valid pack id",
            "lower-case",
        ),
        (
            "pack_id: k\nwrap: {bin: kubectl, allowedSubcommands: []}\n",
            "non-empty list",
            "rollout status",
        ),
    ],
)
def test_bad_path_wrap_files(text, needle, hint):
    """A malformed PATH wrap is a RecipeError that names the problem and the fix."""
    with pytest.raises(RecipeError) as info:
        parse_path_wrap(text)
    assert needle in info.value.message and hint in info.value.hint


def test_load_path_wrap_missing_file(tmp_path):
    """A PATH-wrap path that does not exist is a clear error."""
    with pytest.raises(RecipeError, match="does not exist"):
        load_path_wrap(tmp_path / "nope.yaml")


def test_report_of_flags_spelled_neither_long_nor_short():
    """A tool whose flags are single-dash words (-json, -var) reports them; no None is sorted."""
    odd = Tool(
        name="tf",
        root=Command(
            subcommands=(
                Command(
                    path=("plan",),
                    flags=(Flag(aliases=("-json",)), Flag(aliases=("-var",), takes_value=True)),
                ),
            )
        ),
    )
    plan = plan_promotion(
        parse_path_wrap(
            yaml.safe_dump({"pack_id": "tf", "wrap": {"bin": "tf", "allowedSubcommands": ["plan"]}})
        ),
        odd,
    )
    manifest = {
        "pack_id": "tf",
        "bin": "tf",
        "verbs": {"plan": {"cli": ["tf", "plan", "-json"], "policy": {"effect": "read"}}},
    }
    report = promotion_report(plan, odd, {"tf": manifest})
    assert "any of 2 flags (`-json`, `-var`)" in report
    assert "| `plan` | `-var` | `-json` |" in report
