"""The environment the live tests run git in to build a repository: no system or user config of this
machine (HOME is the test's), and a fixed identity so that commits need no `git config user.*`."""

from __future__ import annotations

import os
from pathlib import Path

GIT_IDENTITY = {
    "GIT_AUTHOR_NAME": "a",
    "GIT_AUTHOR_EMAIL": "a@example.com",
    "GIT_COMMITTER_NAME": "a",
    "GIT_COMMITTER_EMAIL": "a@example.com",
}


def isolated_git_env(home: Path | str, *, identity: bool = True) -> dict[str, str]:
    """PATH, HOME (``home``), LANG and no system config; with ``identity`` the fixed author and committer."""
    env = {
        "PATH": os.environ["PATH"],
        "HOME": str(home),
        "LANG": "C.UTF-8",
        "GIT_CONFIG_NOSYSTEM": "1",
    }
    return {**env, **GIT_IDENTITY} if identity else env
