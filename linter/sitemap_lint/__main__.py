"""``python -m sitemap_lint`` and the ``sitemap-lint`` command."""

from sitemap_lint.engine import collector


def main() -> None:
    """Run the command line. The collector's thresholds are raised before anything is
    imported, as ``cli.run`` raises them for the check: the imports of a start-up
    (typer and click among them) allocate hundreds of thousands of objects that stay,
    and collecting every 700 allocations while they load cost about 3% of a small run."""
    collector.tune()
    from sitemap_lint.cli import run

    run()


if __name__ == "__main__":  # worker processes import this module without running it
    main()
