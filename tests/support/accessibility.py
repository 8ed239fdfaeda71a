"""axe-core for the browser tests (axe-playwright-python, whose axe.min.js comes inside the package).

`Axe.run` puts axe's script (half a megabyte) into the page before each run; this `Axe` puts it in once per page
(a page that has it keeps it until it navigates), so that a walk over a game's screens compiles it once."""

from __future__ import annotations

from axe_playwright_python.sync_playwright import DEFAULT_OPTIONS, AxeResults
from axe_playwright_python.sync_playwright import Axe as PackagedAxe


class Axe(PackagedAxe):
    def run(self, page, context=None, options: dict | None = DEFAULT_OPTIONS) -> AxeResults:
        if page.evaluate("() => typeof window.axe === 'undefined'"):
            page.evaluate(self.axe_script)
        arguments = self._format_script_args(context=context, options=options)
        return AxeResults(page.evaluate(f"axe.run({arguments}).then(results => results)"))
