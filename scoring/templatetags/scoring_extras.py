"""Template filters for the scoring pages."""

from __future__ import annotations

from django import template

register = template.Library()


@register.filter
def clock(seconds: int | None) -> str:
    """Seconds left as m:ss ("" when the clock has not started)."""
    if seconds is None:
        return ""
    seconds = max(int(seconds), 0)
    return f"{seconds // 60}:{seconds % 60:02d}"
