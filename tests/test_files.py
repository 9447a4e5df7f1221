"""Files written whole or not at all (gtsearch.files, docs/commands.md "Files written whole or
not at all"): every command's output file goes to a temporary file beside it and is renamed
over the old one only when whole; a full disk (a real 64 KiB tmpfs, and a file-size limit),
an error or Ctrl-C in the middle of a large write leave the old file as it was."""

from __future__ import annotations

import contextlib
import os
import resource
import signal
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from gtsearch.files import replacing, replacing_text, write_text_file

ROOT = Path(__file__).resolve().parent.parent
OLD = "the old file, as it was\n"


def leftovers(folder: Path) -> list[str]:
    """Temporary files left beside the targets."""
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def test_a_file_is_replaced_whole_with_its_mode(tmp_path: Path) -> None:
    target = tmp_path / "out.txt"
    target.write_text(OLD, encoding="utf-8")
    target.chmod(0o640)
    write_text_file(str(target), "new ✓\nline\n")
    assert target.read_bytes() == "new ✓\nline\n".encode()
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    fresh = tmp_path / "fresh.txt"
    write_text_file(str(fresh), "x")
    mask = os.umask(0)
    os.umask(mask)
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o666 & ~mask
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("error", [KeyboardInterrupt, ValueError, OSError])
def test_an_error_in_the_middle_leaves_the_old_file(tmp_path: Path, error: type) -> None:
    target = tmp_path / "out.txt"
    target.write_text(OLD, encoding="utf-8")
    with pytest.raises(error), replacing_text(str(target)) as f:
        f.write("half of the new text")
        raise error()
    assert target.read_text(encoding="utf-8") == OLD
    assert leftovers(tmp_path) == []


def test_a_link_is_followed_and_a_device_written_in_place(tmp_path: Path) -> None:
    real = tmp_path / "real.txt"
    real.write_text(OLD, encoding="utf-8")
    link = tmp_path / "link.txt"
    link.symlink_to(real)
    write_text_file(str(link), "through the link")
    assert link.is_symlink() and real.read_text(encoding="utf-8") == "through the link"
    with replacing(os.devnull) as f:  # a device is never renamed over
        f.write(b"nothing")
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)
    assert leftovers(tmp_path) == []


def test_a_missing_folder_is_an_os_error(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        write_text_file(str(tmp_path / "no" / "such.txt"), "x")


def gtsearch(*args: str, cwd: Path, **kwargs: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "gtsearch", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        **kwargs,  # type: ignore[call-overload]
    )


#: every command that writes a file, each asked for more than a full disk takes
WRITERS = {
    "gen": ["gen", "-b", "4", "-d", "7", "-o", "{out}"],
    "convert": ["convert", str(ROOT / "sample_trees" / "aima-fig5-2.yaml"), "-o", "{out}"],
    "exercise": ["exercise", "--count", "3", "-o", "{out}"],
    "experiment": ["experiment", "-b", "2", "-d", "2", "-n", "3", "-o", "{out}"],
    "schema": ["schema", "-o", "{out}"],
    "show": ["show", str(ROOT / "sample_trees" / "aima-fig5-2.yaml"), "--svg", "{out}"],
    "play": ["play", "nim:3", "--human", "none", "-o", "{out}"],
}


@contextlib.contextmanager
def full_tmpfs(folder: Path) -> Iterator[Path]:
    """A 64 KiB tmpfs mounted on ``folder`` holding the old file ``out.json``, then filled to
    the last block (root only: CI runs as root)."""
    folder.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(folder)], capture_output=True
    )
    if mounted.returncode != 0:
        pytest.fail(f"cannot mount a tmpfs: {mounted.stderr.decode().strip()}")
    try:
        (folder / "out.json").write_text(OLD, encoding="utf-8")
        with open(folder / "filler", "wb", buffering=0) as f, contextlib.suppress(OSError):
            while True:
                f.write(b"\0" * 4096)
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


