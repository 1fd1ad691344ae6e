"""Coroutine functions and methods under main's decorators, as plain ones (hand-written, held out)."""

import asyncio
import threading
import unittest

import cachetools
from cachetools import LRUCache, cachedmethod, keys


def counter():
    """A coroutine function returning 0, 1, 2, ... on successive calls."""
    count = 0

    async def count_up(*args, **kwargs):
        nonlocal count
        await asyncio.sleep(0)
        result = count
        count += 1
        return result

    return count_up


# Seconds any test's event loop may take: each finishes in milliseconds when right.
DEADLINE = 10


def run_bounded(test, main):
    """Runs ``main()`` to completion in an event loop on a thread of its own and
    fails ``test`` if it has not finished by ``DEADLINE``. A wrapper holding a
    threading lock across an ``await`` blocks the loop's thread for good when a
    second call waits for that lock, which no asyncio timeout can interrupt; the
    stuck thread is a daemon, so it does not keep pytest from exiting."""
    raised = []

    def target():
        try:
            asyncio.run(main())
        except BaseException as error:
            raised.append(error)

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(DEADLINE)
    if thread.is_alive():
        test.fail(
            "the event loop was still blocked after %d s: a threading lock held across an await deadlocks "
            "a second call for the same key" % DEADLINE
        )
    if raised:
        raise raised[0]


async def race(wrapper, gate, *args):
    """Two calls for the same key, the second made before the first has stored its value."""
    first = asyncio.ensure_future(wrapper(*args))
    second = asyncio.ensure_future(wrapper(*args))
    for _ in range(5):
        await asyncio.sleep(0)
    gate.set()
    return await first, await second


class AsyncCachedTest(unittest.TestCase):
    def test_cache_clear(self):
        async def run():
            cache = LRUCache(maxsize=4)
            wrapper = cachetools.cached(cache)(counter())
            self.assertEqual(await wrapper(0), 0)
            self.assertEqual(await wrapper(0), 0)
            wrapper.cache_clear()
            self.assertEqual(len(cache), 0)
            self.assertEqual(await wrapper(0), 1)

        run_bounded(self, run)

    def test_attributes(self):
        cache = LRUCache(maxsize=4)
        lock = threading.Lock()
        plain = cachetools.cached(cache)(counter())
        self.assertIs(plain.cache, cache)
        self.assertIs(plain.cache_key, keys.hashkey)
        self.assertIs(plain.cache_lock, None)
        self.assertIs(plain.cache_info, None)
        locked = cachetools.cached(cache, key=keys.typedkey, lock=lock)(counter())
        self.assertIs(locked.cache_key, keys.typedkey)
        self.assertIs(locked.cache_lock, lock)

    def test_info(self):
        async def run():
            cache = LRUCache(maxsize=4)
            wrapper = cachetools.cached(cache, info=True)(counter())
            self.assertEqual(wrapper.cache_info(), (0, 0, 4, 0))
            self.assertEqual(await wrapper(0), 0)
            self.assertEqual(wrapper.cache_info(), (0, 1, 4, 1))
            self.assertEqual(await wrapper(0), 0)
            self.assertEqual(await wrapper(1), 1)
            self.assertEqual(wrapper.cache_info(), (1, 2, 4, 2))
            wrapper.cache_clear()
            self.assertEqual(wrapper.cache_info(), (0, 0, 4, 0))

        run_bounded(self, run)

    def test_lock_info(self):
        async def run():
            cache = LRUCache(maxsize=4)
            wrapper = cachetools.cached(cache, lock=threading.Lock(), info=True)(counter())
            self.assertEqual(await wrapper(0), 0)
            self.assertEqual(await wrapper(0), 0)
            self.assertEqual(wrapper.cache_info(), (1, 1, 4, 1))

        run_bounded(self, run)

    def test_lock_race_keeps_first_value(self):
        async def run():
            gate = asyncio.Event()
            made = []

            async def make(value):
                result = [value, len(made)]
                made.append(result)
                await gate.wait()
                return result

            cache = LRUCache(maxsize=4)
            wrapper = cachetools.cached(cache, lock=threading.Lock())(make)
            first, second = await race(wrapper, gate, 7)
            self.assertIs(first, made[0])
            self.assertIs(second, made[0])
            self.assertIs(cache[keys.hashkey(7)], made[0])

        run_bounded(self, run)


class Methods:
    def __init__(self, cache):
        self.cache = cache
        self.lock = threading.Lock()
        self.count = 0
        self.gate = None
        self.made = []

    @cachedmethod(lambda self: self.cache)
    async def get(self, value):
        await asyncio.sleep(0)
        result = self.count
        self.count += 1
        return result

    @cachedmethod(lambda self: self.cache, info=True)
    async def get_info(self, value):
        await asyncio.sleep(0)
        result = self.count
        self.count += 1
        return result

    @cachedmethod(lambda self: self.cache, lock=lambda self: self.lock)
    async def get_locked(self, value):
        result = [value, len(self.made)]
        self.made.append(result)
        await self.gate.wait()
        return result


class AsyncCachedMethodTest(unittest.TestCase):
    def test_cache_clear(self):
        async def run():
            one, two = Methods(LRUCache(maxsize=4)), Methods(LRUCache(maxsize=4))
            self.assertEqual(await one.get(0), 0)
            self.assertEqual(await two.get(0), 0)
            one.get.cache_clear()
            self.assertEqual(len(one.cache), 0)
            self.assertEqual(len(two.cache), 1)
            self.assertEqual(await one.get(0), 1)
            self.assertEqual(await two.get(0), 0)

        run_bounded(self, run)

    def test_attributes(self):
        obj = Methods(LRUCache(maxsize=4))
        self.assertIs(obj.get.cache, obj.cache)
        self.assertEqual(obj.get.cache_key(1), keys.methodkey(obj, 1))
        self.assertIs(obj.get.cache_lock, None)
        self.assertIs(obj.get_locked.cache_lock, obj.lock)

    def test_info(self):
        async def run():
            obj = Methods(LRUCache(maxsize=4))
            self.assertEqual(obj.get_info.cache_info(), (0, 0, 4, 0))
            self.assertEqual(await obj.get_info(0), 0)
            self.assertEqual(await obj.get_info(0), 0)
            self.assertEqual(await obj.get_info(1), 1)
            self.assertEqual(obj.get_info.cache_info(), (1, 2, 4, 2))
            obj.get_info.cache_clear()
            self.assertEqual(obj.get_info.cache_info(), (0, 0, 4, 0))

        run_bounded(self, run)

    def test_lock_race_keeps_first_value(self):
        async def run():
            obj = Methods(LRUCache(maxsize=4))
            obj.gate = asyncio.Event()
            first, second = await race(obj.get_locked, obj.gate, 7)
            self.assertIs(first, obj.made[0])
            self.assertIs(second, obj.made[0])
            self.assertIs(obj.cache[keys.hashkey(7)], obj.made[0])

        run_bounded(self, run)
