"""TPTP `include` against a hostile TPTP root, made in tmp_path (issue 37, cases 10-14): an include
DAG that would expand 4^16 times, a FIFO, a symbolic link to /dev/zero, a folder, bytes that are not
UTF-8, a formula over --max-chars, names that leave the root, and files whose content must never
appear in an error message."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from ambit.logic.syntax import tptp_problem
from ambit.logic.syntax.tptp_problem import Limits, TPTPProblemError, read_problem, read_problem_file
from tests.paths import REPO

SECRET = "TOPSECRET-hunter2-0123456789"
GOAL = "fof(g, conjecture, p).\n"


def _problem(*includes: str) -> str:
    return "".join(f"include('{name}').\n" for name in includes) + GOAL


def _refused(text: str, root: Path, match: str, **kw) -> str:
    with pytest.raises(TPTPProblemError, match=match) as err:
        read_problem(text, "p.p", root, **kw)
    return str(err.value)


def _no_leak(message: str) -> None:
    assert "TOPSECRET" not in message and "hunter2" not in message, message


@pytest.fixture()
def root(tmp_path: Path) -> Path:
    r = tmp_path / "root"
    (r / "Axioms").mkdir(parents=True)
    (r / "Axioms" / "ok.ax").write_text("fof(men, axiom, ![X]: (man(X) => mortal(X))).\n")
    return r


def test_an_include_dag_stops_at_the_include_limit_and_reads_each_file_once(root, monkeypatch):
    for i in range(16):  # f0 includes f1 four times, f1 includes f2 four times, ...: 4^16 if expanded
        body = "".join(f"include('f{i + 1}.ax').\n" for _ in range(4)) if i < 15 else ""
        (root / f"f{i}.ax").write_text(body + f"fof(a{i}, axiom, p{i}).\n")
    reads = []
    real = tptp_problem._read_bytes
    monkeypatch.setattr(tptp_problem, "_read_bytes", lambda path, *a, **k: reads.append(path) or real(path, *a, **k))
    msg = _refused(_problem("f0.ax"), root, r"more than 256 includes")
    assert str(root) in msg and len(reads) == len(set(reads)) <= 16  # a file included again is not read again
    # from f12 on, 1 + 4 + 16 + 64 includes (and as many premises): under the default, over a bound of 80
    assert len(read_problem(_problem("f12.ax"), "p.p", root).premises) == 1 + 4 + 16 + 64
    _refused(_problem("f12.ax"), root, r"more than 80 includes", limits=Limits(max_includes=80))


def test_nesting_depth_and_cycles_are_refused_naming_the_file(root):
    for i in range(20):
        (root / f"c{i}.ax").write_text(f"include('c{i + 1}.ax').\n" if i < 19 else "fof(end, axiom, q).\n")
    msg = _refused(_problem("c0.ax"), root, "nested deeper than 16")
    assert "c15.ax" in msg  # the file whose include went too deep
    (root / "a.ax").write_text("include('b.ax').\n")
    (root / "b.ax").write_text("include('a.ax').\n")
    _refused(_problem("a.ax"), root, r"an include cycle \(a.ax -> b.ax -> a.ax\)")


def test_total_bytes_are_bounded_repeats_counted(root):
    (root / "one.ax").write_text("fof(x, axiom, p).\n" * 60)  # 1,080 bytes
    text = _problem(*["one.ax"] * 50)
    assert len(read_problem(text, "p.p", root).premises) == 50 * 60
    msg = _refused(text, root, r"over the limit of 20,000", limits=Limits(max_bytes=20_000))
    assert "one.ax" in msg and "--tptp-max-bytes" in msg
    big = root / "big.ax"
    big.write_text("% padding\n" * 3000)  # 30 KB: refused before it is read
    _refused(_problem("big.ax"), root, r"30,000 bytes, over the", limits=Limits(max_bytes=20_000))


def test_only_regular_files_inside_the_root_are_opened(root, tmp_path):
    os.mkfifo(root / "fifo")
    (root / "zero").symlink_to("/dev/zero")
    (tmp_path / "outside.ax").write_text(f"fof(s, axiom, p). % {SECRET}\n")
    (root / "escape").symlink_to(tmp_path / "outside.ax")
    (root / "inside").symlink_to(root / "Axioms" / "ok.ax")  # a link that stays inside is fine
    (root / "loop").symlink_to(root / "loop")
    assert [n for n, _ in read_problem(_problem("inside"), "p.p", root).premises] == ["men"]
    _refused(_problem("fifo"), root, r"include\('fifo'\): .*fifo: a FIFO; only regular files are read")
    _refused(_problem("zero"), root, r"outside the TPTP root .*symbolic link leads out")
    _no_leak(_refused(_problem("escape"), root, r"outside the TPTP root"))
    _refused(_problem("Axioms"), root, r"a folder, not a file")
    _refused(_problem("loop"), root, r"include\('loop'\)")
    _refused(_problem("../outside.ax"), root, r"outside the TPTP root .*'\.\.'")
    _refused(_problem("Axioms/../Axioms/ok.ax"), root, r"outside the TPTP root .*'\.\.'")
    _refused(_problem(str(root / "Axioms" / "ok.ax")), root, r"outside the TPTP root .*an absolute name")
    _refused(_problem("missing.ax"), root, r"cannot be read: No such file")
    # with the device folder itself as the root, the device is inside it, and still refused
    _refused(_problem("zero"), Path("/dev"), r"/dev/zero: a character device; only regular files are read")


def test_bytes_that_are_not_utf8_are_an_error_with_file_line_and_byte(root, tmp_path):
    (root / "latin1.ax").write_bytes(b"fof(a, axiom, p).\nfof(b, axiom, caf\xe9).\n")
    msg = _refused(_problem("latin1.ax"), root, r"latin1.ax: not UTF-8 text \(line 2, byte 36: invalid continuation")
    assert "\\xe9" not in msg and "caf" not in msg
    problem = tmp_path / "p.p"
    problem.write_bytes(GOAL.encode() + b"% \xff\n")
    with pytest.raises(TPTPProblemError, match=r"p.p: not UTF-8 text \(line 2, byte 26: invalid start byte\)"):
        read_problem_file(problem)


def test_max_chars_holds_for_every_formula_of_every_file(root):
    long = " & ".join(["p"] * 5000)  # 19,997 characters
    (root / "long.ax").write_text(f"fof(long, axiom, {long}).\n")
    msg = _refused(_problem("long.ax"), root, r"long.ax:1: the formula of this statement has 19,997 characters, "
                                              r"over --max-chars 4096", max_chars=4096)
    assert "p & p" not in msg
    _refused(f"fof(long, conjecture, {long}).\n", root, r"fof\(long, conjecture, \.\.\.\) has 19,997 characters",
             max_chars=4096)
    assert read_problem(_problem("long.ax"), "p.p", root).premises  # no bound unless one is given


@pytest.mark.parametrize("content", [
    f"root:x:0:0:{SECRET}:/root:/bin/bash\n",  # /etc/passwd's shape
    f"{SECRET.lower().replace('-', '_')}(x).\n",  # looks like a statement of an unknown kind
    f"fof(a, axiom, p).\nfof({SECRET.lower().replace('-', '_')}, secret_role, p).\n",  # an unknown role
    f"fof(a, axiom, {SECRET.lower().replace('-', '_')}((.\n",  # a statement that does not end
    f"fof(a, axiom, p & & {SECRET.lower().replace('-', '_')}).\n",  # a formula that does not parse
    f"fof(a, axiom, p).\ninclude('{SECRET}').\n",  # an include that names a missing file
    f"fof(a, conjecture, p).\nfof({SECRET.lower().replace('-', '_')}, conjecture, q).\n",  # two conjectures
])
def test_no_error_quotes_an_included_file(root, content):
    (root / "passwd").write_text(content)
    with pytest.raises(TPTPProblemError) as err:
        read_problem(_problem("passwd"), "p.p", root)
    msg = str(err.value)
    _no_leak(msg)
    assert "passwd" in msg and content[:20] not in msg


def _cli(args: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ambit", "logic", "entails", "--from", "tptp", *args],
                          capture_output=True, text=True, cwd=REPO, timeout=120)


def test_the_command_answers_each_hostile_include_in_one_line(root, tmp_path):
    """No hang, no traceback, no MemoryError: exit 2 and one line naming the file."""
    os.mkfifo(root / "fifo")
    (root / "latin1.ax").write_bytes(b"fof(a, axiom, caf\xe9).\n")
    (root / "passwd").write_text(f"root:x:0:0:{SECRET}:/root:/bin/bash\n")
    (root / "long.ax").write_text(f"fof(long, axiom, {' & '.join(['p'] * 5000)}).\n")
    problem = tmp_path / "p.p"
    cases = [("fifo", str(root), "a FIFO"), ("zero", "/dev", "a character device"),
             ("latin1.ax", str(root), "not UTF-8 text (line 1, byte 18"), ("passwd", str(root), "passwd:1: expected a"),
             ("long.ax", str(root), "over --max-chars 4096")]
    for name, tptp_root, expected in cases:
        problem.write_text(_problem(name))
        r = _cli([str(problem), "--tptp-root", tptp_root])
        lines = r.stderr.strip().splitlines()
        assert r.returncode == 2 and len(lines) == 1 and expected in lines[0], (name, r.stderr)
        _no_leak(r.stderr + r.stdout)
    problem.write_text(f"fof(long, conjecture, {' & '.join(['p'] * 5000)}).\n")  # the problem file too
    r = _cli([str(problem)])
    assert r.returncode == 2 and "over --max-chars 4096" in r.stderr, r.stderr
