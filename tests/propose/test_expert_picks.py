"""Picks as an expert would (issue 11, item 3), on captured help of real tools and small models.

The flags a tool's own examples use, inherited scope flags (cobra), read-only forms of writes
(--check, --diff), a tool's bare job, and what is never offered: servers, listeners, live streams,
login/authorize flows, self-update, streaming follow flags, docs and completion generators.
"""

from __future__ import annotations

from support.propose import checked, tar_from_fixture

from conftest import FIXTURES
from wrapgen.model.tool import Command, Flag, Positional, Tool
from wrapgen.parse import parse_help
from wrapgen.propose import propose
from wrapgen.propose.args import MAX_ARGS_SINGLE, flag_noise, plan_args
from wrapgen.propose.select import Candidate, bare_job, exclusion_reason, preview_modes


def _fixture_tool(style: str, name: str) -> Tool:
    text = (FIXTURES / "help" / style / f"{name}.txt").read_text()
    return Tool(name=name, root=parse_help(text, prog=(name,), style=style))


def _verb(manifest: dict, name: str) -> dict:
    assert name in manifest["verbs"], sorted(manifest["verbs"])
    return manifest["verbs"][name]


# -- flags the examples use ---------------------------------------------------------------------


def test_tar_list_keeps_the_verbose_flag_its_example_uses():
    """tar's help shows `tar -tvf archive.tar`: the list verb offers -v although 'verbose' is noise."""
    proposal = propose(tar_from_fixture())
    props = _verb(proposal.manifest, "list")["args"]["properties"]
    assert "verbose" in props and "file" in props
    assert checked(proposal.manifest) == []


def test_example_words_that_are_whole_flags_are_not_bundles():
    """find's `-name core` is the flag -name, not -n -a -m -e."""
    from wrapgen.propose.args import example_spellings

    used = example_spellings(["find /tmp -name core -type f"], frozenset({"-name", "-type"}))
    assert {"-name", "-type"} <= used and "-n" not in used
    assert {"-t", "-v", "-f"} <= example_spellings(["tar -tvf a.tar"])


def test_single_dash_long_flags_shown_in_examples_are_offered():
    root = Command(
        usage=("find [path...] [expression]",),
        parser="man",
        examples=("find . -name '*.py' -type f", "find / -maxdepth 1"),
        positionals=(Positional(name="path", variadic=True, type="path"),),
        flags=tuple(
            Flag(long=f"-{n}", takes_value=True, description=f"tests {n}")
            for n in ("amin", "anewer", "atime", "name", "type", "maxdepth", "perm", "uid")
        ),
    )
    plan = plan_args(root, tool="find", effect="read", style="man", max_args=5)
    assert {"name", "type", "maxdepth"} <= set(plan.properties)


def test_cobra_scope_flags_inherited_from_the_root_are_offered():
    """kubectl get --namespace, restic --repo: a global flag that scopes the command, where cobra parses it after."""
    scope = Flag(
        long="--namespace", short="-n", takes_value=True, description="the namespace scope"
    )
    other = Flag(long="--kubeconfig", takes_value=True, description="path to the kubeconfig file")
    command = Command(
        path=("get",),
        parser="cobra",
        global_flags=(scope, other),
        positionals=(Positional(name="TYPE"),),
    )
    assert (
        "namespace" in plan_args(command, tool="kubectl", effect="read", style="cobra").properties
    )
    assert (
        "kubeconfig"
        not in plan_args(command, tool="kubectl", effect="read", style="cobra").properties
    )
    # where the style does not say global flags may follow the command, they are not offered
    assert "namespace" not in plan_args(command, tool="x", effect="read", style="git").properties


def test_git_log_offers_the_one_line_history():
    """git-log(1) lists --oneline after some forty ways to select commits, and its EXAMPLES never use
    it: the one-line history still ranks among the twelve args of a command that rich (an agent reads
    it in a tenth of the tokens), beside the author, grep, since and path an expert asks for too."""
    from wrapgen.propose.args import RICH_COMMAND_FLAGS

    log = parse_help(
        (FIXTURES / "help" / "man" / "git_log.txt").read_text(), prog=("git", "log"), style="man"
    )
    assert len(log.flags) >= RICH_COMMAND_FLAGS
    plan = plan_args(log, tool="git", effect="read", style="man", max_args=MAX_ARGS_SINGLE)
    assert {"oneline", "max_count", "author", "grep", "since", "paths", "revision_range"} <= set(
        plan.properties
    )


