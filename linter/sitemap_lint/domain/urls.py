"""A URL split into the parts the rules compare: scheme, host, port and path."""

from __future__ import annotations

from typing import NamedTuple


class ParsedURL(NamedTuple):
    scheme: str
    host: str
    port: int
    path: str

    @property
    def origin(self) -> str:
        default = 443 if self.scheme == "https" else 80
        port = "" if self.port == default else f":{self.port}"
        return f"{self.scheme}://{self.host}{port}"
