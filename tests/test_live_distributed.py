"""The live audit's partition of URLs by host for a cluster."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from sitemap_lint.live.distributed import MemoryCache, by_host, host_of
from sitemap_lint.live.model import PAGE, Answer


def test_a_site_is_its_host_name_whatever_its_scheme_port_or_www() -> None:
    """A site's redirects (http to https, to or from www.) stay in its task."""
    assert host_of("https://Example.COM/a") == host_of("https://example.com/b")
    assert host_of("https://example.com/") == host_of("http://example.com/") == "example.com"
    assert host_of("https://example.com:8443/") == host_of("https://www.example.com/")
    assert host_of("http://example.com:80/a") == host_of("http://Example.com/b")
    assert host_of("https://example.org/") != host_of("https://example.com/")
    assert host_of("https://shop.example.com/") != host_of("https://example.com/")
    assert host_of("http://[::1]:8080/") == host_of("https://[::1]/") == "[::1]"
    assert host_of("https://example.com:x/") == "example.com"  # no traceback
    assert host_of("http:///x") == "http:///x"


def test_every_host_in_one_group_and_the_groups_balanced() -> None:
    requests = [(f"https://h{n % 5}.example/{n}", PAGE) for n in range(100)]
    requests += [(f"https://big.example/{n}", PAGE) for n in range(60)]
    groups = by_host(requests, 3)
    assert sorted(r for group in groups for r in group) == sorted(requests)
    owner = {host_of(url): number for number, group in enumerate(groups) for url, _ in group}
    for number, group in enumerate(groups):
        assert all(owner[host_of(url)] == number for url, _ in group)
    assert sorted(len(group) for group in groups) == [40, 60, 60]


def test_the_groups_keep_the_order_and_do_not_depend_on_the_run() -> None:
    requests = [(f"https://h{n % 7}.example/{n}", PAGE) for n in range(50)]
    groups = by_host(requests, 4)
    assert groups == by_host(list(requests), 4)
    for group in groups:
        assert group == sorted(group, key=requests.index)


@given(st.lists(st.sampled_from(["a", "b", "c", "d"]), max_size=40), st.integers(1, 6))
def test_no_more_groups_than_hosts_or_parts(hosts: list[str], parts: int) -> None:
    requests = [(f"https://{host}.example/{n}", PAGE) for n, host in enumerate(hosts)]
    groups = by_host(requests, parts)
    assert len(groups) <= min(parts, len(set(hosts))) or not hosts
    assert sum(map(len, groups)) == len(requests)


def test_a_memory_cache_gives_what_it_was_given_and_keeps_what_is_stored() -> None:
    cached = Answer("https://example.com/", status=200, etag='"1"')
    cache = MemoryCache({cached.url: cached})
    assert cache.get(cached.url) is cached and cache.get("https://example.com/x") is None
    assert cache.get_many([cached.url, "https://example.com/x"]) == {cached.url: cached}
    fresh = Answer("https://example.com/x", status=404)
    cache.put_many([fresh])
    assert cache.stored == [fresh]