# -- never offered ------------------------------------------------------------------------------


def test_streaming_follow_flags_are_noise_and_redirect_following_is_not():
    assert flag_noise(
        Flag(long="--follow", short="-f", description="Specify if the logs should be streamed.")
    )
    assert flag_noise(
        Flag(long="--follow", short="-f", description="output appended data as the file grows")
    )
    assert flag_noise(Flag(long="--follow", description="Follow redirects")) is None


def _excluded(path: tuple[str, ...], summary: str) -> str | None:
    return exclusion_reason(Candidate(path=path, command=Command(path=path, summary=summary)))


def test_servers_listeners_streams_logins_and_self_update_are_never_proposed():
    assert "long-running" in _excluded(("server",), "Run the language server")
    assert "long-running" in _excluded(("events",), "Get real time events from the server")
    assert "long-running" in _excluded(
        ("stats",), "Display a live stream of container(s) resource usage statistics"
    )
    assert "long-running" in _excluded(
        ("rcd",), "Run rclone listening to remote control commands only"
    )
    assert "long-running" in _excluded(
        ("mount",), "Mount the remote as file system on a mountpoint."
    )
    assert "long-running" in _excluded(("mount",), "Mount the repository")
    assert _excluded(("mountinfo",), "Show where the remote is mounted") is None
    assert "login" in _excluded(("authorize",), "Remote authorization.")
    assert _excluded(("selfupdate",), "Update the rclone binary.") == "self-update"
    assert _excluded(("self", "update"), "Update uv.") == "self-update"
    assert _excluded(("gendocs",), "Output markdown docs for rclone to the directory supplied.")
    assert (
        _excluded(("genautocomplete", "bash"), "Output bash completion script for rclone.")
        == "shell completion"
    )
    for path, summary in (
        (("ps",), "List containers"),
        (("logs",), "Fetch the logs of a container"),
        (("check",), "Checks the files in the source and destination match."),
    ):
        assert _excluded(path, summary) is None, path


def _npm_page(name: str) -> Command:
    return parse_help(
        (FIXTURES / "help" / "npm" / f"npm_{name}.txt").read_text(), prog=("npm", name), style="npm"
    )


def test_a_full_screen_terminal_interface_is_never_proposed():
    """A monitor drawn with termcap or curses, a TUI, a dashboard it launches: a call would get a
    screen of escape codes or never return. A command that only links to a dashboard, or shows
    a monitor's settings, is no such thing."""
    for summary in (
        "launch termcaps monitoring",
        "Start the curses interface",
        "Open the TUI",
        "launch dashboard with monitoring and logs",
        "Show the queue in a full-screen view",
    ):
        assert "full-screen" in (_excluded(("board",), summary) or ""), summary
    assert _excluded(("link",), "link with the monitoring dashboard") is None
    assert _excluded(("config",), "Show the monitor's settings") is None


def test_a_command_that_hands_a_command_after_a_double_dash_is_never_proposed():
    """npm's `explore <pkg> [ -- <command>]` runs the command in a shell it spawns: a forwarded
    command line (captured help). `restart [-- <args>]` runs the package's own script, and the
    arguments it may pass on are optional: it is proposed, without them. git's `[--] <path>...`
    hands on nothing but paths."""
    explore = _npm_page("explore")
    assert "mega-command" in exclusion_reason(Candidate(path=("explore",), command=explore))
    restart = _npm_page("restart")
    assert exclusion_reason(Candidate(path=("restart",), command=restart)) is None
    log = parse_help(
        (FIXTURES / "help" / "man" / "git_log.txt").read_text(), prog=("git", "log"), style="man"
    )
    assert any("[--] " in line for line in log.usage)
    assert exclusion_reason(Candidate(path=("log",), command=log)) is None


def _page(style: str, name: str) -> Command:
    text = (FIXTURES / "help" / style / f"{name}.txt").read_text()
    return parse_help(text, prog=tuple(name.split("_")), style=style)


