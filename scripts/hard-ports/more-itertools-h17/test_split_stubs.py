# Held out (GitBench more-itertools-h17, written by hand): at each commit of the split, the type stubs of
# more_itertools.recipes declare exactly the functions the module exports, as they did before and after
# upstream's commit; the ticket says each new function comes with its stub.
import ast
import os
from unittest import TestCase

from more_itertools import recipes


class StubsMatchModuleTests(TestCase):
    def test_stub_declares_exactly_the_exports(self):
        stub = os.path.join(os.path.dirname(recipes.__file__), 'recipes.pyi')
        with open(stub) as f:
            tree = ast.parse(f.read())
        declared = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
        self.assertEqual(declared, set(recipes.__all__))
        for name in recipes.__all__:
            self.assertTrue(callable(getattr(recipes, name)), name)
