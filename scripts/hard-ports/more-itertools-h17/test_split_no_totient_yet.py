# Held out (GitBench more-itertools-h17, written by hand): the first commit of the split adds reshape()
# only; totient() comes with the second, so at the first it is neither exported nor defined.
from unittest import TestCase

import more_itertools as mi
from more_itertools import recipes


class NoTotientYetTests(TestCase):
    def test_not_exported(self):
        self.assertNotIn('totient', recipes.__all__)
        self.assertFalse(hasattr(mi, 'totient'))

    def test_not_defined(self):
        self.assertFalse(hasattr(recipes, 'totient'))
