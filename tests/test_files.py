"""The one file layer (ambit._files): no link followed at any component, only regular files read,
under a byte limit, atomic writes through a random temporary name, lock files never written through
a link, secrets of one line, JSONL under a line cap, JSON with depth and integer bounds."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

import pytest

from ambit import _files as F
from tests.helpers import races


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    (tmp_path / "a" / "b").mkdir(parents=True)
    (tmp_path / "a" / "b" / "f.txt").write_bytes(b"hello\n")
    (tmp_path / "victim").write_bytes(b"precious\n")
    return tmp_path


def test_reads_a_regular_file_under_a_limit(tree: Path) -> None:
    assert F.read_text(tree / "a" / "b" / "f.txt") == "hello\n"
    with pytest.raises(F.FileError, match="larger than 3 bytes"):
        F.read_bytes(tree / "a" / "b" / "f.txt", limit=3)


@pytest.mark.parametrize("where", ["middle", "last"])
def test_no_link_is_followed_at_any_component(tree: Path, where: str) -> None:
    if where == "middle":
        (tree / "link").symlink_to(tree / "a")
        path = tree / "link" / "b" / "f.txt"
    else:
        (tree / "link").symlink_to(tree / "a" / "b" / "f.txt")
        path = tree / "link"
    with pytest.raises(F.FileError, match="link is a symbolic link"):
        F.read_bytes(path)


def test_devices_fifos_and_folders_are_refused(tree: Path) -> None:
    os.mkfifo(tree / "fifo")
    for path, kind in [("/dev/zero", "a device"), (tree / "fifo", "a FIFO"), (tree / "a", "a folder")]:
        with pytest.raises(F.FileError, match=f"is {kind}, not a regular file"):
            F.read_bytes(path)
    with pytest.raises(FileNotFoundError, match="no such file"):
        F.read_bytes(tree / "missing")


def test_root_walk_keeps_links_inside_the_root(tree: Path) -> None:
    root = tree / "a"
    (root / "inside").symlink_to(root / "b" / "f.txt")
    (root / "rel").symlink_to("b/f.txt")
    (root / "out").symlink_to(tree / "victim")
    (root / "up").symlink_to("../victim")
    assert F.read_text("inside", root=root) == F.read_text("rel", root=root) == "hello\n"
    for name in ["out", "up", "../victim"]:
        with pytest.raises(F.FileError, match="out of its root folder"):
            F.read_bytes(name, root=root)
    with pytest.raises(F.FileError, match="absolute path"):
        F.read_bytes(tree / "victim", root=root)


def test_root_walk_holds_against_a_folder_swapped_for_a_link(tree: Path) -> None:
    """The race of a TPTP include: a middle folder swapped for a link to outside the root while
    reads go on; every read gives the file inside the root or an error, never the outside file."""
    root = tree / "root"
    (root / "d").mkdir(parents=True)
    (root / "d" / "f").write_bytes(b"inside")
    (tree / "evil").mkdir()
    (tree / "evil" / "f").write_bytes(b"outside")
    seen = races.swap_while_reading(root / "d", tree / "evil", lambda: F.read_bytes("d/f", root=root).decode())
    assert "outside" not in seen, seen
    assert seen["inside"] > 0 and seen["refused"] > 0, seen


def test_a_link_that_changes_between_its_stat_and_its_readlink_is_a_file_error(tree: Path, monkeypatch) -> None:
    """The race's other window: a component is a link when the walk looks at it and a folder again
    (or gone) when it reads the link; a FileError naming it, never a bare OSError."""
    root = tree / "root"
    root.mkdir()
    (root / "d").symlink_to(tree / "a")
    for code in (errno.EINVAL, errno.ENOENT):
        def gone(*_a, code=code, **_k):
            raise OSError(code, os.strerror(code))
        monkeypatch.setattr(F.os, "readlink", gone)
        with pytest.raises(F.FileError, match=f"'d' changed while it was being read \\({os.strerror(code)}\\)"):
            F.read_bytes("d/b/f.txt", root=root)


def test_write_atomic_replaces_a_link_and_never_writes_through_it(tree: Path) -> None:
    out = tree / "out"
    out.mkdir()
    (out / "run.json").symlink_to(tree / "victim")
    (out / "run.tmp").symlink_to(tree / "victim")
    F.write_atomic(out / "run.json", '{"a": 1}\n')
    assert (tree / "victim").read_bytes() == b"precious\n"
    assert not (out / "run.json").is_symlink() and (out / "run.json").read_text() == '{"a": 1}\n'
    assert stat.S_IMODE((out / "run.json").stat().st_mode) == 0o600
    assert sorted(p.name for p in out.iterdir()) == ["run.json", "run.tmp"]  # no temporary file left


def test_lock_and_append_refuse_links_fifos_and_hard_links(tree: Path) -> None:
    (tree / "lock").symlink_to(tree / "victim")
    with pytest.raises(F.FileError, match="symbolic link"):
        F.open_lock(tree / "lock")
    os.link(tree / "victim", tree / "hard")
    with pytest.raises(F.FileError, match="2 hard links"):
        F.open_append(tree / "hard")
    os.mkfifo(tree / "fifo")
    with pytest.raises(F.FileError, match="a FIFO"):
        F.open_lock(tree / "fifo")  # refused at once, not waited on
    assert (tree / "victim").read_bytes() == b"precious\n"
    fd = F.open_lock(tree / "new.lock")
    os.close(fd)
    assert stat.S_IMODE((tree / "new.lock").stat().st_mode) == 0o600


def test_ensure_dir_refuses_a_file_and_a_dangling_link(tree: Path) -> None:
    assert F.ensure_dir(tree / "x" / "y").is_dir()
    with pytest.raises(F.FileError, match="not a folder"):
        F.ensure_dir(tree / "a" / "b" / "f.txt")
    (tree / "dangling").symlink_to(tree / "nowhere")
    with pytest.raises(F.FileError, match="symbolic link"):
        F.ensure_dir(tree / "dangling")
    assert not (tree / "nowhere").exists()


def test_read_secret_is_one_line_of_a_small_regular_file(tree: Path) -> None:
    (tree / "key").write_text("  sk-abc \n")
    assert F.read_secret(tree / "key") == "sk-abc"
    (tree / "two").write_text("# the key\n\n  a \nb\n")
    assert F.read_secret(tree / "two") == "a"  # the first line that is not blank or a comment
    (tree / "empty").write_text("\n# nothing\n")
    (tree / "big").write_bytes(b"x" * (F.SECRET_LIMIT + 1))
    (tree / "latin").write_bytes(b"\xe9t\xe9\n")
    for name, why in [("empty", "empty"), ("big", "larger than"), ("latin", "not UTF-8")]:
        with pytest.raises(F.FileError, match=why):
            F.read_secret(tree / name)
    with pytest.raises(F.FileError, match="a device"):
        F.read_secret("/dev/zero")


def test_jsonl_lines_are_capped_and_the_rest_kept(tree: Path) -> None:
    path = tree / "r.jsonl"
    path.write_bytes(b'{"a": 1}\n' + b"x" * 5000 + b"\n\xff\n" + b'{"b": 2}')
    lines = list(F.iter_jsonl_lines(path, max_line=1000))
    assert [(line.number, line.problem is None, line.ended) for line in lines] == [
        (1, True, True), (2, False, True), (3, False, True), (4, True, False)]
    assert "longer than 1,000 bytes" in lines[1].problem and len(lines[1].raw) <= 200
    assert "not UTF-8" in lines[2].problem
    assert lines[3].text == '{"b": 2}'


@pytest.mark.parametrize("text, why", [
    ("[" * 5000 + "]" * 5000, "nested deeper"),
    ("[" * 70 + "]" * 70, "nested deeper than 64"),
    ('{"n": ' + "1" * 5000 + "}", "integer of 5,000 digits"),
    ("[1,\n2,]", "line 2: not JSON"),
    ("NaN", "NaN is not JSON"),
])
def test_parse_json_bounds_name_file_and_line(text: str, why: str) -> None:
    with pytest.raises(F.LineError, match=why) as err:
        F.parse_json(text, where="t.jsonl")
    assert str(err.value).startswith("t.jsonl: line ")
