"""When trials leave a pack under 5 commands, wrap takes the proposer's next-ranked candidates (live).

kubectl's `diff` exits with its usage ("must specify -f"): its trial leaves it out. With a recipe that
excludes every family but explain, diff and config, the proposal holds exactly 5 commands, diff
among them, with more `config` commands waiting behind them (a family's reads are capped, and
low-ranked commands only fill a pack up to 5, or up to 6 reads within their families' caps). Once `diff` is left
out, wrap proposes again without it, the next candidate takes its place and is tried too, and the
summary and its `x-why` say what replaced what.
"""

from __future__ import annotations

import shutil

import pytest
from support.sandbox import sandbox_required  # noqa: F401 (autouse fixture: bwrap must run here)

KEEP = {"explain", "diff", "config"}


def _kubectl_recipe():
    from wrapgen.pack.recipe import Recipe
    from wrapgen.probe.discover import discover

    tool = discover("kubectl")
    exclude = tuple((c.path[0],) for c in tool.root.subcommands if c.path[0] not in KEEP)
    return Recipe(tool="kubectl", exclude=exclude)


def test_a_verb_its_trial_leaves_out_is_replaced_by_the_next_candidate(tmp_path, monkeypatch):
    if shutil.which("kubectl") is None:
        pytest.skip("kubectl is not installed")
    # the backfill is shown on the help rules' own pick (the usage table would pick other commands)
    monkeypatch.setenv("WRAPGEN_USAGE_EXCLUDE", "kubectl")
    from wrapgen.flows.trials import trial_lines
    from wrapgen.flows.wrap import wrap

    recipe = _kubectl_recipe()
    before = wrap("kubectl", recipe=recipe, out_dir=tmp_path, check=True, trials=False)
    assert "diff" in {d.path for d in before.proposal.chosen}
    assert len(before.proposal.chosen) == 5, [d.path for d in before.proposal.chosen]

    result = wrap("kubectl", recipe=recipe, out_dir=tmp_path, check=True, trials=True)
    chosen = {d.path: d for d in result.proposal.chosen}
    assert "diff" not in chosen
    assert len(chosen) >= 5, list(chosen)
    new = [
        d for d in result.proposal.chosen if d.path not in {x.path for x in before.proposal.chosen}
    ]
    assert new, "nothing took diff's place"
    replaced = dict(result.trials.replaced)
    assert "diff" in replaced.values(), result.trials.replaced
    name = next(n for n, p in result.trials.replaced if p == "diff")
    verb = result.proposal.manifest["verbs"][name]
    assert "added by wrap in place of 'diff', which its trial left out" in verb["x-why"]
    assert "in place of 'diff'" in chosen[next(d.path for d in new if d.name == name)].reason
    # the command left out says why and what replaced it; the summary says the same
    gone = next(d for d in result.proposal.decisions if d.path == "diff")
    assert (
        not gone.chosen
        and "lacks an operand" in gone.reason
        and f"replaced by '{name}'" in gone.reason
    )
    lines = trial_lines(result.trials)
    assert f"  backfill: {name} takes the place of 'diff', which its trial left out" in lines
    assert any(line.startswith("  diff: tried: it exits with its usage") for line in lines)
    # the replacement was tried as well (kubectl's reads reach no cluster in the sandbox: not a defect)
    assert result.trials.by_verb()[name].kind not in ("not-tried", "rendered")
    assert not result.errors


def test_no_backfill_when_the_commands_are_listed(tmp_path):
    """With --pick (a recipe's commands list) the commands are the person's: none is added."""
    if shutil.which("kubectl") is None:
        pytest.skip("kubectl is not installed")
    from wrapgen.flows.wrap import wrap

    result = wrap(
        "kubectl",
        picks=["explain", "diff", "config view"],
        out_dir=tmp_path,
        check=True,
        trials=True,
    )
    assert {d.path for d in result.proposal.chosen} == {"explain", "config view"}
    assert result.trials.replaced == ()


