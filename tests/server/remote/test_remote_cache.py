"""The response cache holds data only: a tampered entry (a pickle, bytes, bad JSON, a wrong size,
another key's row, a deep or huge-integer JSON) is a miss and a warning, never run; a link or a
damaged database in the cache folder is a warning and no cache; nothing outside the folder is
opened or removed; an old diskcache folder is not read."""

from __future__ import annotations

import logging
import os
import pickle  # noqa: S403 - builds the hostile payload only; ambit itself never unpickles
import sqlite3
from pathlib import Path

import pytest

from ambit.server.remote.cache import DB_NAME, ResponseCache, request_key

KEY = request_key("http://x", "m", "/completions", {"prompt": "p"})
ANSWER = {"choices": [{"text": "p"}]}


class _Boom:
    def __reduce__(self):
        return (os.system, ("touch /tmp/ambit-cache-pwned",))


def _rows(root: Path, sql: str, *args) -> None:
    db = sqlite3.connect(root / DB_NAME)
    db.execute(sql, args)
    db.commit()
    db.close()


@pytest.mark.parametrize("value, size, why", [
    (pickle.dumps(_Boom()), None, "not JSON text"),
    ("{not json", None, "not JSON"),
    ('[1, 2]', None, "not an object"),
    ('{"a": ' + "1" * 5000 + "}", None, "integer of 5,000 digits"),
    ('{"a": ' + "[" * 5000 + "]" * 5000 + "}", None, "nested deeper"),
    ('{"a": 1}', 3, "recorded size"),
])
def test_a_tampered_entry_is_a_miss_and_a_warning(tmp_path, caplog, value, size, why):
    cache = ResponseCache(tmp_path, 10**6)
    cache.put(KEY, ANSWER)
    assert cache.get(KEY) == ANSWER
    real = size if size is not None else len(value) if isinstance(value, bytes) else len(value.encode())
    _rows(tmp_path, "UPDATE entries SET value = ?, size = ? WHERE key = ?", value, real, KEY)
    with caplog.at_level(logging.WARNING, logger="ambit.server.remote"):
        assert cache.get(KEY) is None
    assert why in caplog.text and len(cache) == 0  # the row is gone
    assert not Path("/tmp/ambit-cache-pwned").exists()
    cache.close()


def test_a_row_under_another_key_is_not_served(tmp_path, caplog):
    cache = ResponseCache(tmp_path, 10**6)
    other = request_key("http://x", "m", "/completions", {"prompt": "q"})
    cache.put(other, ANSWER)
    _rows(tmp_path, "UPDATE entries SET key = ? WHERE key = ?", "../../victim", other)
    assert cache.get("../../victim") is None and cache.get(other) is None
    cache.close()


def test_links_and_a_damaged_database_mean_no_cache_and_nothing_outside_touched(tmp_path, caplog):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    folder = tmp_path / "c1"
    folder.mkdir()
    (folder / DB_NAME).symlink_to(victim)
    (tmp_path / "c2").symlink_to(folder)
    (tmp_path / "c3").mkdir()
    (tmp_path / "c3" / DB_NAME).write_bytes(b"this is not a database" * 100)
    with caplog.at_level(logging.WARNING, logger="ambit.server.remote"):
        for root in ("c1", "c2", "c3"):
            cache = ResponseCache(tmp_path / root, 10**6)
            cache.put(KEY, ANSWER)
            assert cache.get(KEY) is None and len(cache) == 0
            cache.close()
    assert caplog.text.count("not used") == 3
    assert victim.read_text() == "precious\n" and (folder / DB_NAME).is_symlink()


def test_an_old_diskcache_folder_is_neither_read_nor_removed(tmp_path):
    (tmp_path / "cache.db").write_bytes(b"old")
    (tmp_path / "ab").mkdir()
    (tmp_path / "ab" / "cd.val").write_bytes(pickle.dumps(_Boom()))
    cache = ResponseCache(tmp_path, 10**6)
    assert cache.get(KEY) is None
    cache.put(KEY, ANSWER)
    assert cache.get(KEY) == ANSWER
    cache.close()
    assert (tmp_path / "cache.db").read_bytes() == b"old" and (tmp_path / "ab" / "cd.val").exists()


def test_closed_cache_opens_again_and_keeps_its_entries(tmp_path):
    cache = ResponseCache(tmp_path / "new" / "cache", 10**6)
    cache.put(KEY, ANSWER)
    cache.close()
    assert cache.get(KEY) == ANSWER and cache.keys() == [KEY] and cache.volume() > 0
    cache.close()
    assert (tmp_path / "new" / "cache").stat().st_mode & 0o777 == 0o700  # a new cache folder is the user's only
