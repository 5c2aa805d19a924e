import sys

from sitemap_lint.cli import main

if __name__ == "__main__":  # worker processes import this module without running it
    sys.exit(main())