def test_a_silent_slow_start_is_tried_again_with_a_longer_timeout(tmp_path, monkeypatch):
    """A read that printed nothing by the timeout may only start slowly (pip on a loaded machine): it
    is tried once more with 3x the timeout. `sleep 2` at a 1 s timeout then finishes and stays;
    `sleep 60` is still running at 3 s and is long-running, an answer the trial cache then keeps
    (so the next wrap waits neither timeout out)."""
    from wrapgen.flows.trials import try_proposal
    from wrapgen.probe import trial
    from wrapgen.propose.core import Decision, Proposal

    monkeypatch.setenv("WRAPGEN_CACHE_DIR", str(tmp_path / "cache"))
    read = {"effect": "read", "confirm": False}
    manifest = {
        "pack_id": "sl",
        "description": "S.",
        "bin": "sleep",
        "json": False,
        "verbs": {
            "slow": {"description": "S.", "cli": ["sleep", "2"], "policy": read},
            "forever": {"description": "F.", "cli": ["sleep", "60"], "policy": read},
        },
    }
    decisions = (
        Decision("slow", "slow", True, "read", "picked"),
        Decision("forever", "forever", True, "read", "picked"),
    )
    proposal, report = try_proposal(
        Proposal(manifest, decisions), bin_path=shutil.which("sleep"), timeout_s=1.0
    )
    kinds = {item.verb: item.kind for item in report.evidence}
    assert kinds == {"slow": "ok", "forever": "long-running"}, report.evidence
    assert set(proposal.manifest["verbs"]) == {"slow"}
    spawned = []
    real = trial._one
    monkeypatch.setattr(trial, "_one", lambda *a, **k: spawned.append(a) or real(*a, **k))
    _, again = try_proposal(
        Proposal(manifest, decisions), bin_path=shutil.which("sleep"), timeout_s=1.0
    )
    assert {item.verb: item.kind for item in again.evidence} == kinds
    assert spawned == [], "the second wrap ran a trial the cache answers"


def _shell_reads(scripts: dict[str, str]):
    """A proposal of read verbs, each a shell script run by ``sh -c``."""
    from wrapgen.propose.core import Decision, Proposal

    read = {"effect": "read", "confirm": False}
    verbs = {
        name: {"description": "S.", "cli": ["sh", "-c", script], "policy": read}
        for name, script in scripts.items()
    }
    manifest = {"pack_id": "sh", "description": "S.", "bin": "sh", "json": False, "verbs": verbs}
    return Proposal(manifest, tuple(Decision(n, n, True, "read", "picked") for n in scripts))


def test_a_slow_read_that_printed_first_is_tried_again_and_kept(tmp_path, monkeypatch):
    """A read that printed a first line and kept working past the timeout (a package manager's
    search reading its index on a loaded machine) is tried once more with 3x the timeout, and the
    first timeout is not what the trial cache keeps: the longer try ran even though the first one
    had printed (the cache had answered it with the first, and the read was left out as streaming),
    and the next wrap is answered by the finished one."""
    from wrapgen.flows.trials import try_proposal
    from wrapgen.probe import trial

    monkeypatch.setenv("WRAPGEN_CACHE_DIR", str(tmp_path / "cache"))
    proposed = _shell_reads({"search": "echo reading the index; sleep 3; echo found"})
    proposal, report = try_proposal(proposed, bin_path=shutil.which("sh"), timeout_s=2.0)
    assert [item.kind for item in report.evidence] == ["ok"], report.evidence
    assert set(proposal.manifest["verbs"]) == {"search"}
    spawned = []
    real = trial._one
    monkeypatch.setattr(trial, "_one", lambda *a, **k: spawned.append(a) or real(*a, **k))
    _, again = try_proposal(proposed, bin_path=shutil.which("sh"), timeout_s=2.0)
    assert [item.kind for item in again.evidence] == ["ok"], again.evidence
    assert spawned == [], "the second wrap ran a trial the cache answers"


