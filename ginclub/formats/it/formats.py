"""Italian dates: months in lower case ("26 novembre 2026", "26 nov 2026"): "b" is the
month's short name as the catalogue writes it, where "M" would capitalise it."""

DATE_FORMAT = "j F Y"
SHORT_DATE_FORMAT = "j b Y"
SHORT_DATETIME_FORMAT = "j b Y, H:i"
YEAR_MONTH_FORMAT = "b Y"
