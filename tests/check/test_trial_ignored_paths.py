"""What a read may leave in its trial's scratch HOME or cwd (knowledge/data/trials.json ignored_paths):
empty configuration folders, a tool's own bookkeeping and project caches are no writes; a file
with the user's data in them still is. Paths as the trial's snapshot gives them (directories end in '/')."""

from __future__ import annotations

import pytest

from wrapgen.knowledge.trials import ignored_path

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
]


@pytest.mark.parametrize("path", NOT_WRITES)
def test_not_a_write(path):
    assert ignored_path(path)


@pytest.mark.parametrize("path", WRITES)
def test_still_a_write(path):
    assert not ignored_path(path)