@pytest.mark.skipif(os.geteuid() != 0, reason="mounting a tmpfs needs root (CI runs as root)")
@pytest.mark.parametrize("command", sorted(WRITERS))
def test_a_full_disk_leaves_the_old_file(tmp_path: Path, command: str) -> None:
    with full_tmpfs(tmp_path / "small") as small:
        out = small / "out.json"
        args = [a.replace("{out}", str(out)) for a in WRITERS[command]]
        r = gtsearch(*args, cwd=tmp_path)
        assert r.returncode == 2, (r.stdout, r.stderr)
        assert "Traceback" not in r.stderr
        assert "no space left on device" in r.stderr, r.stderr
        assert out.read_text(encoding="utf-8") == OLD
        assert leftovers(small) == []


def _limit_file_size() -> None:  # in the child: a file may not grow past 4 KiB
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))


@pytest.mark.parametrize("command", ["gen", "exercise", "experiment"])
def test_a_file_size_limit_leaves_the_old_file(tmp_path: Path, command: str) -> None:
    """The same with a limit on the size of a file (EFBIG), which needs no root."""
    out = tmp_path / "out.json"
    out.write_text(OLD, encoding="utf-8")
    args = [a.replace("{out}", str(out)) for a in WRITERS[command]]
    # not measured by coverage.py (CI's step 2), which writes its own data file at exit
    unmeasured = {k: v for k, v in os.environ.items() if k != "COVERAGE_PROCESS_CONFIG"}
    r = gtsearch(*args, cwd=tmp_path, preexec_fn=_limit_file_size, env=unmeasured)
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert "cannot write: file too large" in r.stderr and "Traceback" not in r.stderr
    assert out.read_text(encoding="utf-8") == OLD
    assert leftovers(tmp_path) == []


def test_ctrl_c_in_the_middle_of_a_large_write(tmp_path: Path) -> None:
    """SIGINT while gen writes millions of leaves: status 130, the old file as it was, the
    temporary file removed."""
    out = tmp_path / "big.json"
    out.write_text(OLD, encoding="utf-8")
    proc = subprocess.Popen(
        [sys.executable, "-m", "gtsearch", "gen", "-b", "4", "-d", "12", "-o", str(out)],
        cwd=tmp_path,
        stderr=subprocess.PIPE,
        text=True,
    )
    start = time.monotonic()
    while not any(p.stat().st_size > 100_000 for p in tmp_path.glob(".big.json.*.tmp")):
        assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
        assert time.monotonic() - start < 60
        time.sleep(0.02)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert err.strip() == "interrupted"
    assert out.read_text(encoding="utf-8") == OLD
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize(
    ("script", "expected"),
    [
        # a pipe: written in place, nothing to rename over
        ('"$GT" gen -b 2 -d 2 -o /dev/stdout | cat > out.txt', "[[16,-25],[73,-35]]\n"),
        # standard output appended to a file: the shell's >>, not a new file renamed over it
        (
            'echo first > out.txt; "$GT" gen -b 2 -d 2 -o /dev/stdout >> out.txt',
            "first\n[[16,-25],[73,-35]]\n",
        ),
        # a descriptor the shell opened, named through /dev/fd
        ('exec 3> out.txt; "$GT" gen -b 2 -d 1 -o /dev/fd/3', "[-83,-98]\n"),
        # a link to a file: the file replaced, the link kept
        (
            'echo old > real.txt; ln -s real.txt out.txt; "$GT" gen -b 2 -d 1 -o out.txt',
            "[-83,-98]\n",
        ),
    ],
)
def test_a_descriptor_or_a_pipe_is_written_in_place(
    tmp_path: Path, script: str, expected: str
) -> None:
    gt = f"{sys.executable} -m gtsearch"
    r = subprocess.run(
        ["sh", "-c", script.replace('"$GT"', gt)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 0 and r.stderr == "", r.stderr
    assert (tmp_path / "out.txt").read_text(encoding="utf-8") == expected
    assert leftovers(tmp_path) == []
