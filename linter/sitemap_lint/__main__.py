from sitemap_lint.cli import run

if __name__ == "__main__":  # worker processes import this module without running it
    run()
