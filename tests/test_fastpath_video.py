"""The fast path proves clean ``video:video`` elements (fastpath/video.py) and never
changes a result: every input is checked with and without it (``check_both``), and
the clean ones must have their entries proved."""

from __future__ import annotations

import random

import pytest

from tests.test_fastpath import NS, assert_same_json, check_both, entered_stretches, write

VIDEO_NS = "http://www.google.com/schemas/sitemap-video/1.1"
MEDIA = "https://cdn.example.com/media/video-"

# A defect (or an odd form) in one child: (the child's name, what is written instead of
# the child; "" drops it). Each makes a finding or is a form the proof leaves alone.
DEFECTS = (
    ("thumbnail_loc", "<V:thumbnail_loc>https://cdn.example.com/a b.jpg</V:thumbnail_loc>"),
    ("thumbnail_loc", "<V:thumbnail_loc>https://CDN.example.com/t.jpg</V:thumbnail_loc>"),
    ("thumbnail_loc", "<V:thumbnail_loc>ftp://cdn.example.com/t.jpg</V:thumbnail_loc>"),
    (
        "thumbnail_loc",
        "<V:thumbnail_loc><![CDATA[https://cdn.example.com/t.jpg]]></V:thumbnail_loc>",
    ),
    ("thumbnail_loc", ""),
    ("title", "<V:title>" + "t" * 101 + "</V:title>"),
    ("title", "<V:title>" + "t" * 99 + "&amp;</V:title>"),
    ("title", "<V:title>" + "t" * 100 + "&amp;</V:title>"),
    ("title", "<V:title>   </V:title>"),
    ("title", "<V:title></V:title>"),
    ("title", "<V:title>A &#65; B &#x42; &#0; C</V:title>"),
    ("title", "<V:title>A &#65; B &#x42;</V:title>"),
    ("title", "<V:title>Rock & roll</V:title>"),
    ("title", "<V:title><![CDATA[Rock & roll]]></V:title>"),
    ("title", "<V:title><![CDATA[" + "t" * 101 + "]]></V:title>"),
    ("title", "<V:title><![CDATA[" + "t" * 96 + "&amp;]]></V:title>"),
    ("title", "<V:title><![CDATA[   ]]></V:title>"),
    ("title", "<V:title><![CDATA[]]></V:title>"),
    ("title", "<V:title><![CDATA[a <b> c]]></V:title>"),
    ("title", "<V:title><![CDATA[a]]> b</V:title>"),
    ("title", "<V:title> <![CDATA[a]]></V:title>"),
    ("title", "<V:title><![CDATA[a\tb]]></V:title>"),
    ("description", "<V:description><![CDATA[" + "d" * 2049 + "]]></V:description>"),
    ("description", '<V:description><![CDATA[It\'s 1 > 0 & "so" on]]></V:description>'),
    ("title", "<V:title>Rock <!-- a comment --> roll</V:title>"),
    ("title", "<V:title>Caf\u00e9</V:title>"),
    ("description", "<V:description>" + "d" * 2049 + "</V:description>"),
    ("description", "<V:description>&lt;b&gt; &quot;x&quot; &apos;y&apos;</V:description>"),
    ("description", ""),
    ("content_loc", "<V:content_loc>https://www.example.com/watch/page-PAGE</V:content_loc>"),
    ("content_loc", "<V:content_loc>https://cdn.example.com/v/clip.html</V:content_loc>"),
    ("content_loc", "<V:content_loc>https://cdn.example.com/v/clip.SWF?x=1</V:content_loc>"),
    ("content_loc", "<V:content_loc>https://www.youtube.com/watch?v=abc</V:content_loc>"),
    ("content_loc", "<V:content_loc>rtmp://cdn.example.com/v/clip.mp4</V:content_loc>"),
    ("content_loc", "<V:content_loc>https://cdn.example.com/v/a%2g.mp4</V:content_loc>"),
    ("content_loc", "<V:content_loc>https://cdn.example.com:8080/v.mp4</V:content_loc>"),
    ("content_loc", "<V:content_loc></V:content_loc>"),
    ("player_loc", '<V:player_loc allow_embed="yes">https://p.example.com/p</V:player_loc>'),
    ("player_loc", "<V:player_loc>https://www.example.com/watch/page-PAGE</V:player_loc>"),
    ("duration", "<V:duration>0</V:duration>"),
    ("duration", "<V:duration>28800</V:duration>"),
    ("duration", "<V:duration>28801</V:duration>"),
    ("duration", "<V:duration>PT1M30S</V:duration>"),
    ("duration", "<V:duration> 30 </V:duration>"),
    ("duration", "<V:duration>030</V:duration>"),
    ("publication_date", "<V:publication_date>2024-02-30</V:publication_date>"),
    ("publication_date", "<V:publication_date>2099-01-01</V:publication_date>"),
    ("publication_date", "<V:publication_date>2024-05-01T10:00:00</V:publication_date>"),
    ("publication_date", "<V:publication_date>2024-05-01</V:publication_date>"),
    ("publication_date", "<V:publication_date>&#50;024-05-01</V:publication_date>"),
    ("tag", "<V:tag>one</V:tag>" * 33),
    ("tag", "<V:tag>one</V:tag>" * 32),
    ("tag", "<V:tag></V:tag>"),
    ("tag", "<V:tag>a &amp; b</V:tag>"),
    ("family_friendly", "<V:family_friendly>true</V:family_friendly>"),
    ("family_friendly", "<V:family_friendly>Yes</V:family_friendly>"),
    ("family_friendly", "<V:family_friendly> yes</V:family_friendly>"),
    ("family_friendly", "<V:family_friendly>yES</V:family_friendly>"),
    ("live", "<V:live>NO</V:live>"),
    ("live", "<V:live>maybe</V:live>"),
    ("requires_subscription", "<V:requires_subscription>no</V:requires_subscription>"),
    ("expiration_date", "<V:expiration_date>2025-05-31</V:expiration_date>"),
    ("expiration_date", "<V:expiration_date>2025-06-01</V:expiration_date>"),
    ("expiration_date", "<V:expiration_date>2025-05-31T23:59:59+00:00</V:expiration_date>"),
    ("expiration_date", "<V:expiration_date>2031-02-30</V:expiration_date>"),
    ("expiration_date", "<V:expiration_date>2031-01-01T10:00:00</V:expiration_date>"),
    ("expiration_date", "<V:expiration_date>&#50;031-01-01</V:expiration_date>"),
    ("expiration_date", "<V:expiration_date>31/01/2031</V:expiration_date>"),
    ("rating", "<V:rating>5.0</V:rating>"),
    ("rating", "<V:rating>5.01</V:rating>"),
    ("rating", "<V:rating>8</V:rating>"),
    ("rating", "<V:rating>4,2</V:rating>"),
    ("rating", "<V:rating>0</V:rating>"),
    ("rating", "<V:rating>-1</V:rating>"),
    ("rating", "<V:rating>.5</V:rating>"),
    ("rating", "<V:rating> 4.2 </V:rating>"),
    ("view_count", "<V:view_count>0</V:view_count>"),
    ("view_count", "<V:view_count>12,345</V:view_count>"),
    ("view_count", "<V:view_count>-3</V:view_count>"),
    ("view_count", "<V:view_count>1e3</V:view_count>"),
    ("restriction", '<V:restriction relationship="deny">US  GB</V:restriction>'),
    ("restriction", "<V:restriction relationship='allow'>FR</V:restriction>"),
    ("restriction", '<V:restriction relationship="allow">us ca</V:restriction>'),
    ("restriction", '<V:restriction relationship="allow">UK</V:restriction>'),
    ("restriction", '<V:restriction relationship="allow">XX</V:restriction>'),
    ("restriction", '<V:restriction relationship="Allow">US</V:restriction>'),
    ("restriction", "<V:restriction>US</V:restriction>"),
    ("restriction", '<V:restriction relationship="allow"></V:restriction>'),
    ("restriction", '<V:restriction relationship="allow">US,CA</V:restriction>'),
    ("restriction", '<V:restriction relationship="allow" x="1">US</V:restriction>'),
    ("restriction", '<V:restriction relationship="allow">US</V:restriction>' * 2),
    ("platform", '<V:platform relationship="allow">web tv</V:platform>'),
    ("platform", '<V:platform relationship = "deny" >mobile</V:platform>'),
    ("platform", '<V:platform relationship="allow">Web</V:platform>'),
    ("platform", '<V:platform relationship="allow">web,tv</V:platform>'),
    ("platform", '<V:platform relationship="allow">web web</V:platform>'),
    ("platform", '<V:platform relationship="allow">web  tv</V:platform>'),
    ("platform", "<V:platform>web</V:platform>"),
    ("order", "<V:live>no</V:live><V:duration>30</V:duration>"),
    ("order", "<V:title>Again</V:title>"),
    ("order", "<V:duration>30</V:duration><V:duration>31</V:duration>"),
    ("order", "<V:rating>4.5</V:rating>"),
    ("order", "<V:view_count>12</V:view_count>"),
    ("uploader", "<V:uploader>" + "u" * 256 + "</V:uploader>"),
    ("uploader", "<V:uploader>" + "u" * 255 + "</V:uploader>"),
    ("uploader", '<V:uploader info="https://social.example.org/u">someone</V:uploader>'),
    ("uploader", '<V:uploader info="https://video.example.com/u">someone</V:uploader>'),
    ("uploader", "<V:uploader info='https://www.example.com/users/u'>someone</V:uploader>"),
    ("uploader", '<V:uploader info="https://www.example.com/a b">someone</V:uploader>'),
    ("uploader", '<V:uploader info="/users/u">someone</V:uploader>'),
    ("uploader", '<V:uploader info="">someone</V:uploader>'),
    ("uploader", '<V:uploader info="https://www.example.com/u" x="1">someone</V:uploader>'),
    ("uploader", "<V:uploader></V:uploader>"),
    ("uploader", "<V:uploader>Tom &amp; Jerry &#65;</V:uploader>"),
    ("uploader", "<V:uploader>Tom & Jerry</V:uploader>"),
    ("uploader", "<V:uploader>Caf\u00e9</V:uploader>"),
    ("uploader", "<V:uploader>a</V:uploader><V:uploader>b</V:uploader>"),
    (
        "order",
        "<V:uploader>someone</V:uploader><V:requires_subscription>no</V:requires_subscription>",
    ),
    ("order", '<V:restriction relationship="allow">US CA</V:restriction>'),
    ("order", "<V:unknown>x</V:unknown>"),
    ("order", "<loc>https://www.example.com/x</loc>"),
    ("order", "<!-- a comment between children -->"),
    ("order", "<?pi between children?>"),
    ("order", "stray text"),
)
CHILDREN = (
    "thumbnail_loc",
    "title",
    "description",
    "content_loc",
    "player_loc",
    "duration",
    "expiration_date",
    "rating",
    "view_count",
    "publication_date",
    "tag",
    "family_friendly",
    "restriction",
    "requires_subscription",
    "uploader",
    "platform",
    "live",
)