def test_a_run_is_proposed_where_its_usage_runs_what_the_tool_defines():
    """A command named `run` runs a given command line in some tools and the project's own program,
    tests or hooks in others; the usage line tells them apart (captured help). `cargo run [ARGS]...`
    and `cargo test [TESTNAME] [-- [ARGS]...]` pass optional arguments to the program they build;
    `docker run IMAGE [COMMAND] [ARG...]` and `uv run [COMMAND]` run the command they are given; a
    `run` whose usage is unknown stays out."""
    for style, name in (("clap", "cargo_run"), ("clap", "cargo_test")):
        page = _page(style, name)
        path = page.path[-1:] or (name.split("_")[-1],)
        assert exclusion_reason(Candidate(path=path, command=page)) is None, name
    for style, name in (("cobra", "docker_run"), ("clap", "uv_run")):
        page = _page(style, name)
        assert "mega-command" in exclusion_reason(Candidate(path=("run",), command=page)), name
    assert "mega-command" in exclusion_reason(Candidate(path=("run",), command=Command()))
    required = Command(path=("run",), usage=("tool run [options] [--] <args>...",))
    assert "mega-command" in exclusion_reason(Candidate(path=("run",), command=required))


def test_a_run_of_the_projects_own_program_is_offered_without_the_arguments_it_passes_on():
    """cargo's run and test proposed from captured help: the verbs run with no forwarded list
    (their `[ARGS]` is left out of the args) and no `--`, and check passes them."""
    run, test = _page("clap", "cargo_run"), _page("clap", "cargo_test")
    root = Command(path=(), subcommands=(run, test))
    proposal = propose(Tool(name="cargo", root=root))
    verbs = proposal.manifest["verbs"]
    assert {"run", "test"} <= set(verbs), sorted(verbs)
    for name in ("run", "test"):
        assert "args" not in verbs[name]["args"]["properties"], verbs[name]["args"]["properties"]
        assert "--" not in verbs[name]["cli"], verbs[name]["cli"]
    assert checked(proposal.manifest) == []


def test_commands_that_run_a_program_they_download_or_daemonize_are_never_proposed():
    """yarn v1's create runs a create-* starter kit's program; pm2's start daemonizes the app it is
    given (their summaries, as their help prints them). pm2's restart and startup are no such thing."""
    assert "mega-command" in _excluded(
        ("create",), "Creates new projects from any create-* starter kits."
    )
    assert "mega-command" in _excluded(("start",), "start and daemonize an app")
    assert _excluded(("restart",), "restart a process") is None
    assert _excluded(("create",), "Create a new issue") is None


def test_npm_adduser_is_a_login_flow():
    """npm's adduser is its login under the older name (captured help: "Add a registry user account")."""
    assert (
        exclusion_reason(Candidate(path=("adduser",), command=_npm_page("adduser")))
        == "interactive: a login flow"
    )


def test_of_commands_with_one_summary_the_one_it_names_or_people_use_is_proposed():
    """npm lists `ll` (the --long form) before `ls`, both "List installed packages": `ls` is proposed.
    pm2's `create` repeats the summary of `pid` ("return pid of [app_name] or all"): `pid` is kept."""

    def sub(name: str, summary: str) -> Command:
        return Command(
            path=(name,),
            summary=summary,
            stub=False,
            positionals=(Positional(name="name"),) if name in ("view", "pid") else (),
        )

    listed = [
        sub("ll", "List installed packages"),
        sub("ls", "List installed packages"),
        sub("outdated", "Check for outdated packages"),
        sub("view", "View registry info"),
        sub("create", "return pid of [app_name] or all"),
        sub("pid", "return pid of [app_name] or all"),
        sub("prefix", "Display prefix"),
        sub("root", "Display npm root"),
        sub("whoami", "Display npm username"),
    ]
    tool = Tool(name="pkgtool", root=Command(subcommands=tuple(listed), parser="npm"))
    proposal = propose(tool)
    verbs = set(proposal.manifest["verbs"])
    assert {"ls", "outdated", "view", "pid"} <= verbs and not {"ll", "create"} & verbs, verbs
    said = {d.path: d.reason for d in proposal.decisions}
    assert said["ll"] == "same as 'ls' (list installed packages)"
    assert said["create"].startswith("same as 'pid'")


# -- read-only forms of writes and the bare job ------------------------------------------------


