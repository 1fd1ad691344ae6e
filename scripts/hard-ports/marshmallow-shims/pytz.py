"""Stand-in for the part of pytz that marshmallow's tests use (the sandbox has no pytz).

pytz.timezone(name) gives a zone with localize(); here it is the standard library's zoneinfo zone (the
system's time zone data), and localize() attaches it to a naive datetime.
"""

import zoneinfo

__all__ = ["timezone", "utc", "UTC"]


class _Zone(zoneinfo.ZoneInfo):
    def localize(self, dt, is_dst=False):
        # fold=1 picks the later (standard time) reading of an ambiguous wall time, as pytz does with is_dst=False.
        return dt.replace(tzinfo=self, fold=0 if is_dst else 1)

    def normalize(self, dt):
        return dt.astimezone(self)

    @property
    def zone(self):
        return self.key


def timezone(name):
    return _Zone(name)


UTC = utc = timezone("UTC")
