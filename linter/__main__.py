import sys

from sitemap_lint.cli import main

sys.exit(main())