def test_black_check_and_diff_are_read_commands_of_their_own():
    """black's --check ("Don't write the files back, just return the status") and --diff are reads."""
    proposal = propose(_fixture_tool("click", "black"))
    verbs = proposal.manifest["verbs"]
    reads = {name: v for name, v in verbs.items() if v["policy"]["effect"] == "read"}
    clis = {name: v["cli"] for name, v in reads.items()}
    assert any("--check" in cli for cli in clis.values()), clis
    assert any("--diff" in cli for cli in clis.values()), clis
    assert checked(proposal.manifest) == []


def test_preview_modes_only_for_writes_with_a_no_write_switch():
    write = Command(
        path=("format",),
        summary="Format files",
        flags=(
            Flag(
                long="--check",
                description="Avoid writing any formatted files back; instead, exit non-zero",
            ),
            Flag(
                long="--line-length", takes_value=True, description="How many characters per line"
            ),
        ),
    )
    modes = preview_modes(Candidate(path=("format",), command=write), "write")
    assert [m.fixed for m in modes] == [("--check",)] and modes[0].name == "format.check"
    assert preview_modes(Candidate(path=("format",), command=write), "read") == ()


def test_hugo_builds_the_site_bare_as_its_own_verb():
    """hugo's help: "hugo is the main command, used to build your Hugo site" and `hugo [flags]`."""
    tool = _fixture_tool("cobra", "hugo")
    cand = bare_job(tool.root, bin="hugo")
    assert cand is not None and cand.name == "build" and cand.path == ()
    verbs = propose(tool).manifest["verbs"]
    assert "build" in verbs and verbs["build"]["cli"][:1] == ["hugo"]
    assert not any(token in ("server", "serve") for v in verbs.values() for token in v["cli"][1:2])


def test_a_tool_that_does_not_say_what_it_does_bare_gets_no_bare_verb():
    assert bare_job(_fixture_tool("cobra", "gh").root, bin="gh") is None
    assert bare_job(_fixture_tool("cobra", "kubectl").root, bin="kubectl") is None
    # the job named by the summary has a command of its own: that one is proposed instead
    root = Command(
        summary="tool is the main command, used to sync files.",
        usage=("tool [flags]", "tool [command]"),
        flags=(Flag(long="--dry-run"),),
        subcommands=(Command(path=("sync",), summary="Sync files"),),
    )
    assert bare_job(root, bin="tool") is None


def test_a_family_that_does_nothing_bare_does_not_make_its_members_deep():
    """kubectl top has no flags of its own (only --help): `top pod` ranks as a first-level command."""
    from wrapgen.propose.sources import tree_candidates as _tree_candidates

    top = Command(
        path=("top",),
        usage=("kubectl top [flags] [options]",),
        flags=(Flag(long="--help"),),
        subcommands=(Command(path=("top", "pod"), summary="Display resource usage of pods"),),
    )
    create = Command(
        path=("create",),
        usage=("kubectl create -f FILENAME",),
        flags=(Flag(long="--filename"),),
        subcommands=(Command(path=("create", "job"), summary="Create a job"),),
    )
    cands = {c.path: c for c in _tree_candidates(Command(subcommands=(top, create)))}
    assert ("top",) not in cands  # bare `kubectl top` prints help
    assert cands[("top", "pod")].depth == 1
    assert cands[("create",)].depth == 1 and cands[("create", "job")].depth == 2


def test_a_help_only_tool_of_long_options_no_table_knows_offers_them_in_the_helps_order():
    """A tool without subcommands that no evidence names, whose options are long words no table of
    flags people reach for knows (a message bus daemon's --session, --system, --print-pid): its one
    command offers them in the help's order, up to its cap, instead of no args at all."""
    names = ["session", "system", "print-address", "print-pid", "introspect", "nopidfile"]
    flags = tuple(Flag(long=f"--{n}", description=f"Use the {n} setting.") for n in names)
    root = Command(path=(), summary="Run the bus.", usage=("wgbus [options]",), flags=flags)
    verbs = propose(Tool(name="wgbus", root=root)).manifest["verbs"]
    (main,) = verbs.values()
    assert list(main["args"]["properties"]) == [n.replace("-", "_") for n in names]


