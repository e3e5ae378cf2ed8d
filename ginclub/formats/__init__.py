"""Dates as each language writes them (settings.FORMAT_MODULE_PATH): the pages use the
named formats (SHORT_DATE_FORMAT, SHORT_DATETIME_FORMAT, YEAR_MONTH_FORMAT), never a
literal that puts an English month abbreviation in every language.

Italian writes the months and the days of the week in lower case ("26 novembre 2026");
Django's own catalogue capitalises them, so ginclub's catalogue says them again (the
names below, kept in it by makemessages), and it takes precedence (LOCALE_PATHS).
"""

from django.utils.translation import gettext_noop, pgettext_lazy

MONTHS = (
    gettext_noop("January"),
    gettext_noop("February"),
    gettext_noop("March"),
    gettext_noop("April"),
    gettext_noop("May"),
    gettext_noop("June"),
    gettext_noop("July"),
    gettext_noop("August"),
    gettext_noop("September"),
    gettext_noop("October"),
    gettext_noop("November"),
    gettext_noop("December"),
)
# Django's "E" format: a month as a date says it (the same in Italian).
MONTHS_ALT = (
    pgettext_lazy("alt. month", "January"),
    pgettext_lazy("alt. month", "February"),
    pgettext_lazy("alt. month", "March"),
    pgettext_lazy("alt. month", "April"),
    pgettext_lazy("alt. month", "May"),
    pgettext_lazy("alt. month", "June"),
    pgettext_lazy("alt. month", "July"),
    pgettext_lazy("alt. month", "August"),
    pgettext_lazy("alt. month", "September"),
    pgettext_lazy("alt. month", "October"),
    pgettext_lazy("alt. month", "November"),
    pgettext_lazy("alt. month", "December"),
)
WEEKDAYS = (
    gettext_noop("Monday"),
    gettext_noop("Tuesday"),
    gettext_noop("Wednesday"),
    gettext_noop("Thursday"),
    gettext_noop("Friday"),
    gettext_noop("Saturday"),
    gettext_noop("Sunday"),
)
WEEKDAYS_ABBR = (
    gettext_noop("Mon"),
    gettext_noop("Tue"),
    gettext_noop("Wed"),
    gettext_noop("Thu"),
    gettext_noop("Fri"),
    gettext_noop("Sat"),
    gettext_noop("Sun"),
)
