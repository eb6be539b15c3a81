"""English dates as the tables read them: the day first, the month in words, a 24-hour
clock ("1 Dec 2026, 12:28"), never the month-first "12/01/2026 12:28 p.m." of Django's own
English, which half the English-speaking world reads as the 12th of January. French keeps
Django's own formats, day first already ("01/12/2026 12:28")."""

DATE_FORMAT = "j F Y"
DATETIME_FORMAT = "j F Y, H:i"
SHORT_DATE_FORMAT = "j M Y"
SHORT_DATETIME_FORMAT = "j M Y, H:i"
TIME_FORMAT = "H:i"
MONTH_DAY_FORMAT = "j F"
YEAR_MONTH_FORMAT = "F Y"