def test_a_command_that_prints_a_credential_is_never_proposed():
    """An access or auth token, a secret or private key printed by a call would land in a model's
    context and its host's logs. Listing keys or tokens by name, or a password store's own show,
    is no such command."""
    for path, summary in (
        (("auth", "print-access-token"), "print an access token for the specified account"),
        (("auth", "token"), "Print the auth token the tool is configured to use"),
        (("export",), "Export the secret keys of the keyring"),
        (("key", "dump"), "Output the private key in PEM"),
    ):
        assert _excluded(path, summary) == "prints a credential", summary
    assert _excluded(("keys", "list"), "list secret keys") is None
    assert _excluded(("token", "list"), "List the API tokens of the account by name") is None
    assert _excluded(("show",), "Show existing password") is None


def test_a_version_command_about_the_project_is_a_command_of_its_own():
    """`version` prints the tool's own version in most tools and is left out; where its summary
    speaks of the project or package the tool works on ("View or set a project's version", "Bump a
    package version"), it is a command people run."""
    assert _excluded(("version",), "View or set a project's version.") is None
    assert _excluded(("version",), "Bump a package version") is None
    assert _excluded(("version",), "Print the version number of the site generator") == "version"
    assert _excluded(("version",), "Show the version information") == "version"
    # only the command's own word: a family named like one stays out
    assert _excluded(("version", "show"), "Show the project's version") == "version"


def test_a_command_whose_description_says_it_hosts_a_local_server_is_left_out():
    """ "Run & test functions locally as a HTTP API" says it only in its description: "it will
    create a local HTTP\\nserver hosting all of the functions". A command whose description speaks
    of a server it talks to is not kept out."""
    from wrapgen.model.proposal import Candidate
    from wrapgen.propose.select import exclusion_reason

    def reason(description: str) -> str | None:
        path = ("local", "start-api")
        command = Command(
            path=path,
            summary="Run & test functions locally as a HTTP API.",
            description=description,
        )
        return exclusion_reason(Candidate(path=path, command=command))

    assert "long-running" in reason("In a project, it will create a local HTTP\nserver hosting it.")
    assert reason("Sends the event to the deployed function through the HTTP server.") is None


def test_a_topics_command_named_by_its_whole_path_is_judged_by_its_last_word():
    """oclif and yargs tools name a topic's commands "auth:login", "migration:run": a login flow
    is a login whatever its topic; a command whose last word is none of the kind stays."""
    assert "login" in _excluded(("auth", "auth:login"), "login with your credentials")
    assert "login" in _excluded(("auth:logout",), "clears local login credentials")
    assert _excluded(("migration:run",), "Runs all pending migrations.") is None


def test_a_family_word_naming_a_resource_keeps_its_commands_in():
    """`server` run alone serves until stopped; as the family of `server list` it names the thing a
    cloud client lists (knowledge commands.json family_resources). A family word that is a plugin
    manager or an unstable group still keeps every command under it out."""
    assert "long-running" in _excluded(("server",), "Run the development server")
    assert _excluded(("server", "list"), "List servers") is None
    assert _excluded(("console", "url", "show"), "Show server's remote console URL") is None
    assert "plugin" in _excluded(("plugin", "list"), "List installed plugins")
    assert "alpha" in _excluded(("alpha", "list"), "List things")


def test_a_command_whose_usage_needs_a_command_word_it_lists_none_of_is_no_verb():
    """`celery inspect [OPTIONS] COMMAND` with no commands listed: run as a verb it always lacks
    its COMMAND and fails; left out with the reason. A group listing its commands, a bracketed
    `[COMMAND]` and a stub (nothing read yet) are not."""

    def why(usage: tuple[str, ...], **changes) -> str | None:
        command = Command(path=("inspect",), summary="Inspect the workers", usage=usage, **changes)
        return exclusion_reason(Candidate(path=("inspect",), command=command))

    assert "COMMAND" in why(("celery inspect [OPTIONS] COMMAND",))
    assert "COMMAND" in why(("tool inspect <command>",))
    assert why(("tool inspect [COMMAND]",)) is None
    assert why(("tool inspect [OPTIONS] NAME",)) is None
    listed = (Command(path=("inspect", "active"), stub=True),)
    assert why(("celery inspect [OPTIONS] COMMAND",), subcommands=listed) is None
    assert why(("celery inspect [OPTIONS] COMMAND",), stub=True) is None


