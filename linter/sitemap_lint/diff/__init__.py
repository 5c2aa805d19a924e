"""``sitemap-lint diff OLD NEW``: what a deploy changed in a site's sitemaps.

Each side (files, directories, URLs, indexes, robots.txt, gzip or not) is read as
``check`` reads a set (``sides``), each file into compact columns (``listing``); the
two are compared one slice of the URL hash space at a time (``compare``); the report
(``report``) says what was added, removed, moved and changed, and the thresholds
(``gate``) decide the exit status: 1 when one is passed, 0 otherwise, 2 on bad input.
A diff never writes to either side.
"""
