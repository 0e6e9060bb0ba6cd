"""What a read may leave in its trial's scratch HOME or cwd (knowledge/data/trials.json ignored_paths):
empty configuration folders, a tool's own bookkeeping and project caches are no writes; a file
with the user's data in them still is. Paths as the trial's snapshot gives them (directories end in '/')."""

from __future__ import annotations

import pytest

from wrapgen.check.trial_evidence import classify, tagged_caches
from wrapgen.knowledge.trials import ignored_path
from wrapgen.model.trial import TrialOutcome

NOT_WRITES = [
    "home/.config/",
    "home/.config/rclone/",  # rclone, first run: an empty folder
    "home/.local/",
    "home/.local/share/",
    "home/.local/share/composer/",
    "home/.local/share/composer/.htaccess",
    "home/.config/composer/.htaccess",
    "home/.cache/composer/.htaccess",
    "home/.npm/",
    "home/.npm/_logs/",
    "home/.npm/_logs/2026-12-01T16_33_10_115Z-debug-0.log",
    "home/.npm/_update-notifier-last-checked",
    "home/.pm2/",
    "home/.pm2/logs/",
    "home/.pm2/pids/",
    "home/.pm2/rpc.sock",
    "home/.pm2/pm2.log",
    "work/.ruff_cache/",
    "work/.ruff_cache/0.6.0/123",
    "work/.mypy_cache/",
    "work/src/.mypy_cache/3.12/x.json",  # a cache below the working directory
    "work/.eslintcache",
    "work/node_modules/.cache/",
    "work/web/node_modules/.cache/babel/x",
    "work/.hg/cache/branch2-served",  # a version control tool's own cache folders
    "work/.hg/wcache/checkisexec",
    "work/__pycache__/",
    "work/tests/__pycache__/conftest.cpython-312.pyc",
    "work/.hypothesis/",
    "work/.hypothesis/examples/ab/cd",
]
WRITES = [
    "home/.config/rclone/rclone.conf",
    "home/.config/settings.json",
    "home/.config/tool/state.json",
    "home/.local/share/composer/auth.json",
    "home/.npm/_cacache/",
    "home/.pm2/dump.pm2",
    "work/out/",
    "work/cache.txt",
    "work/go.mod",
    "work/.config/",
    "work/src/cache.py",
    "work/pycache.txt",
    "work/.hg/store/data/a.i",
]


@pytest.mark.parametrize("path", NOT_WRITES)
def test_not_a_write(path):
    assert ignored_path(path)


@pytest.mark.parametrize("path", WRITES)
def test_still_a_write(path):
    assert not ignored_path(path)


def _outcome(*new, changed=()):
    return TrialOutcome(
        "check", ("tool", "check"), exit_code=0, stdout="ok\n", new_paths=new, changed_paths=changed
    )


def test_a_folder_tagged_with_cachedir_tag_is_a_cache():
    """A folder a read made and tagged CACHEDIR.TAG (the Cache Directory Tagging spec) is no write,
    whatever its name; a file beside it still is."""
    tagged = (
        "work/.lintstore/",
        "work/.lintstore/CACHEDIR.TAG",
        "work/.lintstore/v1/",
        "work/.lintstore/v1/r",
    )
    assert tagged_caches(_outcome(*tagged)) == ("work/.lintstore/",)
    assert classify(_outcome(*tagged)).kind == "ok"
    assert classify(_outcome(*tagged, "work/report.txt")).kind == "writes"
    assert "work/.lintstore" not in classify(_outcome(*tagged, "work/report.txt")).detail


def test_a_tag_in_the_working_directory_itself_marks_nothing():
    """CACHEDIR.TAG at the top of the scratch cwd would mark the user's own files: no cache."""
    outcome = _outcome("work/CACHEDIR.TAG", "work/out.txt")
    assert tagged_caches(outcome) == ()
    assert classify(outcome).kind == "writes"
