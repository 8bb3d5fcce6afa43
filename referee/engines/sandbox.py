"""Engines run under bubblewrap (Linux): other people's programs without the referee's rights.

``sandbox=bwrap`` wraps an engine's command in ``bwrap`` so that the engine

* has no network (``--unshare-all`` includes ``--unshare-net``: only a loopback of its own),
* has its own PID namespace and dies with the referee (``--unshare-pid``, ``--die-with-parent``):
  a child that leaves the engine's process group still dies with the namespace when the engine's
  process ends. It stays in the session and process group the referee started it in (no
  ``--new-session``: it has no controlling terminal anyway), so pausing the group while the engine
  waits for its turn (referee/engines/cpu.py) reaches every process inside,
* sees a private, empty /tmp, and read-only system directories (/usr and its /bin, /lib*
  links, the few files of /etc that programs read) plus the Python installation the referee
  runs on (engines are often Python programs),
* sees its own directory read-only (``writable=`` paths are bound read-write), the paths of
  ``readable=``, and nothing else: not the other engines, not the run directory, not home
  directories.

Memory and CPU limits still apply: the limit wrapper sets them and then execs ``bwrap``, and
resource limits are inherited by everything started inside.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

SANDBOXES = ("bwrap",)
SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
ETC_FILES = ("/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/alternatives",
             "/etc/localtime", "/etc/passwd", "/etc/group", "/etc/nsswitch.conf", "/etc/os-release")


class SandboxError(Exception):
    """The sandbox cannot be used here; the message says why and what to do."""


def check_available(kind: str) -> None:
    """Raise SandboxError unless `kind` can run engines on this machine (checked once per run)."""
    if kind not in SANDBOXES:
        raise SandboxError(f"unknown sandbox {kind!r} (known: {', '.join(SANDBOXES)})")
    if not sys.platform.startswith("linux"):
        raise SandboxError("sandbox=bwrap needs Linux")
    path = shutil.which("bwrap")
    if path is None:
        raise SandboxError("sandbox=bwrap: the bwrap program (bubblewrap) is not installed; "
                           "install it, e.g. apt-get install bubblewrap")
    try:
        done = subprocess.run([path, "--unshare-all", "--die-with-parent", "--ro-bind", "/", "/", "true"],
                              capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise SandboxError(f"sandbox=bwrap: bwrap cannot be run: {exc}") from None
    if done.returncode != 0:
        why = (done.stderr or done.stdout).strip().splitlines()
        raise SandboxError(f"sandbox=bwrap: bwrap does not work here ({why[-1] if why else 'exit ' + str(done.returncode)}); "
                           "it needs unprivileged user namespaces (kernel.unprivileged_userns_clone=1) "
                           "or a setuid bwrap")


def _python_roots() -> list[str]:
    """The installation of the Python running the referee (prefix and base prefix), unless in /usr."""
    roots: list[str] = []
    for prefix in (sys.base_prefix, sys.prefix):
        if prefix and prefix not in roots and not _inside(prefix, "/usr"):
            roots.append(prefix)
    return roots


def _bind_system(args: list[str]) -> None:
    for path in SYSTEM_DIRS:
        if os.path.islink(path):
            args += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            args += ["--ro-bind", path, path]
    for path in ETC_FILES:
        if os.path.exists(path):
            args += ["--ro-bind", path, path]


def bwrap_argv(cmd: list[str], cwd: str | None, writable: list[str] | tuple[str, ...] = (),
               readable: list[str] | tuple[str, ...] = ()) -> list[str]:
    """The bwrap command line that runs `cmd` in `cwd` (absolute paths) inside the sandbox."""
    bwrap = shutil.which("bwrap") or "bwrap"
    args = [bwrap, "--unshare-all", "--die-with-parent",
            "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"]
    _bind_system(args)
    for root in _python_roots():
        args += ["--ro-bind", root, root]
    program = shutil.which(cmd[0], path=os.environ.get("PATH")) if "/" not in cmd[0] else None
    if program is None and "/" in cmd[0]:
        program = str(Path(cwd or ".", cmd[0]).resolve()) if not os.path.isabs(cmd[0]) else cmd[0]
    visible = [*SYSTEM_DIRS, *_python_roots()]
    if program and os.path.exists(program) and not any(_inside(program, v) for v in visible):
        args += ["--ro-bind", program, program]
    home = os.path.abspath(cwd) if cwd else None
    if home is not None:
        args += ["--ro-bind", home, home]
    for path in readable:
        full = os.path.abspath(path)
        args += ["--ro-bind", full, full]
    for path in writable:
        full = os.path.abspath(path)
        args += ["--bind", full, full]
    args += ["--setenv", "HOME", home or "/tmp", "--setenv", "TMPDIR", "/tmp"]
    if home is not None:
        args += ["--chdir", home]
    return [*args, "--", *cmd]


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip("/") + "/")
