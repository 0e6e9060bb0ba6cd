"""bwrap_argv's tmpfs HOME (``home_tmpfs``): each sandboxed probe's HOME is a fresh, sized tmpfs at the
scratch HOME's path instead of a directory made and removed on disk for it (pure: the argv only)."""

from __future__ import annotations

from wrapgen.probe.sandbox import HOME_TMPFS_BYTES, bwrap_argv


def _argv(**options):
    return bwrap_argv(
        ["/bin/tool", "--help"],
        bwrap="/usr/bin/bwrap",
        workdir="/s/work",
        home="/s/home",
        tmpdir="/s/tmp",
        hidden=(),
        **options,
    )


def test_a_tmpfs_home_is_mounted_sized_and_private_and_never_bound():
    argv = _argv(home_tmpfs=HOME_TMPFS_BYTES, home_source="/s/home-abc")
    at = argv.index("/s/home") - 1  # (after /tmp's and /run's tmpfs)
    assert argv.index("/run") < at
    assert argv[at - 4 : at + 2] == [
        "--perms",
        "0700",
        "--size",
        str(HOME_TMPFS_BYTES),
        "--tmpfs",
        "/s/home",
    ]
    assert "/s/home-abc" not in argv  # (home_source is not used)
    binds = [argv[i + 1 : i + 3] for i, word in enumerate(argv) if word == "--bind"]
    assert binds == [["/s/work", "/s/work"], ["/s/tmp", "/s/tmp"]]
    # the HOME mount comes before the remount of /tmp read-only (it lives under the scratch root there)
    assert at < argv.index("--remount-ro")
    assert argv[-3:] == ["--", "/bin/tool", "--help"]


def test_without_it_the_home_is_bound_as_before():
    argv = _argv(home_source="/s/home-abc")
    assert ["--bind", "/s/home-abc", "/s/home"] == argv[
        argv.index("/s/home-abc") - 1 : argv.index("/s/home-abc") + 2
    ]
    assert "--size" not in argv and "--perms" not in argv
    assert _argv(home_tmpfs=None) == _argv()


def test_the_size_is_modest():
    """Help needs no room in HOME: the bound keeps a tool that writes without end from pressing on memory."""
    assert 16 * 1024 * 1024 <= HOME_TMPFS_BYTES <= 1024 * 1024 * 1024
