"""Notebooks stored for readers: what a page shows where no kernel drives the widgets.

A widget's output holds a widget view (``application/vnd.jupyter.widget-view+json``)
beside what can be shown without it: the replay's kernel-free player
(``text/html``, :mod:`gametrees.widgets.player`), a widget's picture
(``image/png``) and a line of text. Where a kernel runs, JupyterLab shows the
live widget. Everywhere else the widget view does harm: nbconvert, Jupyter
Book and other exporters choose it whenever the notebook holds widget state,
then cannot load a widget manager offline and show nothing (or, online, draw
controls that move without effect); JupyterLab, on a notebook saved after only
some cells were run, says "Error displaying widget: model not found" for the
widget views whose state was not saved.

:func:`for_readers` removes the widget views and the saved widget state, so
that every reader gets the player or the picture. The notebooks in the
repository are stored this way; re-run one with::

    jupyter nbconvert --to notebook --execute --inplace \\
        --Exporter.preprocessors=gametrees.site.readers.ForReaders notebooks/03_alpha_beta.ipynb

(:class:`ForReaders` runs after the execution, which saves widget state). A
learner's own save in JupyterLab keeps the widget state, on every save (the
lessons' settings and their server extension, ``jupyterlab-settings/``), so the
notebook they reopen shows the widgets they ran with their pictures.

This module may import nbformat and nbconvert; it knows nothing of game trees.
"""

from __future__ import annotations

from nbconvert.preprocessors import Preprocessor

__all__ = ["WIDGET_STATE", "WIDGET_VIEW", "ForReaders", "for_readers"]

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"


def for_readers(nb):
    """Remove the widget state and every widget view from a notebook, in place; return it.

    Each widget output keeps its other representations (player, picture,
    text); one that has nothing but a line of text (a progress bar, a
    widget without a picture) is left out. The notebook's own file is not
    touched: save it yourself.

    Examples
    --------
    >>> import nbformat
    >>> nb = nbformat.v4.new_notebook(metadata={"widgets": {WIDGET_STATE: {"state": {}}}})
    >>> out = nbformat.v4.new_output("display_data", data={WIDGET_VIEW: {"model_id": "1"},
    ...                                                    "image/png": "iVBO", "text/plain": "Replay(...)"})
    >>> bar = nbformat.v4.new_output("display_data", data={WIDGET_VIEW: {"model_id": "2"},
    ...                                                    "text/plain": "games: 40%"})
    >>> nb.cells.append(nbformat.v4.new_code_cell("gt.replay(r)", outputs=[out, bar]))
    >>> nb = for_readers(nb)
    >>> "widgets" in nb.metadata, [sorted(o.data) for o in nb.cells[0].outputs]
    (False, [['image/png', 'text/plain']])
    """
    nb.metadata.pop("widgets", None)
    for cell in nb.cells:
        if "outputs" not in cell:
            continue
        kept = []
        for output in cell.outputs:
            data = output.get("data")
            if data is not None and data.pop(WIDGET_VIEW, None) is not None and set(data) <= {"text/plain"}:
                continue  # a widget with nothing to show without a kernel (a progress bar): left out
            kept.append(output)
        cell.outputs = kept
    return nb


class ForReaders(Preprocessor):
    """nbconvert preprocessor: :func:`for_readers` on the notebook being converted."""

    def preprocess(self, nb, resources):
        return for_readers(nb), resources