def video_head(prefix: str = "video") -> str:
    return (
        f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="{NS}"\n'
        f'  xmlns:{prefix}="{VIDEO_NS}">\n'
    )


def video_children(i: int, rng: random.Random) -> dict[str, str]:
    """A clean video's children by name (a tag: one or more), with ``V`` for the prefix."""
    media = f"{MEDIA}{i}"
    children = {
        "thumbnail_loc": f"<V:thumbnail_loc>{media}.jpg</V:thumbnail_loc>",
        "title": f"<V:title>Rock &amp; roll, part {i}: &quot;live&quot;</V:title>",
        "description": "<V:description>Three chords &lt;and&gt; the truth.</V:description>",
    }
    if rng.random() < 0.8:
        children["content_loc"] = f"<V:content_loc>{media}.mp4</V:content_loc>"
    if "content_loc" not in children or rng.random() < 0.3:
        children["player_loc"] = f"<V:player_loc>https://p.example.com/p?v={i}</V:player_loc>"
    optional = {
        "duration": f"<V:duration>{1 + i % 3000}</V:duration>",
        "publication_date": f"<V:publication_date>2024-05-{i % 28 + 1:02d}T10:00:00+00:00"
        "</V:publication_date>",
        "tag": "<V:tag>music</V:tag>" * rng.randrange(1, 4),
        "family_friendly": "<V:family_friendly>yes</V:family_friendly>",
        "requires_subscription": "<V:requires_subscription>No</V:requires_subscription>",
        "live": "<V:live>no</V:live>",
        "expiration_date": f"<V:expiration_date>2031-0{i % 9 + 1}-01</V:expiration_date>",
        "rating": f"<V:rating>{i % 50 / 10}</V:rating>",
        "view_count": f"<V:view_count>{i * 37}</V:view_count>",
        "restriction": '<V:restriction relationship="allow">US CA GB</V:restriction>',
        "platform": "<V:platform relationship='deny'>tv</V:platform>",
        "uploader": '<V:uploader info="https://www.example.com/users/grill">Grill &amp; Co'
        "</V:uploader>",
    }
    for name, child in optional.items():
        if rng.random() < 0.6:
            children[name] = child
    return children


