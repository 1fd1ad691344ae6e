# Held out (GitBench cachetools-h16, written by hand): at the first commit of the split, a method whose
# cache(self) returns None is still called uncached without any warning, whatever lock or condition it has;
# the deprecation belongs to the second commit.
import threading
import unittest
import warnings

from cachetools import cachedmethod


class Uncached:
    def __init__(self):
        self.count = 0
        self.lock = threading.RLock()
        self.cond = threading.Condition()

    @cachedmethod(lambda self: None)
    def plain(self, value):
        self.count += 1
        return value

    @cachedmethod(lambda self: None, lock=lambda self: self.lock)
    def locked(self, value):
        self.count += 1
        return value

    @cachedmethod(lambda self: None, condition=lambda self: self.cond)
    def conditioned(self, value):
        self.count += 1
        return value

    @cachedmethod(lambda self: None, lock=lambda self: self.lock, condition=lambda self: self.cond)
    def locked_conditioned(self, value):
        self.count += 1
        return value


class NoCacheSilentTest(unittest.TestCase):
    def check(self, name):
        obj = Uncached()
        method = getattr(obj, name)
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            self.assertEqual(method(1), 1)
            self.assertEqual(method(1), 1)
        self.assertEqual(obj.count, 2)
        self.assertEqual([str(x.message) for x in w], [])

    def test_plain(self):
        self.check("plain")

    def test_locked(self):
        self.check("locked")

    def test_conditioned(self):
        self.check("conditioned")

    def test_locked_conditioned(self):
        self.check("locked_conditioned")
