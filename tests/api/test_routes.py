"""The app's routes build the same URLs as Werkzeug's own rules, though each compiles its builder only when a URL is
first built from it (`api.routes.Rule`)."""

from __future__ import annotations

from werkzeug.routing import Map
from werkzeug.routing import Rule as WerkzeugRule

from api.routes import Rule


def values_for(rule) -> dict:
    """A value for each of the rule's parts, with a query argument besides, and one that needs quoting."""
    return {**{name: f"v {index}/é" for index, name in enumerate(sorted(rule.arguments))}, "x": "1 2"}


def test_every_route_builds_the_url_werkzeugs_own_rule_builds(app):
    rules = [rule for rule in app.url_map.iter_rules() if rule.endpoint != "static"]
    assert rules and all(isinstance(rule, Rule) for rule in rules)
    plain = Map([WerkzeugRule(rule.rule, endpoint=rule.endpoint, methods=rule.methods) for rule in rules],
                merge_slashes=False)
    ours, theirs = app.url_map.bind("kibic.test"), plain.bind("kibic.test")
    for rule in rules:
        method = sorted(rule.methods - {"HEAD", "OPTIONS"})[0]
        for external in (False, True):
            built = ours.build(rule.endpoint, values_for(rule), method=method, force_external=external)
            assert built == theirs.build(rule.endpoint, values_for(rule), method=method, force_external=external)


def test_a_new_app_compiles_no_url_builder_until_one_is_asked_for(app):
    rule = next(rule for rule in app.url_map.iter_rules() if rule.arguments)
    assert not rule.built()
    app.url_map.bind("kibic.test").build(rule.endpoint, values_for(rule))
    assert rule.built()
