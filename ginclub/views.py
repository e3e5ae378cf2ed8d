from __future__ import annotations

from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

from scoring import selectors


def home(request: HttpRequest) -> HttpResponse:
    context = {}
    if request.user.is_authenticated:
        context = {
            "clubs": selectors.clubs_for(request.user),
            "matches": selectors.matches_for(request.user)[:30],
        }
    return render(request, "home.html", context)


def healthz(request: HttpRequest) -> JsonResponse:
    """Load balancers poll this: it answers only when the database does."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return JsonResponse({"status": "ok"})
