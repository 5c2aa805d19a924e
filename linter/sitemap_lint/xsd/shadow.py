"""A second parse of the same text by libxml2, so valid entries need no rebuilding.

The checker's own parse (expat) gives every element its column; the XSD engine
needs lxml elements. Rebuilding them from our nodes costs more than libxml2
parsing the text again, so for the libxml2 engine the text is also fed to an
lxml pull parser, and its entry elements are validated in batches. A batch
that is valid (the usual case) is done; a batch with errors is rebuilt from our
nodes and validated again, which maps each error to its exact node. Anything
unexpected (a parse error, a DOCTYPE, entries that do not pair up) turns the
shadow off for the rest of the file, and rebuilding takes over.
"""

from __future__ import annotations

from collections import deque

from lxml import etree

from sitemap_lint.model import Node

ENTRY_TAGS = ("{*}url", "{*}sitemap")


class ShadowTree:
    def __init__(self) -> None:
        self.active = True
        self._parser = etree.XMLPullParser(
            events=("end",),
            tag=ENTRY_TAGS,
            resolve_entities=False,
            no_network=True,
            load_dtd=False,
            remove_comments=True,
            remove_pis=True,
        )
        self._ready: deque[etree._Element] = deque()

    def feed(self, text: str) -> None:
        if not self.active:
            return
        try:
            self._parser.feed(text.encode("utf-8"))
        except (etree.LxmlError, ValueError):  # ValueError: a namespace lxml refuses
            self.stop()
            return
        self._ready.extend(element for _event, element in self._parser.read_events())

    def close(self) -> None:
        if not self.active:
            return
        try:
            self._parser.close()
        except (etree.LxmlError, ValueError):  # ValueError: a namespace lxml refuses
            self.stop()
            return
        self._ready.extend(element for _event, element in self._parser.read_events())

    def stop(self) -> None:
        self.active = False
        self._ready.clear()

    def take(
        self, nodes: list[Node], entry_tag: str, line_offset: int
    ) -> list[etree._Element] | None:
        """The shadow elements of ``nodes``, in order; None when they are not all
        parsed yet, or do not pair up (then the shadow stops)."""
        if not self.active:
            return None
        ready = self._ready
        elements: list[etree._Element] = []
        for node in nodes:
            while ready and not _is_entry(ready[0], entry_tag):
                ready.popleft()
            if not ready:
                # Not parsed yet: put back what was taken and wait for more text.
                ready.extendleft(reversed(elements))
                return None
            element = ready.popleft()
            line = node.line - line_offset
            # libxml2 keeps line numbers in 16 bits; past that, compare the shape.
            if (
                (element.sourceline != line)
                if line < 65535
                else (len(element) != len(node.children))
            ):
                self.stop()
                return None
            elements.append(element)
        return elements


def _is_entry(element: etree._Element, entry_tag: str) -> bool:
    parent = element.getparent()
    return element.tag == entry_tag and parent is not None and parent.getparent() is None
