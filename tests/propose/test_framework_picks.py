"""What the frameworks' packs missed, as classes (issue 13's packs item), on small models whose
summaries are the real tools' own words (composer, poetry, npm, amtool, rclone, pm2):

- a command listing ("List commands") and a self-description ("Shows a short information about
  Composer") are help, never proposed; rclone's about ("Get quota information from the remote") is not;
- "Run a security audit" is what npm's audit does, a read; in "check-config" the config is the object;
- a pack with few reads keeps its low-ranked ones; validate, licenses, require, stop are common."""

from __future__ import annotations

from wrapgen.model.tool import Command, Tool
from wrapgen.propose import propose
from wrapgen.propose.policy import classify
from wrapgen.propose.select import Candidate, exclusion_reason


def _tool(name: str, commands: dict[str, str]) -> Tool:
    subs = tuple(
        Command(path=tuple(path.split()), summary=summary) for path, summary in commands.items()
    )
    families: dict[str, list[Command]] = {}
    top = []
    for sub in subs:
        if len(sub.path) == 1:
            top.append(sub)
        else:
            families.setdefault(sub.path[0], []).append(sub)
    top += [
        Command(path=(family,), summary=f"{family} commands", subcommands=tuple(members))
        for family, members in families.items()
    ]
    return Tool(name=name, root=Command(path=(), summary=f"{name}.", subcommands=tuple(top)))


def _verbs(tool: Tool) -> dict:
    """The help's rules alone (no usage evidence): what they pick where evidence is silent."""
    return propose(tool, usage=()).manifest["verbs"]


COMPOSER = {
    "about": "Shows a short information about Composer",
    "list": "List commands",
    "archive": "Creates an archive of this composer package",
    "audit": "Checks for security vulnerability advisories for installed packages",
    "bump": "Increases the lower limit of your composer.json requirements to the currently installed versions",
    "check-platform-reqs": "Check that platform requirements are satisfied",
    "clear-cache": "Clears composer's internal package cache",
    "depends": "Shows which packages cause the given package to be installed",
    "diagnose": "Diagnoses the system to identify common errors",
    "dump-autoload": "Dumps the autoloader",
    "init": "Creates a basic composer.json file in current directory",
    "install": "Installs the project dependencies from the composer.lock file if present, or falls back on the composer.json",
    "licenses": "Shows information about licenses of dependencies",
    "outdated": "Shows a list of installed packages that have updates available, including their latest version",
    "prohibits": "Shows which packages prevent the given package from being installed",
    "require": "Adds required packages to your composer.json and installs them",
    "search": "Searches for packages",
    "show": "Shows information about packages",
    "status": "Shows a list of locally modified packages",
    "suggests": "Shows package suggestions",
    "validate": "Validates a composer.json and composer.lock",
}


def test_a_command_listing_and_a_self_description_are_help():
    for path, summary in (
        ("list", "List commands"),
        ("list", "Lists commands."),
        ("about", "Shows information about Poetry."),
    ):
        cand = Candidate(path=(path,), command=Command(path=(path,), summary=summary))
        assert exclusion_reason(cand, "poetry") is not None, summary
    about = Candidate(
        path=("about",),
        command=Command(path=("about",), summary="Shows a short information about Composer"),
    )
    assert exclusion_reason(about, "/usr/bin/composer") == "about the tool itself"
    assert (
        exclusion_reason(about, "") is None
    )  # without the tool's name nothing says whose information it is
    rclone = Candidate(
        path=("about",),
        command=Command(path=("about",), summary="Get quota information from the remote."),
    )
    assert exclusion_reason(rclone, "rclone") is None
    listing = Candidate(
        path=("list",), command=Command(path=("list",), summary="List commands for a pod")
    )
    assert (
        exclusion_reason(listing, "t") is None
    )  # the whole summary must say it lists the commands
    pods = Candidate(path=("list",), command=Command(path=("list",), summary="List pods"))
    assert exclusion_reason(pods, "t") is None


def test_composer_pack_holds_what_a_php_developer_picks_first():
    verbs = _verbs(_tool("composer", COMPOSER))
    assert not {"list", "about"} & set(verbs)
    assert {"show", "outdated", "validate", "licenses", "audit", "depends", "require"} <= set(
        verbs
    ), sorted(verbs)
    assert verbs["require"]["policy"]["effect"] == "write"
    assert "init" not in verbs