def video_entry(i: int, rng: random.Random, prefix: str = "video", odd: float = 0.0) -> str:
    """A url entry with one video (now and then two); with probability ``odd`` one
    child carries a defect of DEFECTS."""
    videos = []
    for _ in range(2 if rng.random() < 0.1 else 1):
        children = video_children(i, rng)
        if rng.random() < odd:
            name, written = rng.choice(DEFECTS)
            written = written.replace("PAGE", str(i))
            if name in children:
                children[name] = written
            else:
                at = rng.randrange(len(children) + 1)
                items = list(children.items())
                items.insert(at, (f"odd-{at}", written))
                children = dict(items)
        ordered = [children.pop(name) for name in CHILDREN if name in children]
        ordered += list(children.values())
        gap = rng.choice(["", "\n      ", " ", "\t"])
        inner = gap + gap.join(ordered) + gap
        videos.append(f"<V:video>{inner}</V:video>".replace("V:", f"{prefix}:"))
    loc = f"<loc>https://www.example.com/watch/page-{i}</loc>"
    return f"  <url>\n    {loc}\n    " + "\n    ".join(videos) + "\n  </url>\n"


def video_sitemap(count: int, seed: int = 0, odd: float = 0.0, prefix: str = "video") -> str:
    rng = random.Random(seed)
    entries = "".join(video_entry(i, rng, prefix, odd) for i in range(count))
    return video_head(prefix) + entries + "</urlset>\n"


