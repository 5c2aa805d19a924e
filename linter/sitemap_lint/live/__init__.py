"""The live audit (``check --live``): the URLs a sitemap lists, requested and judged.

After the static checks, each listed URL (pages, an index's children, images, videos'
content, player and thumbnail URLs, ``xhtml:link`` alternates) is requested once, and
what the answer says (status, redirects, robots.txt, noindex, canonical, dates,
alternates, media types) becomes findings of the ``LV`` rules (``rules/live.py``).

- ``model``: the records passed between the steps;
- ``targets``: the URLs of one file with their positions, read beside the static check;
  sampling;
- ``client``: the requests (aiohttp; addresses checked by ``inputs.guard`` at every hop;
  per-host and global limits; Retry-After; bounded bodies and timeouts);
- ``robots``: each host's robots.txt, fetched once;
- ``page``: what a page's head and headers state (pure; reports nothing);
- ``cache``: answers kept between runs in SQLite, asked again conditionally;
- ``audit``: the phase itself, from the files' targets to their findings.
"""
