"""The QR code on the public page that opens "My event" (the player picks their name)."""

from __future__ import annotations

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
    svg = segno.make(url, error="m").svg_inline(
        scale=3, title="QR code: My event, your own page for this tournament"
    )
    return mark_safe(svg)  # noqa: S308  (segno's own SVG; the title is ours)
