"""Per-student caps on a cgroup v2 machine under systemd (``Delegate=yes``): the hub's service cgroup holds
the hub itself, and cgroup v2 lets a cgroup that holds processes name no controller for its children.

This machine runs cgroup v1, so the kernel's two v2 rules that matter are played by a small fake of the
cgroup files (``FakeV2``): a write to ``cgroup.subtree_control`` fails with EBUSY while the cgroup holds
processes, and names only controllers the cgroup was given (``cgroup.controllers``); a pid written to a
child's ``cgroup.procs`` leaves the parent. What it shows is the order of :class:`Cgroup`'s steps, not
the kernel: the guide says the caps were tried on v1 only, and which log line to check.
"""

import errno

import pytest

from gametrees.classroom.isolation import Cgroup

SERVICE = "system.slice/gametrees-hub.service"


class FakeV2(Cgroup):
    """A :class:`Cgroup` whose writes meet the v2 rules on a folder laid out like /sys/fs/cgroup."""

    writes = []

    @staticmethod
    def _own(controller):
        return "/" + SERVICE if controller == "" else None

    @classmethod
    def _write(cls, path, text):
        cls.writes.append((path.parent.name, path.name, text))
        folder = path.parent
        if path.name == "cgroup.subtree_control":
            if (folder / "cgroup.procs").read_text().split():
                raise OSError(errno.EBUSY, "Device or resource busy")
            given = (folder / "cgroup.controllers").read_text().split()
            names = [word[1:] for word in text.split()]
            if not set(names) <= set(given):
                raise OSError(errno.ENOENT, "No such file or directory")
            path.write_text(" ".join(sorted(set(path.read_text().split()) | set(names))))
        elif path.name == "cgroup.procs":
            parent = folder.parent / "cgroup.procs"
            parent.write_text(" ".join(p for p in parent.read_text().split() if p != text))
            path.write_text(" ".join(path.read_text().split() + [text]) if path.exists() else text)


@pytest.fixture
def v2(tmp_path, monkeypatch):
    root = tmp_path / "cgroup"
    service = root / SERVICE
    service.mkdir(parents=True)
    (root / "cgroup.controllers").write_text("cpu memory pids io")
    (service / "cgroup.controllers").write_text("memory pids")    # Delegate=yes: given, not yet named
    (service / "cgroup.subtree_control").write_text("")
    (service / "cgroup.procs").write_text("101 102")              # the hub and its proxy
    monkeypatch.setattr(FakeV2, "ROOT", root)
    FakeV2.writes = []
    return service


def test_the_hubs_processes_move_to_a_leaf_before_the_controllers_are_named(v2):
    cap = FakeV2(2**30, 256)
    assert cap.active
    assert (v2 / "cgroup.subtree_control").read_text().split() == ["memory", "pids"]
    assert (v2 / "cgroup.procs").read_text().split() == []                  # no internal processes
    assert (v2 / Cgroup.LEAF / "cgroup.procs").read_text().split() == ["101", "102"]
    assert cap.dirs[0].parent == v2                                          # the student's, beside the leaf
    assert (cap.dirs[0] / "memory.max").read_text() == str(2**30)
    assert (cap.dirs[0] / "pids.max").read_text() == "256"
    first_try, *moves, second_try = FakeV2.writes
    assert first_try == second_try == (v2.name, "cgroup.subtree_control", "+memory +pids")
    assert moves == [(Cgroup.LEAF, "cgroup.procs", "101"), (Cgroup.LEAF, "cgroup.procs", "102")]


def test_the_next_student_finds_the_controllers_named(v2, monkeypatch):
    FakeV2(2**30, 256)
    # the hub now lives in the leaf: its own cgroup reads as the leaf, and nothing is moved again
    monkeypatch.setattr(FakeV2, "_own", staticmethod(lambda c: f"/{SERVICE}/{Cgroup.LEAF}"))
    FakeV2.writes = []
    cap = FakeV2(2**29, 128)
    assert cap.active and cap.dirs[0].parent == v2 and FakeV2.writes == []


def test_without_the_controllers_delegated_there_is_no_cgroup_and_nothing_moved(v2):
    (v2 / "cgroup.controllers").write_text("cpu")                            # Delegate= not set
    cap = FakeV2(2**30, 256)
    assert not cap.active                                                    # rlimits only (the log says so)
    assert (v2 / "cgroup.procs").read_text().split() == ["101", "102"]
    assert not (v2 / Cgroup.LEAF).exists()
