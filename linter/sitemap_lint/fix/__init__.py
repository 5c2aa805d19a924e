"""Automatic fixes: the edits findings carry, applying them, writing files safely,
diffs, and splitting a sitemap that is over the limits.

``model`` (the edit and fix values) is light and imported by ``finding``; the rest is
imported only by a run that fixes (``--fix``, ``--diff``) or splits.
"""