def test_the_longer_try_runs_though_the_first_was_kept_as_waiting_on_the_network(
    tmp_path, monkeypatch
):
    """A read that looked up a host (no network in the sandbox), said so on stderr and slept past
    the timeout was kept in the cache as waiting on the network; its longer second try shares that
    key and must run, not be answered by it: it finishes, and is what the cache then keeps."""
    from wrapgen.flows.trials import try_proposal
    from wrapgen.probe import trial

    monkeypatch.setenv("WRAPGEN_CACHE_DIR", str(tmp_path / "cache"))
    script = "echo checking for updates >&2; getent hosts example.com; sleep 4; echo done"
    proposed = _shell_reads({"status": script})
    spawned = []
    real = trial._one

    def one(*args, **kwargs):
        outcome = real(*args, **kwargs)
        if outcome.verb == "status":  # (not the run that learns the tool's own state)
            spawned.append(outcome)
        return outcome

    monkeypatch.setattr(trial, "_one", one)
    proposal, report = try_proposal(proposed, bin_path=shutil.which("sh"), timeout_s=2.0)
    assert spawned[0].timed_out and spawned[0].retrying_network, spawned[0]
    assert [item.kind for item in report.evidence] == ["ok"], report.evidence
    assert len(spawned) == 2, "the longer try was answered from the cache"
    _, again = try_proposal(proposed, bin_path=shutil.which("sh"), timeout_s=2.0)
    assert [item.kind for item in again.evidence] == ["ok"] and len(spawned) == 2


def _sleepers(tmp_path, seconds: list[int]):
    """A pack directory of reads that each sleep so many seconds, as check --try reads it."""
    from wrapgen.pack.manifest import dump_manifest

    read = {"effect": "read", "confirm": False}
    verbs = {
        f"r{i}": {"description": "R.", "cli": ["sleep", str(s)], "policy": read}
        for i, s in enumerate(seconds)
    }
    manifest = {"pack_id": "sl", "description": "S.", "bin": "sleep", "json": False, "verbs": verbs}
    pack = tmp_path / "sl"
    pack.mkdir()
    (pack / "pack.yaml").write_text(dump_manifest(manifest))
    return pack


def _audited(pack) -> list[str]:
    from wrapgen.flows.trials import try_pack_dirs

    [(_, report)] = try_pack_dirs([pack], timeout_s=1.0)
    return [item.kind for item in report.evidence]


def test_every_slow_start_is_tried_again_while_the_ones_tried_again_finish(tmp_path):
    """check --try: five reads that each start slowly (all of a slow tool's reads on a loaded
    machine): the longer tries go on, a few at a time, while every one finishes, so none is
    reported long-running (only the first few were tried again)."""
    assert _audited(_sleepers(tmp_path, [2] * 5)) == ["ok"] * 5


def test_a_round_of_longer_tries_with_one_still_running_is_the_last(tmp_path):
    """check --try: where a longer try is still running (a stream), the reads not yet tried again
    stay as their first try left them: a tool that streams costs one round of longer tries."""
    from wrapgen.flows import trial_steps

    first = [60] * trial_steps.SLOW_RETRIES
    assert _audited(_sleepers(tmp_path, [*first, 2])) == ["long-running"] * (len(first) + 1)


def test_a_busy_read_that_tried_the_network_and_printed_nothing_waits_on_it(tmp_path, monkeypatch):
    """At the longer try, a read that tried the network (no network in the sandbox) and printed no
    answer waits on it though its processes are at work meanwhile (a cloud client's self-updater):
    it could not be tried, and is kept; one at work that never tried the network is long-running."""
    from wrapgen.flows.trials import try_proposal

    monkeypatch.setenv("WRAPGEN_CACHE_DIR", str(tmp_path / "cache"))
    spin = "while :; do :; done"
    proposed = _shell_reads({"apps": f"getent hosts example.com; {spin}", "build": spin})
    proposal, report = try_proposal(proposed, bin_path=shutil.which("sh"), timeout_s=1.0)
    kinds = {item.verb: item.kind for item in report.evidence}
    assert kinds == {"apps": "unreachable", "build": "long-running"}, report.evidence
    assert set(proposal.manifest["verbs"]) == {"apps"}
