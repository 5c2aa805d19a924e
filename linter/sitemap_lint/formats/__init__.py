"""Front ends: XML urlset/index, text sitemaps, RSS/Atom feeds and robots.txt files."""
