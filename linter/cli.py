def main():
    from importlib.resources import files
    print(files("sitemap_lint.schemas").joinpath("test.xsd").read_text())
