"""The QR code on the public page that opens "My event" (the player picks their name)."""

from __future__ import annotations

from functools import lru_cache

import segno
from django import template
from django.urls import reverse
from django.utils.safestring import mark_safe

register = template.Library()


@register.simple_tag(takes_context=True)
def my_event_qr(context, tournament) -> str:
    """An inline SVG QR code of this site's absolute address of the name list."""
    url = context["request"].build_absolute_uri(
        reverse("tournaments:player-choose", args=[tournament.slug])
    )
    return mark_safe(_svg(url))  # noqa: S308  (segno's own SVG; the title is ours)


@lru_cache(maxsize=256)
def _svg(url: str) -> str:
    """Drawn once per address and process (about 20 ms each time otherwise)."""
    return segno.make(url, error="m").svg_inline(
        scale=3, title="QR code: My event, your own page for this tournament"
    )
