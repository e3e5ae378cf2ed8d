from csp.decorators import csp_update
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from ginclub import views
from scoring import views as scoring_views
from scoring import views_offline
from scoring.urls import api_urlpatterns
from tournaments.urls import api_urlpatterns as tournament_api_urlpatterns

urlpatterns = [
    path("", scoring_views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("favicon.ico", views.favicon, name="favicon"),
    # the match page's service worker: served from the root so that its scope covers it
    path("sw.js", views_offline.service_worker, name="service-worker"),
    # The language switch on every page: Django's set_language (POST `language`, `next`),
    # which also keeps the choice for the players this phone is seated for.
    path("i18n/setlang/", scoring_views.set_language, name="set_language"),
    path("accounts/login/", views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("admin/", admin.site.urls),
    path("", include("scoring.urls")),
    path("", include("tournaments.urls")),
    path("api/", include(api_urlpatterns)),
    path("api/", include(tournament_api_urlpatterns)),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # Swagger UI's page carries a <style> block of its own; its script is a static URL.
    path(
        "api/docs/",
        csp_update({"style-src": ["'unsafe-inline'"]})(
            SpectacularSwaggerSplitView.as_view(url_name="api-schema")
        ),
        name="api-docs",
    ),
]

handler400 = "ginclub.middleware.bad_request"
handler404 = "ginclub.middleware.not_found"
handler500 = "ginclub.middleware.server_error"
