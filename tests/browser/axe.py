"""Accessibility checks with axe-core (vendored in tests/browser/vendor/axe-core/).

`assert_accessible(page)` runs axe on the page as it stands and fails on every
violation of impact "serious" or "critical", naming the rule, its help text and the
elements concerned. axe is evaluated through Playwright rather than added as a
<script> tag: the site's CSP forbids inline scripts, and the page should be checked
with the policy it really has.
"""

from __future__ import annotations

from pathlib import Path

AXE_SOURCE = Path(__file__).resolve().parent / "vendor" / "axe-core" / "axe.min.js"
FAILING_IMPACTS = ("serious", "critical")

_RUN = """async (options) => {
  const results = await axe.run(document, options);
  return results.violations.map((v) => ({
    id: v.id,
    impact: v.impact,
    help: v.help,
    nodes: v.nodes.map((n) => ({target: n.target.join(" "), summary: n.failureSummary})),
  }));
}"""


def axe_violations(page) -> list[dict]:
    """Every axe violation on the page (any impact), as plain dicts."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(AXE_SOURCE.read_text(encoding="utf-8"))
    return page.evaluate(_RUN, {"resultTypes": ["violations"]})


def describe(violations: list[dict]) -> str:
    lines = []
    for violation in violations:
        lines.append(f"{violation['impact']} {violation['id']}: {violation['help']}")
        for node in violation["nodes"][:5]:
            summary = " ".join((node["summary"] or "").split())
            lines.append(f"    {node['target']}: {summary[:240]}")
        if len(violation["nodes"]) > 5:
            lines.append(f"    ... and {len(violation['nodes']) - 5} more")
    return "\n".join(lines)


def assert_accessible(page, *, name: str = "") -> None:
    """Fail when axe finds a serious or critical violation on the page."""
    serious = [v for v in axe_violations(page) if v["impact"] in FAILING_IMPACTS]
    where = name or page.url
    assert not serious, f"axe on {where}:\n{describe(serious)}"