def test_a_summary_that_opens_by_starting_a_worker_scheduler_or_daemon_is_long_running():
    """A task queue's `worker` ("Start worker instance") and `beat` ("Start the beat periodic task
    scheduler") run in the foreground until stopped; starting a stopped container, a cluster, or
    showing a worker's status does not."""
    assert "long-running" in _excluded(("worker",), "Start worker instance.")
    assert "long-running" in _excluded(("beat",), "Start the beat periodic task scheduler.")
    assert _excluded(("start",), "Start one or more stopped containers") is None
    assert _excluded(("up",), "Starts a local Kubernetes cluster") is None
    assert _excluded(("status",), "Show worker status") is None
    # a session that tails a log streams until stopped
    assert "long-running" in _excluded(("tail",), "Start a log tailing session for a Worker")
    assert _excluded(("sessions",), "Show session info") is None


def test_a_command_that_runs_a_one_off_process_or_command_is_a_mega_command():
    """A PaaS's `run` ("run a one-off process inside a dyno": its usage shows no command, which
    follows all the same) and a compose tool's `run` ("Run a one-off command on a service")."""
    assert "mega-command" in _excluded(("foo",), "run a one-off process inside a heroku dyno")
    assert "mega-command" in _excluded(("foo",), "Run a one-off command on a service.")
    assert _excluded(("foo",), "Run the process manager status") is None
    assert _excluded(("foo",), "Run a binary or example of the local package") is None


def test_retired_and_flush_flags_are_noise_a_plain_one_is_not():
    """'Do not use', obsolete and deprecated flags are never offered, nor one that only says when
    the output is flushed (a call hands its output over when the tool ends)."""
    assert flag_noise(Flag(long="--argfile", description="Do not use. Use --slurpfile instead."))
    assert flag_noise(Flag(long="--old", description="Obsolete; kept for compatibility"))
    assert flag_noise(Flag(long="--unbuffered", description="Flush the output after each object"))
    assert flag_noise(Flag(long="--use", description="The module to use")) is None


def test_a_filter_s_verbs_offer_no_retired_flag_from_its_man_page():
    """jq's man page: its verbs fill their room with its flags, never '--argfile' (Do not use) nor
    '--unbuffered' (when output is flushed), while other flags are."""
    root = parse_help((FIXTURES / "help" / "man" / "jq.txt").read_text(), prog=("jq",), style="man")
    verbs = propose(Tool(name="jq", root=root)).manifest["verbs"]
    offered = {word for verb in verbs.values() for word in verb["cli"]}
    assert not {w for w in offered if w.startswith(("--argfile", "--unbuffered"))}
    assert len({w for w in offered if w.startswith("-") and w != "--"}) >= 3


def test_about_itself_and_placeholder_spellings_are_never_offered():
    """'-V  Print version and exit' says nothing of the tool's job; '-Gname=val  Set graph attribute
    'name' to 'val'' is -G glued to a name of the caller's, not a flag spelled -Gname."""
    assert flag_noise(Flag(short="-V", description="Print version and exit"))
    assert flag_noise(Flag(short="-Gname", description="Set graph attribute 'name' to 'val'"))
    assert flag_noise(Flag(short="-T", description="Set output format to 'v'")) is None
    chart = Flag(long="--release", takes_value=True, description="Show the version of the chart")
    assert flag_noise(chart) is None


def test_a_graph_filter_s_verbs_offer_its_format_not_its_version_or_patterns():
    """dot's captured help (-V, -Gname=val, -Tv ...): its verbs offer -T and other flags, never -V
    nor a spelling with a placeholder in it."""
    root = parse_help((FIXTURES / "help" / "gnu" / "dot.txt").read_text(), prog=("dot",))
    verbs = propose(Tool(name="dot", root=root)).manifest["verbs"]
    offered = {word for verb in verbs.values() for word in verb["cli"]}
    assert "-T" in offered
    assert not offered & {"-V", "-Gname", "-Nname", "-Ename"}


def test_a_flag_that_opens_an_inspector_is_noise():
    """'--inspect-config  Open the config inspector with the current configuration' serves a page
    for a person until stopped; a call gets no answer."""
    inspector = "Open the config inspector with the current configuration"
    assert flag_noise(Flag(long="--inspect-config", description=inspector))
    assert flag_noise(Flag(long="--print-config", description="Print the configuration")) is None