@pytest.mark.parametrize("window", [None, 1500, 4096])  # (an entry is up to 1 KB long)
@pytest.mark.parametrize("prefix", ["video", "v"])
def test_clean_video_entries_are_proved(monkeypatch, tmp_path, window, prefix):
    path = write(tmp_path, video_sitemap(200, 7, prefix=prefix))
    outcome = check_both(monkeypatch, path, window)
    assert outcome.findings == []
    # Entries split across small blocks go to the full checker.
    assert outcome.proved >= (190 if window is None else 20)


@pytest.mark.parametrize("window", [None, 1500])
def test_titles_and_descriptions_in_cdata_are_proved(monkeypatch, tmp_path, window):
    """As some plugins write them: one CDATA section each, read as written."""
    text = video_sitemap(200, 7)
    text = text.replace(
        "<video:title>Rock &amp; roll, part", "<video:title><![CDATA[Rock & roll, part"
    ).replace(": &quot;live&quot;</video:title>", ': "live"]]></video:title>')
    text = text.replace(
        "<video:description>Three chords &lt;and&gt; the truth.</video:description>",
        "<video:description><![CDATA[Three chords & the truth >]]></video:description>",
    )
    assert text.count("<![CDATA[") > 400
    path = write(tmp_path, text)
    outcome = check_both(monkeypatch, path, window)
    assert outcome.findings == []
    assert outcome.proved >= (190 if window is None else 20)
    assert_same_json(monkeypatch, path)