def test_run_naming_the_command_itself_leaves_the_effect_to_the_name():
    audit = classify(Command(path=("audit",), summary="Run a security audit"))
    assert audit.effect == "read" and audit.words == ("name 'audit'",)
    assert (
        classify(
            Command(path=("exec",), summary="Run a command from a local or remote npm package")
        ).effect
        == "write"
    )
    assert (
        classify(Command(path=("test",), summary="Run the tests")).effect == "write"
    )  # nothing reads it as a read
    # executing a query runs the caller's SQL: "execute" never hands the effect to the name
    assert (
        classify(
            Command(path=("query",), summary="Executes given SQL query on a default dataSource.")
        ).effect
        == "write"
    )


def test_a_noun_part_of_a_hyphenated_name_is_its_object():
    guess = classify(Command(path=("check-config",), summary="Validate alertmanager config files"))
    assert guess.effect == "read"
    assert classify(Command(path=("set-config",), summary="")).effect == "write"
    assert (
        classify(Command(path=("fund",), summary="Retrieve funding information")).effect == "read"
    )


def test_a_tool_with_few_reads_keeps_its_low_ranked_reads():
    amtool = _tool(
        "amtool",
        {
            "alert query": "View and search through current alerts.",
            "alert add": "Add a new alert.",
            "silence query": "Query Alertmanager silences.",
            "silence add": "Add a new alertmanager silence",
            "silence expire": "expire an alertmanager silence",
            "cluster show": "View cluster status and peers.",
            "check-config": "Validate alertmanager config files",
            "config show": "View current config.",
            "template render": "Render a given definition in a template file to standard out",
        },
    )
    verbs = _verbs(amtool)
    assert {"config.show", "check-config", "alert.query", "silence.query"} <= set(verbs), sorted(
        verbs
    )


def test_a_process_manager_offers_stop_beside_restart():
    pm2 = _tool(
        "pm2",
        {
            "list": "list all processes",
            "describe": "describe all parameters of a process",
            "logs": "stream logs file",
            "restart": "restart a process",
            "stop": "stop a process",
            "trigger": "trigger process action",
            "scale": "scale up/down a process in cluster mode",
            "reset": "reset counters for process",
            "sendSignal": "send a system signal to the target process",
        },
    )
    verbs = _verbs(pm2)
    assert {"restart", "stop"} <= set(verbs), sorted(verbs)


def test_information_on_the_tools_objects_is_not_about_the_tool():
    inspect = Candidate(
        path=("inspect",),
        command=Command(
            path=("inspect",), summary="Return low-level information on Docker objects"
        ),
    )
    assert exclusion_reason(inspect, "docker") is None


def test_a_command_with_one_or_two_flags_of_its_own_offers_them():
    """amtool's config routes show has one flag, --config.file (the file whose routing tree it
    prints); no table says people reach for it, yet without it the verb could only ask a server."""
    from wrapgen.model.tool import Flag
    from wrapgen.propose.args import plan_args

    config_file = Flag(
        long="--config.file",
        takes_value=True,
        value_name="CONFIG.FILE",
        type="path",
        description="Config file to be tested.",
    )
    show = Command(
        path=("config", "routes", "show"), summary="Prints alert routing tree", flags=(config_file,)
    )
    assert set(plan_args(show, tool="amtool", effect="read", style="kingpin").properties) == {
        "config_file"
    }
    many = Command(
        path=("x",),
        summary="X.",
        flags=tuple(
            Flag(long=f"--opt{i}", takes_value=True, description=f"option {i}") for i in range(5)
        ),
    )
    assert plan_args(many, tool="t", effect="read", style="gnu").properties == {}


def test_verbs_joined_by_a_slash_each_count():
    guess = classify(
        Command(path=("config",), summary="get / set module config values")
    )  # pm2 config
    assert guess.effect == "write" and "help 'set'" in guess.reason
    assert classify(Command(path=("unit",), summary="enable/disable a unit")).effect == "write"


def test_a_read_named_config_alone_is_no_setup_but_its_family_and_writes_are():
    from wrapgen.propose.select import rank_score

    def score(path, effect, summary="X."):
        cand = Candidate(path=path, command=Command(path=path, summary=summary), depth=1)
        return rank_score(cand, effect, min_depth=1)

    # hugo config "Print the site configuration": what the tool works with, ranked as any read
    assert score(("config",), "read") == score(("settings",), "read")
    assert (
        score(("config",), "write") == score(("settings",), "write") - 3.0
    )  # composer config "Sets config options"
    assert (
        score(("config", "view"), "read") < score(("cluster", "view"), "read") - 2.9
    )  # kubectl config view
