"""The course as a static website, and the notebooks as stored for readers without a kernel.

``readers``   :func:`for_readers`: a notebook without widget views or widget state
"""
