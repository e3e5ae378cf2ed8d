"""British English dates as the pages have always shown them ("28 Nov 2026")."""

DATE_FORMAT = "j M Y"
SHORT_DATE_FORMAT = "j M Y"
SHORT_DATETIME_FORMAT = "j M Y, H:i"
YEAR_MONTH_FORMAT = "M Y"
