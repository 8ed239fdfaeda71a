"""The app's URL rules: Werkzeug's, each compiling the code that builds its URLs (`url_for`) when a URL is first built
from it, not when the app is made. Making the app compiled two builders for each of its routes, most of the time
`create_app` took (measured: ~12 ms of ~26, a new SQLite file's migrations the rest); few routes ever build a URL (a
`Location`, a follow link), and a test of the API makes an app of its own."""

from __future__ import annotations

from werkzeug.routing import Rule as WerkzeugRule


class Rule(WerkzeugRule):
    def _compile_builder(self, append_unknown: bool = True):
        compile_now = super()._compile_builder
        name = "_build_unknown" if append_unknown else "_build"

        def build(rule, *args, **kwargs):
            made = compile_now(append_unknown).__get__(rule, None)
            setattr(rule, name, made)  # two threads at once would each compile the same: harmless
            return made(*args, **kwargs)

        build.deferred = True
        return build

    def built(self) -> bool:
        """Whether a URL was built from this rule (its builder compiled)."""
        builders = (self._build.__func__, self._build_unknown.__func__)
        return not all(getattr(builder, "deferred", False) for builder in builders)