@pytest.mark.parametrize(("name", "written"), DEFECTS)
def test_a_defect_in_a_video_child_reports_the_same(monkeypatch, tmp_path, name, written):
    rng = random.Random(3)
    entries = [video_entry(i, rng) for i in range(40)]
    children = video_children(20, random.Random(5))
    children[name] = written.replace("PAGE", "20")
    ordered = [children.pop(n) for n in CHILDREN if n in children] + list(children.values())
    block = "<video:video>" + "".join(ordered).replace("V:", "video:") + "</video:video>"
    entries[20] = f"  <url><loc>https://www.example.com/watch/page-20</loc>{block}</url>\n"
    path = write(tmp_path, video_head() + "".join(entries) + "</urlset>\n")
    outcome = check_both(monkeypatch, path)
    assert outcome.proved >= 39  # the others are proved
    assert_same_json(monkeypatch, path)


@pytest.mark.parametrize("seed", range(6))
def test_videos_with_defects_report_the_same(monkeypatch, tmp_path, seed):
    path = write(tmp_path, video_sitemap(150, seed, odd=0.3))
    outcome = check_both(monkeypatch, path, [None, 1500, 4096][seed % 3])
    assert outcome.proved > 0
    assert_same_json(monkeypatch, path)
    assert_same_json(monkeypatch, path, unsafe_fixes=True)


def test_video_beside_images_goes_to_the_full_checker(monkeypatch, tmp_path):
    image = "http://www.google.com/schemas/sitemap-image/1.1"
    text = video_sitemap(30, 1).replace(
        f'xmlns:video="{VIDEO_NS}">', f'xmlns:video="{VIDEO_NS}" xmlns:image="{image}">'
    )
    text = text.replace(
        "</video:video>",
        "</video:video><image:image><image:loc>https://www.example.com/i.jpg</image:loc>"
        "</image:image>",
        1,
    )
    outcome = check_both(monkeypatch, write(tmp_path, text))
    assert outcome.proved == 29


def test_a_proved_video_lists_the_same_live_targets(monkeypatch, tmp_path):
    from sitemap_lint import fastpath
    from sitemap_lint.engine.checker import check_source
    from sitemap_lint.inputs.reader import Source
    from sitemap_lint.settings.options import Options
    from tests.helpers import NOW, engine
    from tests.test_fastpath import _Counter

    path = write(tmp_path, video_sitemap(60, 4))
    targets = []
    for switch in ("0", "1"):
        monkeypatch.setenv(fastpath.ENV, switch)
        monkeypatch.setattr(fastpath, "SMALL", 0)
        counter = _Counter(monkeypatch)
        result = check_source(Source(str(path), path), Options(now=NOW, live=True), engine())
        targets.append((result.targets, counter.proved))
        monkeypatch.undo()
    (slow, unproved), (fast, proved) = targets
    assert unproved == 0 and proved >= 55
    kinds = {target.kind for target in fast}
    assert len(kinds) >= 3  # pages, and the video's thumbnails and media
    assert fast == slow


def test_entries_with_videos_are_entered_together_with_the_others(monkeypatch, tmp_path):
    """A run's entries, some with videos (a stretch of them, and a video now and then
    among plain entries), are entered in one step over all of them: a video checker
    keeps nothing entry by entry."""
    rng = random.Random(3)
    entries = [f"  <url><loc>https://www.example.com/p/{i}</loc></url>\n" for i in range(100)]
    for i in (*range(20, 30), 61, 80):
        entries[i] = video_entry(i, rng)
    path = write(tmp_path, video_head() + "".join(entries) + "</urlset>\n")
    outcome = check_both(monkeypatch, path)
    assert outcome.proved == 100
    entered = entered_stretches(monkeypatch, path)
    # (The first entry is entered alone: its URL sets the scope check's origin.)
    assert entered == [(1, 100, True)]
    assert_same_json(monkeypatch, path)
