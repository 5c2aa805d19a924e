"""Profiles: how the search engine a user targets reads the rules' findings.

A profile changes default severities only; it never adds or removes a check.
Keys are rule codes or code prefixes (the longest matching one applies); the
configuration's ``severity`` table and the selection flags apply on top.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sitemap_lint.errors import UsageError
from sitemap_lint.finding import Severity
from sitemap_lint.support.records import Frozen

ERROR = Severity.ERROR
WARNING = Severity.WARNING
INFO = Severity.INFO


@dataclass(init=False, repr=False, eq=False)
class Profile(Frozen):
    name: str
    description: str
    changes: dict[str, Severity] = field(default_factory=dict)

    def __init__(
        self,
        name: str,
        description: str,
        changes: dict[str, Severity] | None = None,
    ) -> None:
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "description", description)
        object.__setattr__(self, "changes", {} if changes is None else changes)


PROFILES: dict[str, Profile] = {
    profile.name: profile
    for profile in (
        Profile("google", "Google Search (the default): the rules' own severities."),
        Profile(
            "bing",
            "Bing: `lastmod` is its main crawl signal and it rejects timestamps in the future; "
            "what only Google's documentation says must be (an hreflang entry lists itself, a "
            "text sitemap's name ends in .txt) is a warning.",
            {
                "DT005": ERROR,  # date-in-future
                "HL004": WARNING,  # hreflang-self-missing
                "TX006": WARNING,  # text-sitemap-not-txt
            },
        ),
        Profile(
            "yandex",
            "Yandex: URLs over 1,024 characters, values over 100 bytes and feeds used as "
            "sitemaps are errors; it does not read hreflang alternates in sitemaps, so their "
            "findings are only advice.",
            {"FD001": ERROR, "HL": INFO, "UR012": ERROR, "VA004": ERROR},
        ),
        Profile(
            "strict",
            "Every deviation from the XSDs and every W3C Datetime nuance is an error.",
            {
                "DT004": ERROR,  # time-without-timezone: W3C Datetime requires the zone
                "NS003": ERROR,  # unvalidated-namespace: the XSD's wildcard is strict
                "IM006": ERROR,  # image-child-order: the schema fixes the sequence
                "VD018": ERROR,  # video-child-order: the schema fixes the sequence
                "NW012": ERROR,  # news-child-order: the schema fixes the sequence
                "NW016": ERROR,  # news-date-without-seconds: xsd:dateTime needs seconds
                "NW019": ERROR,  # empty-news-sitemap: the schema's urlset needs a url
                "UR016": ERROR,  # url-empty-port: libxml2's anyURI rejects "host:/"
                # extension-in-index-entry: siteindex.xsd alone (its wildcard is strict
                # and declares no extension) rejects it
                "ST013": ERROR,
            },
        ),
    )
}

DEFAULT = "google"

# The crawler whose robots.txt group applies under each profile.
AGENTS = {"google": "Googlebot", "bing": "bingbot", "yandex": "Yandex", "strict": "Googlebot"}


def checked(name: str) -> str:
    """``name`` if it is a profile's; otherwise a UsageError."""
    if name not in PROFILES:
        raise UsageError(f"unknown profile {name!r}; choose one of {', '.join(PROFILES)}")
    return name


def severity_under(profile: str, code: str, default: Severity) -> Severity:
    """A rule's severity under ``profile``: its longest matching change, else ``default``."""
    changes = PROFILES[profile].changes
    matches = [prefix for prefix in changes if code.startswith(prefix)]
    return changes[max(matches, key=len)] if matches else default
