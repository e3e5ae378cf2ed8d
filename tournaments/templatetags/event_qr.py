"""The QR code on the public page that opens "My event" (the player picks their name)."""

from __future__ import annotations

from functools import lru_cache

import segno
from django import template
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

register = template.Library()


@register.simple_tag(takes_context=True)
def my_event_qr(context, tournament) -> str:
    """An inline SVG QR code of this site's absolute address of the name list."""
    url = context["request"].build_absolute_uri(
        reverse("tournaments:player-choose", args=[tournament.slug])
    )
    title = _("QR code: My event, your own page for this tournament")
    return mark_safe(_svg(url, title))  # noqa: S308  (segno's SVG; our title)


@lru_cache(maxsize=256)
def _svg(url: str, title: str) -> str:
    """Drawn once per address, title (in the page's language) and process (about 20 ms
    each time otherwise)."""
    return segno.make(url, error="m").svg_inline(scale=3, title=title)
