"""Keep the saved state of a notebook's widgets when JupyterLab saves it again.

A Jupyter server extension with one pre-save hook. JupyterLab's widget manager (with
``saveState``) writes the state of the widgets into the notebook's metadata on every save,
but only of the widgets whose kernel is alive: a notebook reopened without running its cells
shows its widgets from the saved state, and the next save (Ctrl+S, or autosave: the reopened
tab is marked modified) writes the metadata without them. Reopened again, every widget says
"Error displaying widget: model not found" (jupyter-widgets/ipywidgets#3270, fix proposed in
#4015, not released).

:func:`keep_saved_widget_state` runs before the server writes a notebook: for every widget an
output of the notebook still shows whose state the new metadata lacks, it copies that state,
and the state of every widget inside it, from the file being replaced. Widgets whose output
was cleared or replaced are not kept, so the metadata does not grow. Nothing else is changed.

Installed with the lessons' JupyterLab settings (``pip install ./jupyterlab-settings``), which
enable it in ``etc/jupyter/jupyter_server_config.d/gametrees_widget_state.json``. It imports only
the standard library (the server loads it at start-up).

Examples
--------
>>> old = {"cells": [], "metadata": {"widgets": {STATE_MIME: {"version_major": 2, "version_minor": 0,
...        "state": {"a": {"state": {"children": ["IPY_MODEL_b"]}}, "b": {"state": {}},
...                  "c": {"state": {}}}}}}}
>>> new = {"cells": [{"cell_type": "code", "outputs": [{"data": {VIEW_MIME: {"model_id": "a"}}}]}],
...        "metadata": {"widgets": {STATE_MIME: {"version_major": 2, "version_minor": 0, "state": {}}}}}
>>> merge_saved_state(new, old)
['a', 'b']
>>> sorted(new["metadata"]["widgets"][STATE_MIME]["state"])
['a', 'b']
"""

from __future__ import annotations

import json
import os
import re

__all__ = ["STATE_MIME", "VIEW_MIME", "keep_saved_widget_state", "merge_saved_state"]

VIEW_MIME = "application/vnd.jupyter.widget-view+json"
STATE_MIME = "application/vnd.jupyter.widget-state+json"

# How a widget's state names another widget (a Box's children, a Play linked to a slider...).
_REFERENCE = re.compile(r"IPY_MODEL_([0-9A-Za-z_-]+)")


def _shown(nb: dict) -> list[str]:
    """The model ids of the widgets the notebook's outputs show, in order."""
    ids = []
    for cell in nb.get("cells", []):
        for output in cell.get("outputs", []) if isinstance(cell, dict) else []:
            data = output.get("data") if isinstance(output, dict) else None
            view = data.get(VIEW_MIME) if isinstance(data, dict) else None
            if isinstance(view, dict) and isinstance(view.get("model_id"), str) and view["model_id"]:
                ids.append(view["model_id"])
    return ids


def _state(nb: dict) -> dict:
    widgets = nb.get("metadata", {}).get("widgets", {})
    state = widgets.get(STATE_MIME, {}).get("state", {}) if isinstance(widgets, dict) else {}
    return state if isinstance(state, dict) else {}


def merge_saved_state(new: dict, old: dict) -> list[str]:
    """Copy into ``new`` (a notebook about to be saved) the widget state it lacks from ``old``.

    Copied: the widgets that ``new``'s outputs show, the widgets inside them, and the widgets
    that name one of those (a link between a Play and a slider); a state that ``new`` holds
    already is never replaced. Returns the model ids copied.
    """
    have, saved = _state(new), _state(old)
    refs = {m: _REFERENCE.findall(json.dumps(s.get("state", {}) if isinstance(s, dict) else {}))
            for m, s in saved.items()}
    copied: dict[str, None] = {}  # in order

    def copy(todo):
        while todo:
            model = todo.pop()
            if model in have or model in copied or model not in saved:
                continue  # written by the front end (a live widget), done, or nothing saved to keep
            copied[model] = None
            todo.extend(reversed(refs[model]))

    copy(list(reversed(_shown(new))))
    while links := [m for m in saved
                    if m not in have and m not in copied and any(r in copied for r in refs[m])]:
        copy(links[::-1])
    if copied:
        metadata = new.setdefault("metadata", {})
        widgets = metadata.get("widgets")
        if not isinstance(widgets, dict):
            widgets = metadata["widgets"] = {}
        entry = widgets.get(STATE_MIME)
        if not isinstance(entry, dict):
            old_entry = old["metadata"]["widgets"][STATE_MIME]
            entry = widgets[STATE_MIME] = {"version_major": old_entry.get("version_major", 2),
                                           "version_minor": old_entry.get("version_minor", 0)}
        state = entry.get("state")
        if not isinstance(state, dict):
            state = entry["state"] = {}
        for model in copied:
            state[model] = saved[model]
    return list(copied)


def keep_saved_widget_state(model: dict, path: str, contents_manager, **kwargs) -> None:
    """The pre-save hook: :func:`merge_saved_state` from the file that the save replaces.

    Does nothing for a file that is not a notebook, a notebook saved under a new name, or a
    contents manager that does not keep files on disk (no ``root_dir``).
    """
    if model.get("type") != "notebook" or not isinstance(model.get("content"), dict):
        return
    root = getattr(contents_manager, "root_dir", None)
    if not root or not _shown(model["content"]):
        return
    os_path = os.path.join(root, *path.strip("/").split("/"))
    try:
        with open(os_path, encoding="utf-8") as f:
            old = json.load(f)
    except (OSError, ValueError):
        return  # a new file, or not JSON: nothing saved to keep
    if not isinstance(old, dict):
        return
    copied = merge_saved_state(model["content"], old)
    if copied:
        contents_manager.log.info("gametrees: kept the saved state of %d widgets in %s "
                                  "(shown, but not live in this session)", len(copied), path)


def _jupyter_server_extension_points():
    return [{"module": "gametrees_widget_state"}]


def _load_jupyter_server_extension(serverapp) -> None:
    serverapp.contents_manager.register_pre_save_hook(keep_saved_widget_state)
